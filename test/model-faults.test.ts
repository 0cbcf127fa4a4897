/**
 * Model faults across every answer eval: a run whose model calls fail never passes, gated or not.
 * The models are the stub OpenAI-compatible server on 127.0.0.1 (test/stub-openai-server.ts), one
 * fault per preset, so one run carries all three kinds: slim's calls get 500, balanced's an empty
 * message, quality's hang until the client's ENGINE_TIMEOUT_MS. The judge is a cooperative model
 * (the faults are the answerers'). The mode has no floors (not gated): nothing but the faults can
 * fail it.
 *
 * - `pnpm eval ask`: the answer suites of every preset, the RAG triad and the preset order;
 * - `pnpm eval '*p*'` (temporal and expansion) with the expander on the balanced preset: an empty
 *   message is no expansion (a 500 is models-e2e.test.ts's case). The temporal lane's answers are
 *   the offline extractive answerer's whatever the mode (its engine has no model, docs/evals.md),
 *   so no model fault can reach them; a failed answer there is not scored like any other
 *   (scorers/temporal.test.ts) and counts as a fault (packages/eval-gate/src/judge-run.test.ts).
 *
 * Every case whose answer, expansion or comparison is missing is not scored (`failed`) and passes
 * nowhere; the run exits 1, and its last line names the suites and the errors.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Report } from "@hybrid-search/eval-gate/report";
import { describe, expect, it } from "vitest";
import { type EvalRun, RUN_TIMEOUT_MS } from "./eval-run.js";
import { sharedRun } from "./shared-runs/read.js";

/** The runs with one fault per preset (test/shared-runs/configurations/models.ts): `pnpm eval ask`, `pnpm eval '*p*'`. */
const askFaults = sharedRun("models:faults");
const expansionFaults = sharedRun("models:faults-expansion");

/**
 * What each preset's failed answer says, by preset. On a loaded machine an instant 500 or empty
 * reply can still reach the client after its timeout (the stub shares this process with other
 * test files): then the answer failed as timed out — failed all the same, which is what is tested.
 */
const ANSWER_ERRORS: Record<string, RegExp> = {
  slim: /^answer model openai-compatible\.chat\/server-error (failed: stub: internal server error|failed: no answer within)/,
  balanced: /^answer model openai-compatible\.chat\/empty (returned no text|failed: no answer within)/,
  quality: /^answer model openai-compatible\.chat\/timeout failed: no answer within/,
};

type Score = { name: string; score: number; metadata?: Record<string, unknown> };
type Row = { suite: string; id: string; output: Record<string, unknown>; scores: Score[] };

/** A run and its report. */
function withReport(run: EvalRun): { run: EvalRun; report: Report } {
  const name = readdirSync(run.reportsDir).find((f) => /^\d{4}-.*Z\.json$/.test(f));
  expect(name, run.stdout + run.stderr).toBeDefined();
  return { run, report: JSON.parse(readFileSync(join(run.reportsDir, name!), "utf8")) as Report };
}

function rows(run: EvalRun, test: (suite: string) => boolean): Row[] {
  return (run.output?.suites ?? [])
    .filter((s) => test(s.name))
    .flatMap((s) =>
      s.evals.map((e) => ({
        suite: s.name,
        // The gate's case id: the input's id, or the input itself when it is a string.
        id: typeof e.input === "string" ? e.input : String((e.input as { id?: unknown }).id),
        output: e.output as Record<string, unknown>,
        scores: e.scores as Score[],
      })),
    );
}

/** The last line: the verdict and every reason. */
const verdictLine = (run: EvalRun): string => run.stdout.trim().split("\n").at(-1)!;

/** A row whose answer (or expansion) failed: every score of it not scored, labeled failed, 0; its case passes nowhere. */
function expectNotScored(row: Row, report: Report, except: readonly string[] = []): void {
  const graded = row.scores.filter((s) => !except.includes(s.name));
  expect(graded.length, `${row.suite} ${row.id}`).toBeGreaterThan(0);
  for (const s of graded)
    expect({ row: `${row.suite} ${row.id}`, s: s.name, ...s.metadata, score: s.score }).toMatchObject({ status: "failed", score: 0 });
  const c = report.cases.find((x) => x.suite === row.suite && x.id === row.id)!;
  expect(c.outcome, `${row.suite} ${row.id}`).not.toBe("pass");
}

describe("model faults across every answer eval: never a pass", () => {
  it(
    "pnpm eval ask, one fault per preset (500, empty message, hang): exit 1, every failed answer not scored, the errors named",
    async () => {
      const { run, report } = withReport(await askFaults.run());
      expect(run.stdout).toMatch(/\ngate: NOT GATED: no openai-compatible\S* floors in .*baseline\.json/);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(report).toMatchObject({ status: "fail", exitStatus: 1 });

      for (const preset of ["slim", "balanced", "quality"]) {
        // Every question either called the model, which failed, or was refused before any call (too little evidence).
        const answers = rows(run, (s) => s === `Answers: refusal and citations [${preset}]`);
        expect(answers).toHaveLength(30);
        const failed = answers.filter((r) => typeof r.output.error === "string");
        expect(failed.length, preset).toBeGreaterThan(10);
        for (const r of failed) expect(String(r.output.error)).toMatch(ANSWER_ERRORS[preset]!);
        for (const r of answers.filter((x) => x.output.error === undefined)) expect(r.output.refusal).toBe("insufficient-evidence");
        // In every answer suite of the preset, a failed answer's case is not scored and passes nowhere.
        const failedIds = new Set(failed.map((r) => r.id));
        const graded = rows(run, (s) => s.startsWith("Answers: ") && s.endsWith(`[${preset}]`)).filter((r) => failedIds.has(r.id));
        // Eight suites: refusal and citations, facts, required citations, RAG triad, answer correctness, questions, forbidden content, topics.
        expect(new Set(graded.map((r) => r.suite)).size).toBe(8);
        // The latency budget measures the call, which took place: the only score of a failed answer that is scored.
        for (const r of graded) expectNotScored(r, report, ["Latency ≤ 20 s"]);
        for (const id of failedIds)
          expect(report.verdicts.find((v) => v.key === `Answers: questions [${preset}]|${id}`)?.outcome, id).toBe("fail");
      }

      // Every question with a failed answer at some preset: its preset order is not scored, never "ordered".
      const order = rows(run, (s) => s === "Preset order per question");
      expect(order).toHaveLength(30);
      const compared = order.filter((r) => Object.values(r.output["expectations met"] as object).some((v) => v === null));
      expect(compared.length).toBeGreaterThan(10);
      for (const r of compared) expectNotScored(r, report);
      // And the means over all questions: none, since some answers failed.
      const overAll = rows(run, (s) => s === "Preset order over all questions")[0]!;
      expectNotScored(overAll, report);
      expect(run.stdout).toContain(
        `Preset order over all questions: expectations met per question: no means, ${compared.length} of 30 questions have a failed answer at some preset`,
      );

      // The verdict names the errored cases, the suites and the errors of all three faults.
      const line = verdictLine(run);
      expect(line).toMatch(
        // The ten answerable questions (the ones with a reference answer) all reach the failing models: answer correctness scores none.
        /^eval: FAIL \(4 eval\(s\) could score no case: Answers: answer correctness \[slim\] \(10 case\(s\), not scored: failed 10\); Answers: answer correctness \[balanced\] \(10 case\(s\), not scored: failed 10\); Answers: answer correctness \[quality\] \(10 case\(s\), not scored: failed 10\); Preset order over all questions \(1 case\(s\), not scored: failed 1\); \d+ case\(s\) errored: the target, a model or the task failed \(Answers: questions \[slim\] \d+, Answers: questions \[balanced\] \d+, Answers: questions \[quality\] \d+, Preset order per question \d+, Preset order over all questions 1\): /,
      );
      // The errors, most frequent first: with the answers of three presets failing about as often, at least two of them.
      expect(
        line.match(/"answer model openai-compatible\.chat\/(server-error|empty|timeout) [^"]*" ×\d+/g)?.length ?? 0,
      ).toBeGreaterThanOrEqual(2);
      expect(line).toMatch(/; exit 1$/);
      expect(report.statusReasons.some((r) => r.includes("case(s) errored: the target, a model or the task failed"))).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "pnpm eval '*p*' (temporal and expansion), the expander's model answering an empty message: no expansion passes, exit 1",
    async () => {
      const { run, report } = withReport(await expansionFaults.run());
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(new Set(report.evals.map((e) => e.eval))).toEqual(
        new Set(["Temporal validity", "Temporal answers", "Query expansion", "Expansion keeps identifiers"]),
      );

      // An empty message is no expansion: the query ran unexpanded, and what would read as "kept every
      // identifier" is not scored. Schema valid measures what the model sent: not JSON, 0. (On a
      // loaded machine the empty reply can reach the client after its timeout: no expansion either.)
      const kept = rows(run, (s) => s === "Expansion keeps identifiers");
      expect(kept).toHaveLength(19 * 3);
      for (const r of kept) {
        expectNotScored(r, report);
        expect(String(r.scores[0]!.metadata!.fallback)).toMatch(/^model (output is not JSON|call failed: no answer within)/);
      }
      const expanded = rows(run, (s) => s === "Query expansion");
      expect(expanded).toHaveLength(67 * 3);
      for (const r of expanded) {
        expect(r.scores.find((x) => x.name === "Schema valid")).toMatchObject({ score: 0 });
        expect(report.cases.find((c) => c.suite === r.suite && c.id === r.id)!.outcome).not.toBe("pass");
      }

      // The temporal lane's answers are the extractive answerer's: no model, so nothing to fail.
      const temporal = rows(run, (s) => s === "Temporal answers");
      expect(temporal.length).toBeGreaterThan(0);
      for (const r of temporal) expect([r.id, r.output.answerer, r.output.error]).toEqual([r.id, "offline/extractive-v1", undefined]);

      const line = verdictLine(run);
      expect(line).toMatch(
        /^eval: FAIL \(.*\d+ case\(s\) errored: the target, a model or the task failed \((Query expansion \d+, )?Expansion keeps identifiers 19\): "model (output is not JSON|call failed: no answer within)/,
      );
      expect(line).toMatch(/; exit 1$/);
    },
    RUN_TIMEOUT_MS,
  );
});
