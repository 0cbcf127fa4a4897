/**
 * The user's own turn cases, end to end through `pnpm eval agent`: a copy of fixtures/ under
 * another name runs the agent eval's 24 turn cases as a user's dataset; the sample with a
 * turn-cases.json runs in process over its own corpus with the offline policy; and the sample
 * with a v10r-style golden-cases.json runs against a stand-in assistant (test/stand-ins/) whose turn
 * trace has its own shape, through an adapter, its cases scored and its planted recalled citation
 * caught by name; the three runs are the shared configuration dataset:own-turns. Reading, mapping
 * and the lint are unit-tested in helpers/datasets/turn-cases.test.ts, the adapter's turn mapping
 * in helpers/targets/adapter-turn.test.ts.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type EvalRun, evalInProcess, ROOT, RUN_TIMEOUT_MS } from "./eval-run.js";
import { sharedRun } from "./shared-runs/read.js";

const ownTurns = sharedRun("dataset:own-turns");
const work = mkdtempSync(join(tmpdir(), "own-turns-"));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Each agent case's id and verdict (1 or 0), from the run's Evalite export. */
function verdicts(run: EvalRun): Map<string, number> {
  const out = new Map<string, number>();
  for (const suite of run.output!.suites.filter((s) => s.name.startsWith("Agent turns")))
    for (const e of suite.evals) {
      const input = e.input as { id: string };
      out.set(input.id, e.scores.find((s) => s.name === "Turn verdict")!.score);
    }
  return out;
}

interface Report {
  summary: { cases: number; errored: number };
  skipped: Array<{ eval: string; reason: string }>;
}
function reportOf(run: EvalRun): Report {
  const file = readdirSync(run.reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json");
  return JSON.parse(readFileSync(join(run.reportsDir, file!), "utf8")) as Report;
}

describe("a dataset's own turn cases", () => {
  it("a cited document the dataset's corpus lacks stops the run before Evalite: one line naming file, record and field, exit 2", async () => {
    const dir = join(work, "broken-turns");
    cpSync(join(ROOT, "test/datasets/turn-cases"), dir, { recursive: true });
    const path = join(dir, "turn-cases.json");
    writeFileSync(path, readFileSync(path, "utf8").replace('"doc": "billing/deposit-and-refunds.md"', '"doc": "billing/gone.md"'));
    const r = await evalInProcess(["agent"], { EVAL_DATASET: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      `eval: ${dir}/turn-cases.json: case cy-deposit (/cases/1/expect/1/doc): [unknown-document] cites "billing/gone.md", which is not a document of ${dir}/corpus`,
    ]);
  });

  // The done-when, and the one path where the demo's turn cases are read as a user's
  // dataset (detection, the dataset schemas, the lint against the copy's corpus) by the CLI.
  it(
    "a copy of fixtures/ under another name runs the agent eval's 24 turn cases",
    async () => {
      const r = await ownTurns.run("copy");
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^eval: dataset demo-copy \(67 queries, 30 answer cases, 24 turn cases\): the suite's fixture format/m);
      expect(verdicts(r).size).toBe(24);
      expect(r.stdout).toMatch(/^cases: 24 /m);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a turn-cases.json beside its corpus runs in process with the offline policy over that corpus",
    async () => {
      const r = await ownTurns.run("sample");
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^eval: dataset turn-cases \(0 queries, 5 turn cases\)/m);
      expect(r.output!.suites.map((s) => s.name)).toEqual(["Agent turns [agent: offline policy]"]);
      // Every case holds over the sample's own documents: the catalog names its article, the deposit
      // answer quotes it, the correction stops at approval, the ferry is refused.
      expect(Object.fromEntries(verdicts(r))).toEqual({
        "cy-where-end": 1,
        "cy-deposit": 1,
        "cy-fix-pass": 1,
        "cy-off-corpus": 1,
        "cy-steps": 1,
      });
    },
    RUN_TIMEOUT_MS,
  );

  it("--explain-target shows the adapter's turn request for the dataset's first turn case, its surface in the path", async () => {
    const r = await evalInProcess(["--explain-target"], {
      EVAL_DATASET: "test/datasets/golden-cases",
      EVAL_TARGET: "http://127.0.0.1:9",
      EVAL_TARGET_ADAPTER: "examples/targets/turn-trace.adapter.json",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      [
        '  an agent turn, for turn case export-where "Where is the article about exporting invoices?" (surface docs):',
        "    POST http://127.0.0.1:9/api/assist/docs/turn",
      ].join("\n"),
    );
    expect(r.stdout).toContain('    {"message":"Where is the article about exporting invoices?"}');
  });

  it(
    "a golden-cases.json against a service whose turn trace has its own shape, through an adapter",
    async () => {
      const r = await ownTurns.run("golden");
      // The planted recalled citation fails a case: a new failure, not a fault of the run.
      expect(r.stdout, r.stderr).toMatch(
        /^eval: dataset golden-cases: not mapped: test\/datasets\/golden-cases\/golden-cases\.json cases\/\*\/tags \(5 records\)/m,
      );
      expect(r.output!.suites.map((s) => s.name)).toEqual(["Agent turns [http:assistant]"]);
      expect(Object.fromEntries(verdicts(r))).toEqual({
        "export-where": 1,
        "export-large": 1,
        retention: 0,
        "fix-year-end": 1,
        "off-topic": 1,
      });
      const retention = r.output!.suites[0]!.evals.find((e) => (e.input as { id: string }).id === "retention")!;
      const verdict = retention.scores.find((s) => s.name === "Turn verdict")!.metadata as { verdict: { failed: string[] } };
      expect(verdict.verdict.failed).toEqual(["unsurfaced: guides/closing-the-year.md (recalled: no tool output in the turn returned it)"]);
      const report = reportOf(r);
      expect(report.summary.errored).toBe(0);
      expect(report.skipped.map((s) => s.eval)).not.toContain("Agent turns");
    },
    RUN_TIMEOUT_MS,
  );
});
