/**
 * The answer eval end to end with stub models over real HTTP (test/stub-openai-server.ts on
 * 127.0.0.1): what the stub answers is shaped per model and question, so each run pins one rule
 * of the answer eval (refusals, preset order, latency ceilings) to what `pnpm eval ask` reports.
 *
 * - A structured-answer model: refusals worded without any refusal phrase are refusals because
 *   the model said `refused: true`; with one model per preset, the preset order is measured as it
 *   is — over all questions ordered, and the one question where the quality model refuses named.
 * - A free-text model (the server rejects the JSON format) that refuses in the question's
 *   language: recognised by the markers of fixtures/refusal-markers.json in en, de, fr and it.
 *   It is also slow, and its p95 latency trips a ceiling of the baseline, which fails the run
 *   naming the ceiling.
 */
import { describe, expect, it } from "vitest";
import { loadAskCases, loadRefusalMarkers } from "../helpers/fixture-files.js";
import { type EvalRun, RUN_TIMEOUT_MS } from "./eval-run.js";
import { UNMARKED } from "./shared-runs/configurations/models.js";
import { sharedRun } from "./shared-runs/read.js";

/** The structured-answer models, one per preset (models:answers, its first `pnpm eval ask`); the slow free-text model (models:slow-text). */
const structured = sharedRun("models:answers");
const slowText = sharedRun("models:slow-text");

const ASK_CASES = loadAskCases();
const EXPECTS_REFUSAL = new Set(ASK_CASES.filter((c) => c.expectedRefusal === true).map((c) => c.id));
const MARKERS = loadRefusalMarkers();

type Score = { name: string; score: number; metadata?: Record<string, unknown> };
interface Row {
  suite: string;
  id: string;
  language: string;
  output: Record<string, unknown>;
  scores: Score[];
}

function rows(run: EvalRun, prefix: string): Row[] {
  return (run.output?.suites ?? [])
    .filter((s) => s.name.startsWith(prefix))
    .flatMap((s) =>
      s.evals.map((e) => {
        const input = e.input as { id: string; language: string };
        return {
          suite: s.name,
          id: input.id,
          language: input.language,
          output: e.output as Record<string, unknown>,
          scores: e.scores as Score[],
        };
      }),
    );
}
const score = (row: Row, name: string): Score => row.scores.find((s) => s.name === name)!;

describe("answers from a structured-answer model, one model per preset", () => {
  it(
    "takes a refusal from the model's own `refused`, and measures the preset order per question and over all",
    async () => {
      // quality states every fact, balanced the first, slim refuses — except a-001, where quality refuses and slim answers
      // (test/shared-runs/configurations/models.ts); every answer call first got 429, and was retried.
      const run = await structured.run("first");
      expect(run.output, run.stdout + run.stderr).toBeDefined();

      // Slim's refusals reached the model, carry no marker, and are refusals because the model said so.
      const slim = rows(run, "Answers: refusal and citations [slim]").filter((r) => r.output.answerFormat === "structured");
      expect(slim.length).toBeGreaterThan(10);
      for (const row of slim.filter((r) => r.id !== "a-001")) {
        expect(row.output.answer).toBe(UNMARKED[row.language]);
        expect(row.output.refusalCheck).toMatchObject({ refused: true, method: "structured" });
        expect(
          Object.values(MARKERS)
            .flat()
            .some((m) => String(row.output.answer).toLowerCase().includes(m)),
        ).toBe(false);
      }
      // A refusal of an answerable question fails the question, and says which expectation.
      const a001slim = rows(run, "Answers: questions [quality]").find((r) => r.id === "a-001")!;
      expect(score(a001slim, "Question verdict").score).toBe(0);
      expect(JSON.stringify(score(a001slim, "Question verdict").metadata!.verdict)).toMatch(/refused/);

      // The judge grades completeness against each case's expectedTopics, numbered: the stub judge
      // finds topic 1 covered and no other, so Topic coverage is 1 / topics and the question's verdict
      // names its second topic as not covered, graded by the judge.
      const topics = rows(run, "Answers: topics [quality]");
      expect(topics.length).toBeGreaterThan(10);
      for (const row of topics) {
        const expected = ASK_CASES.find((c) => c.id === row.id)!.expectedTopics!;
        const coverage = score(row, "Topic coverage");
        expect(coverage.metadata).toMatchObject({ method: "llm-judge", topics: expected.map((topic, i) => ({ topic, covered: i === 0 })) });
        expect(coverage.score).toBeCloseTo(1 / expected.length, 9);
        const verdict = score(rows(run, "Answers: questions [quality]").find((r) => r.id === row.id)!, "Question verdict").metadata!;
        expect(verdict.method).toBe("llm-judge");
        if (expected.length > 1)
          expect((verdict.verdict as { failed: string[] }).failed).toContain(`does not cover the topic ${JSON.stringify(expected[1])}`);
      }

      // The preset order: ordered over all questions; a-001, where quality refused, is named with the violation.
      const perQuestion = rows(run, "Preset order per question");
      expect(perQuestion.length).toBe(30);
      const a001 = perQuestion.find((r) => r.id === "a-001")!;
      const ordered = score(a001, "Presets ordered (expectations met)");
      expect(ordered.score).toBe(0);
      expect(String(ordered.metadata!.violations)).toMatch(/^quality < balanced by /);
      const overAll = rows(run, "Preset order over all questions")[0]!;
      const mean = score(overAll, "Presets ordered (expectations met)");
      expect(mean.score).toBe(1);
      const values = mean.metadata!.values as Record<string, number>;
      expect(values.quality).toBeGreaterThan(values.slim!);
      expect(run.stdout).toMatch(
        /Preset order over all questions: expectations met per question, mean over 30 questions: slim [\d.]+, balanced [\d.]+, quality [\d.]+/,
      );
    },
    RUN_TIMEOUT_MS,
  );
});

describe("answers from a slow free-text model that refuses in the question's language", () => {
  it(
    "recognises the refusals in en, de, fr and it by their markers, and fails the run on the exceeded p95 ceiling",
    async () => {
      // The model takes 400 ms an answer; the baseline's ceilings for its presets are 300 ms.
      const run = await slowText.run();
      expect(run.output, run.stdout + run.stderr).toBeDefined();

      const byModel = rows(run, "Answers: refusal and citations").filter((r) => r.output.answerFormat === "text");
      const languages = new Set<string>();
      for (const row of byModel) {
        const check = row.output.refusalCheck as { refused: boolean; method: string; marker?: { language: string } };
        expect(check, `${row.suite} ${row.id}`).toMatchObject({ refused: true, method: "markers" });
        expect(check.marker!.language).toBe(row.language);
        languages.add(row.language);
        // The Refusal score agrees: 1 exactly when the case expects a refusal.
        expect(score(row, "Refusal").score, `${row.suite} ${row.id}`).toBe(EXPECTS_REFUSAL.has(row.id) ? 1 : 0);
        expect(score(row, "No citations iff refused").score).toBe(1);
      }
      expect([...languages].sort()).toEqual(["de", "en", "fr", "it"]);

      // The model takes ≥ 400 ms an answer: every preset's p95 is over its 300 ms ceiling, and the run says which.
      expect(run.code, run.stdout + run.stderr).toBe(1);
      for (const preset of ["slim", "balanced", "quality"]) {
        expect(run.stdout).toMatch(
          new RegExp(`\\n  Answers: questions\\|p95 ms\\|preset=${preset}  p95 \\d+(\\.\\d)? ms > ceiling 300 ms  n=30\\n`),
        );
      }
      expect(run.stdout).toMatch(/\ngate: TOO SLOW: 3 latency ceiling\(s\) exceeded or went missing:/);
    },
    RUN_TIMEOUT_MS,
  );
});
