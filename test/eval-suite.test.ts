/**
 * `pnpm eval` on the user's own data (EVAL_DATASET: a BEIR folder; a golden Q&A set whose
 * thresholds decide the exit code; a bundle that feeds no selected eval), and a plain `evalite
 * run` of one file: shared runs (test/shared-runs/configurations/datasets.ts). The
 * full offline run on the fixtures, and what the suite checks on it, is in test/targets-e2e.test.ts,
 * where the targets are compared with it: one run for both. What a one-file filter runs and builds
 * (`pnpm eval search`: search.eval.ts only, the dataset's index only) is checked on the `pnpm eval
 * search` that test/eval-init.test.ts makes on the starter dataset.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { WHOLE_RECORD_NOTE } from "../helpers/ask-task.js";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { evalInProcess, RUN_TIMEOUT_MS } from "./eval-run.js";
import { sharedRun } from "./shared-runs/read.js";

const evaliteRun = sharedRun("evalite-run:search");
const beir = sharedRun("dataset:beir");
const golden = sharedRun("dataset:golden-qa");
const bundle = sharedRun("dataset:bundle-multilingual");

describe("one file, run by Evalite itself", () => {
  it(
    "a plain `evalite run evals/search.eval.ts` passes as pnpm eval search does, saying it is not gated and what gives the verdict",
    async () => {
      const run = await evaliteRun.command("main");
      const output = run.stdout + run.stderr;
      const code = run.code;
      // No score threshold in evalite.config.ts: the gate's floors decide, not Evalite's one mean (65 % here).
      expect(code, output.slice(-3000)).toBe(0);
      expect(stripAnsi(output)).toContain(
        "eval: not gated: this Evalite run holds no floors, latency ceilings or recorded cases (it fails only when an eval fails); the verdict: pnpm eval search\n",
      );
      expect(output).not.toContain("Threshold");
    },
    RUN_TIMEOUT_MS,
  );
});

describe("pnpm eval on a BEIR folder (EVAL_DATASET)", () => {
  it(
    "measures the engine on the user's own data with the same evals",
    async () => {
      const r = await beir.run();
      expect(r.stdout).toMatch(/eval: dataset beir-mini \(2 queries\)/);
      const suite = r.output!.suites.find((s) => s.name === "Search (BM25)")!;
      expect(suite.evals).toHaveLength(2);
      const mrr = suite.evals.flatMap((e) => e.scores.filter((s) => s.name === "MRR@10").map((s) => s.score));
      expect(mrr).toEqual([1, 1]);
      // The answer cases, the cross-language queries and the turn cases are about the fixture corpus: not measured here.
      const measured = r.output!.suites.filter((s) => s.evals.length > 0).map((s) => s.name);
      expect(measured).toContain("Thoroughness [thorough]");
      expect(measured.filter((name) => /^(Answers:|Cross-language|Agent turns)/.test(name))).toEqual([]);
      // No query holds an identifier: "Expansion keeps identifiers" has no case and is skipped, not an error.
      expect(measured).not.toContain("Expansion keeps identifiers");
      // A new dataset has no floors: the run is not gated, and passes when every eval scored something.
      expect(r.stdout).toMatch(/gate: NOT GATED: no offline@beir-mini floors/);
      expect(
        r.code,
        r.stdout
          .split("\n")
          .filter((l) => /^(gate|eval)/.test(l))
          .join("\n"),
      ).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it("stops with one line when the dataset is unusable", async () => {
    const r = await evalInProcess(["search"], { EVAL_DATASET: "/no/such/beir" });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^eval: EVAL_DATASET: \/no\/such\/beir: cannot read: no such folder/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("pnpm eval on a golden Q&A set with thresholds", () => {
  it(
    "holds the answer eval's questions to the set's minPassRate and maxP95LatencyMs, shown in the verdict and the report: exit 0 when they hold, 1 when not",
    async () => {
      const held = await golden.run("held");
      expect(held.stdout).toMatch(
        /^eval: dataset golden-qa \(5 queries, 6 answer cases\): golden Q&A set with an inline corpus \(detected: /m,
      );
      expect(held.stdout).toMatch(/^eval: dataset golden-qa: not mapped: \S+golden_qa\.json \/owner \(1 record\)/m);
      const line = held.stdout.match(
        /^gate: dataset thresholds \(\S+golden_qa\.json \/thresholds\) on Answers: questions \[offline extractive\]: pass rate (\S+) \((\d+)\/6\) ≥ 0\.5; p95 latency \d+ ms ≤ 60000 ms$/m,
      );
      expect(line, held.stdout).not.toBeNull();
      expect(held.code, held.stdout + held.stderr).toBe(0);
      expectEachAnswerStoredOnce(join(held.dir, "evalite.db"));
      // The same set with a pass rate above what this run reached (the configuration's second run):
      // the verdict fails, naming the thresholds. Six questions are too few for answer threads
      // (`auto`); that run forces them, and they write the same answers and scores.
      const failed = await golden.run("strict");
      expect(failed.stdout + failed.stderr).not.toContain("worker thread");
      const answers = storedAnswers(join(held.dir, "evalite.db"));
      // The six questions in every answer suite each applies to (q04's alternatives in "Answers: facts (one of)").
      expect(answers).toHaveLength(28);
      expect(storedAnswers(join(failed.dir, "evalite.db"))).toEqual(answers);
      const passed = Number(line![2]);
      expect(await golden.fact("passed")).toBe(passed);
      expect(failed.code, failed.stdout + failed.stderr).toBe(1);
      expect(failed.stdout).toMatch(/: FAIL; p95 latency/);
      expect(failed.stdout).toMatch(
        /^eval: FAIL \(.*the dataset's thresholds \(\S+\.json \/thresholds\) did not hold on Answers: questions \[offline extractive\]\); exit 1$/m,
      );
      const report = JSON.parse(
        readFileSync(
          join(failed.reportsDir, readdirSync(failed.reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json")!),
          "utf8",
        ),
      );
      expect(report.fixtures).toMatchObject({
        kind: "golden-qa",
        version: 2,
        gate: { pass: false, checks: [{ passed, questions: 6, passRateOk: false }] },
      });
      expect(report.fixtures.unmapped).toEqual([
        expect.objectContaining({ field: "/owner", records: 1 }),
        expect.objectContaining({ field: "/questions/*/difficulty", records: 1 }),
      ]);
    },
    RUN_TIMEOUT_MS,
  );
});

/**
 * Each question's whole answer (its sources' texts and ranked lists) and its trace are stored once,
 * with its case in "Answers: questions"; every other answer suite stores the answer as graded,
 * saying where the rest is (helpers/ask-task.ts, `AnswerRecord`).
 */
/** Every answer case of the latest run: its suite, question, answer, citations and scores (no timings). */
function storedAnswers(storage: string): unknown[] {
  const db = new Database(storage, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT s.name AS suite, e.input AS input, e.output AS output, e.id AS id FROM evals e JOIN suites s ON s.id = e.suite_id
         WHERE s.run_id = (SELECT max(id) FROM runs) AND s.name LIKE 'Answers:%'`,
      )
      .all() as Array<{ suite: string; input: string; output: string; id: number }>;
    const scores = db.prepare("SELECT name, score FROM scores WHERE eval_id = ? ORDER BY name");
    return rows
      .map((r) => {
        const { answer, citations, refused, sources } = JSON.parse(r.output);
        return {
          suite: r.suite,
          question: JSON.parse(r.input).id,
          answer,
          citations,
          refused,
          sources: sources.map((source: { docId: string }) => source.docId),
          // The latency budget's score is the engine's time, which no two runs share.
          scores: (scores.all(r.id) as Array<{ name: string; score: number }>).filter((x) => !x.name.startsWith("Latency")),
        };
      })
      .sort((a, b) => `${a.suite}|${a.question}`.localeCompare(`${b.suite}|${b.question}`));
  } finally {
    db.close();
  }
}

function expectEachAnswerStoredOnce(storage: string): void {
  const db = new Database(storage, { readonly: true });
  try {
    const rows = db
      .prepare(
        // A judged suite's only traces are its claims tables (helpers/claims-trace.ts), not the answer's.
        `SELECT s.name AS suite, e.output AS output,
           (SELECT count(*) FROM traces t WHERE t.eval_id = e.id AND t.input NOT LIKE '%: claims"%') AS traces
         FROM evals e JOIN suites s ON s.id = e.suite_id WHERE s.run_id = (SELECT max(id) FROM runs) AND s.name LIKE 'Answers:%'`,
      )
      .all() as Array<{ suite: string; output: string; traces: number }>;
    const whole = rows.filter((r) => r.suite.startsWith("Answers: questions "));
    const graded = rows.filter((r) => !r.suite.startsWith("Answers: questions "));
    expect(whole).toHaveLength(6);
    expect(new Set(graded.map((r) => r.suite)).size).toBeGreaterThanOrEqual(3);
    for (const r of whole) {
      const output = JSON.parse(r.output);
      expect(r.traces, r.suite).toBeGreaterThan(0);
      expect(output.trace.length, r.suite).toBeGreaterThan(0);
      expect(
        output.sources.every((s: { text?: unknown }) => typeof s.text === "string"),
        r.suite,
      ).toBe(true);
      expect(output.record, r.suite).toBeUndefined();
    }
    for (const r of graded) {
      const output = JSON.parse(r.output);
      expect(r.traces, r.suite).toBe(0);
      expect(output.trace, r.suite).toBeUndefined();
      expect(
        output.sources.some((s: { text?: unknown }) => "text" in s),
        r.suite,
      ).toBe(false);
      expect(output.record, r.suite).toBe(WHOLE_RECORD_NOTE);
      expect(typeof output.answer, r.suite).toBe("string");
    }
  } finally {
    db.close();
  }
}

describe("pnpm eval where the dataset feeds no selected eval", () => {
  it(
    "says that no eval could run, and which and why, instead of a run with nothing in it",
    async () => {
      // A bundle's questions state no language: the cross-language evals have nothing to measure.
      const r = await bundle.run();
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^eval: no eval could run: every selected eval was skipped$/m);
      expect(r.stdout).toMatch(
        /^eval: 2 eval\(s\) skipped, not scored: Cross-language recall, Cross-language recall matrix \(no query of dataset bundle states its language\)$/m,
      );
    },
    RUN_TIMEOUT_MS,
  );
});
