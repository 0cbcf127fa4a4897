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
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selectModels } from "@hybrid-search/engine/models";
import { afterAll, describe, expect, it } from "vitest";
import { loadAskCases, loadRefusalMarkers } from "../helpers/fixture-files.js";
import { type EvalRun, runEval } from "./eval-run.js";
import { type AnswerCall, type StubOptions, startStubServer } from "./stub-openai-server.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ASK_CASES = loadAskCases();
const CASES = new Map(ASK_CASES.map((c) => [c.question, c]));
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

async function runWith(options: StubOptions, env: Record<string, string>, baseline?: (mode: string) => unknown): Promise<EvalRun> {
  const stub = await startStubServer("good", 0, options);
  try {
    const models = { OPENAI_COMPATIBLE_BASE_URL: stub.url, OPENAI_COMPATIBLE_API_KEY: "sk-stub", ENGINE_MAX_RETRIES: "0", ...env };
    const extra: Record<string, string> = {};
    if (baseline) {
      const dir = mkdtempSync(join(tmpdir(), "answers-baseline-"));
      dirs.push(dir);
      const file = join(dir, "baseline.json");
      writeFileSync(file, JSON.stringify(baseline(selectModels({ ...process.env, ...models }).configuration)));
      extra.EVAL_BASELINE = file;
    }
    const run = await runEval(["evals/ask.eval.ts"], { ...models, ...extra });
    dirs.push(run.dir);
    return run;
  } finally {
    await stub.close();
  }
}

/** The refs of the sources that are the case's required documents (the first source when it requires none). */
function requiredRefs(call: AnswerCall, mustCite: readonly string[]): number[] {
  const refs = call.sources.filter((s) => mustCite.includes(s.doc)).map((s) => s.ref);
  return refs.length > 0 ? refs : call.sources.slice(0, 1).map((s) => s.ref);
}

describe("answers from a structured-answer model, one model per preset", () => {
  /** Refusals that contain no refusal phrase of any language: only `refused` says so. */
  const UNMARKED: Record<string, string> = {
    en: "Sorry, that is beyond what I can say here.",
    de: "Dazu kann ich leider nichts sagen.",
    fr: "Désolé, je ne peux rien dire à ce sujet.",
    it: "Mi dispiace, su questo non posso dire nulla.",
  };
  const refuse = (language: string) => ({ answer: UNMARKED[language]!, refused: true, citations: [] });
  /** quality states every fact, balanced the first, slim refuses — except a-001, where quality refuses and slim answers. */
  const answer = (call: AnswerCall) => {
    const c = CASES.get(call.question);
    if (!c) return undefined;
    if (c.expectedRefusal) return refuse(c.language);
    const facts = c.expectedSubstrings ?? [];
    const full = {
      answer: `${facts.join("; ") || "The sources say so"} [${requiredRefs(call, c.mustCite ?? []).join("] [")}]`,
      refused: false,
    };
    const model = c.id === "a-001" ? ({ "stub-quality": "stub-slim", "stub-slim": "stub-quality" }[call.model] ?? call.model) : call.model;
    if (model === "stub-quality") return { ...full, citations: requiredRefs(call, c.mustCite ?? []) };
    if (model === "stub-balanced") {
      const refs = requiredRefs(call, c.mustCite ?? []).slice(0, 1);
      return { answer: `${facts[0] ?? "The sources say so"} [${refs[0]}]`, refused: false, citations: refs };
    }
    return refuse(c.language);
  };

  it("takes a refusal from the model's own `refused`, and measures the preset order per question and over all", async () => {
    const run = await runWith(
      { answer },
      {
        ENGINE_MODEL_SLIM: "stub-slim",
        ENGINE_MODEL_BALANCED: "stub-balanced",
        ENGINE_MODEL_QUALITY: "stub-quality",
        ENGINE_JUDGE_MODEL: "stub-judge",
      },
    );
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
  }, 300_000);
});

describe("answers from a slow free-text model that refuses in the question's language", () => {
  const refusalIn = (language: string) => `${MARKERS[language]![0]!.replace(/^./, (c) => c.toUpperCase())} an answer to this question.`;
  const options: StubOptions = {
    jsonAnswers: false,
    answer: (call) => {
      const c = CASES.get(call.question);
      return c ? { answer: refusalIn(c.language), refused: true, citations: [] } : undefined;
    },
    delayMs: (_model, kind) => (kind === "answer" ? 400 : 0),
  };

  it("recognises the refusals in en, de, fr and it by their markers, and fails the run on the exceeded p95 ceiling", async () => {
    // One model id per preset: Evalite's cache collapses identical calls within a run, so presets
    // sharing one model and the same sources would replay each other's answers in no time and
    // measure the cache, not the model (a preset's p95 then stayed under its ceiling).
    const models = { ENGINE_MODEL_SLIM: "stub-slim", ENGINE_MODEL_BALANCED: "stub-balanced", ENGINE_MODEL_QUALITY: "stub-quality" };
    const run = await runWith(options, { ...models, ENGINE_TIMEOUT_MS: "20000" }, (mode) => ({
      version: 2,
      tolerance: { absolute: 0.01, perSqrtN: 0.1, minSliceN: 5 },
      passMarks: { default: 0.5, metrics: {} },
      ceilingTolerance: { factor: 3, minMs: 1000 },
      floors: {},
      cases: {},
      log: [],
      ceilings: { [mode]: { "Answers: questions": { "preset=slim": 300, "preset=balanced": 300, "preset=quality": 300 } } },
    }));
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
  }, 300_000);
});
