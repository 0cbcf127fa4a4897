/**
 * `pnpm eval` end to end on the fixtures: the full offline run (every eval file, the committed
 * floors, the shared `fixtures` run), read by the tests of the suite itself and as the reference
 * the targets must reproduce. And what a target must reproduce (shared runs,
 * test/shared-runs/configurations/targets.ts):
 * - `pnpm engine serve` on an EMPTY index, seeded by the run (EVAL_TARGET_SEED), + EVAL_TARGET scores
 *   as the in-process run, to 4 decimals, and the seeded collection is deleted afterwards: after a
 *   pass, a failed run and a SIGINT alike;
 * - the engine as a target module, and runs written by `pnpm engine run` and `engine ask --batch`,
 *   read through EVAL_RUN_DIR, too;
 * - a misbehaving target (500s, a timeout, wrong schema, unknown ids, a mode it lacks): the run
 *   completes, each failure is labelled, nothing is scored as a success, the token and the cookie
 *   stay in the header;
 * - an eval the target cannot run (a mode, expansion, a lane) is in the report's `skipped` with its
 *   reason, and the gate reports its floors as skipped: never missing, never passed;
 * - a seeded collection whose DELETE fails is a warning naming it and what to do; the verdict stands.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { Report as GateReport } from "@hybrid-search/eval-gate/report";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { evalFiles } from "../helpers/index-plan.js";
import { ROOT, RUN_TIMEOUT_MS, type EvalRun } from "./eval-run.js";
import { COOKIE, TOKEN } from "./shared-runs/configurations/targets.js";
import { sharedRun } from "./shared-runs/read.js";
import { UNKNOWN_DOC } from "./stand-ins/flaky-target.js";

const fixtures = sharedRun("fixtures");
const served = sharedRun("target:serve");
const moduleTarget = sharedRun("target:module");
const recorded = sharedRun("target:recorded");
const flaky = sharedRun("target:flaky");
const deleteFails = sharedRun("target:seed-delete-fails");
const interrupted = sharedRun("target:sigint");

interface Report {
  mode: string;
  floorMode: string;
  models: Record<string, string | null>;
  aggregates: Array<{
    eval: string;
    slice: string;
    base: boolean;
    metrics: Array<{ metric: string; mean: number; n: number; notScored: Record<string, number> }>;
  }>;
  summary: { errored: number; cases: number };
  skipped: Array<{ eval: string; variant?: string; reason: string }>;
  target: {
    target: string;
    calls: number;
    clientMs: { n: number; p50Ms: number; p95Ms: number } | null;
    serverMs: { n: number; p50Ms: number; p95Ms: number } | null;
    unjudged: { results: number; calls: number; documents: string[] };
  } | null;
  gate: {
    checked: number;
    missing: number;
    skipped: number;
    checks: Array<{ key: string; eval: string; slice: string; status: string; reason?: string }>;
    ceilings: { skipped: number; checks: Array<{ key: string; status: string; reason?: string }> };
  };
}

function reportOf(run: EvalRun): Report {
  const file = readdirSync(run.reportsDir).find((f) => f.endsWith(".json") && f !== "badge.json");
  return JSON.parse(readFileSync(join(run.reportsDir, file!), "utf8")) as Report;
}

/**
 * Every base mean to 4 decimals, latency left out (it is measured, not reproduced). The answer
 * suites are named by who answered (`[offline extractive]` in-process, `[http:engine-serve]`):
 * compared without that name.
 */
function means(report: Report): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of report.aggregates.filter((a) => a.base))
    for (const m of a.metrics)
      if (!/^Latency/.test(m.metric)) out.set(`${a.eval.replace(/^(Answers: .*) \[[^\]]+\]$/, "$1")} › ${m.metric}`, m.mean.toFixed(4));
  return out;
}

const LANES = /^(Lexical matrix|CJK lane|Temporal validity|Temporal answers)/;
/** The lanes' evals: they measure the in-repo engine only, so any other target skips them. */
const LANE_EVALS = [
  "CJK lane [ja]",
  "CJK lane [ko]",
  "CJK lane [zh-hans]",
  "CJK lane [zh-hant]",
  "CJK lane by language",
  "Lexical matrix",
  "Temporal answers",
  "Temporal validity",
];
/** The skipped evals' names, sorted, and their reasons. */
const skippedOf = (report: Report) => ({
  names: report.skipped.map((s) => (s.variant ? `${s.eval} [${s.variant}]` : s.eval)).sort(),
  reasons: new Set(report.skipped.map((s) => s.reason)),
});
const inTheRepo = (target: string, kind: string) =>
  `it measures the in-repo engine's text analysis on its own index, and target ${target} is ${kind}`;
/** The in-process run's base means (the shared `fixtures` run): what every target must reproduce. */
async function inProcessMeans(): Promise<Map<string, string>> {
  return means(reportOf(await fixtures.run()));
}

describe("pnpm eval on the fixtures, offline", () => {
  const EXPECTED_SUITES = [
    "Search (BM25)",
    "Vector search",
    "Hybrid query (balanced)",
    "Thoroughness [fast]",
    "Thoroughness [balanced]",
    "Thoroughness [thorough]",
    "Tier order per query",
    "Tier order over all queries",
    "Cross-language recall",
    "Cross-language recall matrix",
    "Query expansion",
    "Expansion keeps identifiers",
  ];

  it("runs every eval file and records scores in [0, 1]", async () => {
    const base = await fixtures.run();
    const names = base.output!.suites.map((s) => s.name);
    for (const name of EXPECTED_SUITES) expect(names).toContain(name);
    for (const suite of base.output!.suites) {
      expect(suite.status, suite.name).toBe("success");
      for (const e of suite.evals) {
        expect(e.status).toBe("success");
        expect(e.scores.length).toBeGreaterThan(0);
        for (const s of e.scores) expect(s.score >= 0 && s.score <= 1, `${suite.name} ${s.name} = ${s.score}`).toBe(true);
      }
    }
    // The gate: no eval failed and no committed floor (evals/baseline.json) fell.
    expect(
      base.code,
      base.stdout
        .split("\n")
        .filter((l) => /^(gate|eval| {2})/.test(l))
        .join("\n"),
    ).toBe(0);
    expect(base.stdout).toMatch(/gate: offline floors from evals\/baseline\.json: [1-9]\d* checked, 0 fell, 0 missing/);
    expect(base.stdout).toMatch(/index: dataset fixtures, \d+ documents/);
    // The quiet terminal: a line as each index starts building, then its fingerprint; one line per
    // eval file once scored; each eval's own summary names its suite (Vitest's header, which named
    // the test that started last, is gone); no table, no threshold or port line of Evalite's.
    const out = stripAnsi(base.stdout);
    for (const lane of ["lexical", "cjk", "temporal"])
      expect(out).toMatch(new RegExp(`^index: building dataset ${lane} lane…\nindex: dataset ${lane} lane, \\d+ documents`, "m"));
    const fileLines = out.split("\n").filter((l) => /evals\/\w+\.eval\.ts/.test(l));
    expect(fileLines.map((l) => l.match(/evals\/\w+\.eval\.ts/)![0]).sort()).toEqual(evalFiles(ROOT));
    for (const line of fileLines) expect(line).toMatch(/^ \d+% evals\/\w+\.eval\.ts {2}\(\d+ evals\)$/);
    for (const language of ["zh-hans", "zh-hant", "ja", "ko"])
      expect(out).toMatch(new RegExp(`^CJK lane by language: ${language}: Recall@10 `, "m"));
    expect(out).toMatch(/^Tier order over all queries: tier means over \d+ queries: /m);
    expect(out).toMatch(/^Cross-language recall matrix:\n\| Recall@5: query ↓ document → \|/m);
    expect(out).not.toMatch(/╔|Threshold|stdout \||Port \d+ unavailable|Results exported|NOT GATED|eval: not gated/);
    // The judged metrics hold no floor: none of the heuristic's calibrations reaches κ 0.4 over 30 labels (docs/gate.md).
    expect(out).toMatch(/^gate: 5 judged metric\(s\) not gated \(a judged metric gates from κ ≥ 0\.4 over ≥ 30 labels/m);
    expect(out).toMatch(/^ {2}Faithfulness: not gated: heuristic κ 0\.00 \[0\.00, 0\.00\] vs 12 labels$/m);
    // A full run writes the badge (a filtered one does not: test/gate.test.ts).
    expect(JSON.parse(readFileSync(join(base.reportsDir, "badge.json"), "utf8"))).toMatchObject({
      schemaVersion: 1,
      label: "evals",
      color: expect.any(String),
      message: expect.stringMatching(/^\d+% pass · p95 /),
    });
  });

  it("every file of the report set says what the gate says; a question citing half its required documents fails, naming the missing one", async () => {
    const base = await fixtures.run();
    const report = JSON.parse(
      readFileSync(join(base.reportsDir, readdirSync(base.reportsDir).find((f) => /Z\.json$/.test(f))!), "utf8"),
    ) as GateReport;
    expect(report).toMatchObject({ status: "pass", exitStatus: 0, filter: null });
    // Cases fail as recorded (known failures), yet the JUnit file of a passing run holds no failure and no error.
    expect(report.gate.cases.knownFailures).toBeGreaterThan(0);
    const junit = readFileSync(join(base.reportsDir, readdirSync(base.reportsDir).find((f) => f.endsWith(".junit.xml"))!), "utf8");
    expect(junit).toMatch(
      new RegExp(`<testsuites name="pnpm eval" tests="\\d+" failures="0" errors="0" skipped="${report.gate.cases.knownFailures}"`),
    );
    expect(junit).not.toContain("<failure");
    for (const [, classname] of junit.matchAll(/<testcase classname="([^"]*)"/g))
      expect(classname).toMatch(/^(evals\/\w+\.eval\.ts|gate\..+)$/);
    // The badge's colour is the gate's verdict.
    expect(JSON.parse(readFileSync(join(base.reportsDir, "badge.json"), "utf8")).color).toBe("brightgreen");
    // Every ranking metric states its depth (MRR@10, not MRR).
    const metrics = new Set(report.aggregates.flatMap((a) => a.metrics.map((m) => m.metric)));
    for (const metric of metrics) if (/\b(MRR|nDCG|Recall|Precision)\b/.test(metric)) expect(metric).toMatch(/@\d+/);
    // a-014-like: a question whose answer cites some but not all of its required documents fails its
    // verdict, each missing document named with where it went; one never retrieved is retrieval's failure.
    const questionOf = new Map(report.verdicts.map((v) => [v.key, v]));
    const partial = report.cases.filter(
      (c) =>
        c.eval === "Answers: required citations" &&
        c.metrics.some((m) => m.metric === "Cites required docs" && m.value! > 0 && m.value! < 1),
    );
    expect(partial.length).toBeGreaterThan(0);
    for (const c of partial) {
      const q = questionOf.get(c.verdict!)!;
      expect(q, c.id).toMatchObject({ kind: "question", outcome: "fail" });
      expect(
        q.reasons.some((r) => /^did not cite \S+ \((retrieved as|its translation|not retrieved)/.test(r)),
        `${c.id}: ${q.reasons}`,
      ).toBe(true);
    }
    for (const q of report.verdicts.filter((v) => v.reasons.some((r) => /^did not cite \S+ \(not retrieved/.test(r))))
      expect(q.diagnosis?.verdict, q.key).toBe("retrieval");
    // What the Evalite columns show is in the JSON for CI scripts: every question's diagnosis, and the
    // golden-set warnings under `warnings`, each with its question.
    // The answer suites' questions (the agent eval's turn cases are judged by every expectation too, with no diagnosis).
    const questions = report.verdicts.filter((v) => v.kind === "question" && v.key.startsWith("Answers: "));
    expect(questions.length).toBe(30);
    for (const q of questions)
      expect(q.diagnosis?.verdict, q.key).toEqual(q.outcome === "pass" ? "pass" : expect.stringMatching(/^(retrieval|generation)$/));
    expect(report.warnings.length).toBeGreaterThan(0);
    for (const w of report.warnings) {
      expect(w).toMatchObject({ kind: "golden-set", message: expect.stringMatching(/shares \d+\/\d+ content terms/) });
      expect(questionOf.get(`${w.suite}|${w.id}`)!.warnings).toContain(w.message);
    }
  });

  it("forwards every engine stage to the trace, and where relevant documents went", async () => {
    const base = await fixtures.run();
    const balanced = base.output!.suites.find((s) => s.name === "Hybrid query (balanced)")!;
    const stages = balanced.evals[0]!.traces.map((t) => (t.input as { stage: string }).stage);
    expect(stages).toEqual(["bm25", "vector", "fusion", "rerank", "relevant documents"]);
    const thorough = base.output!.suites.find((s) => s.name === "Thoroughness [thorough]")!;
    expect((thorough.evals[0]!.traces[0]!.input as { stage: string }).stage).toBe("expansion");
  });
});

describe("the same scores through any target", () => {
  it(
    "engine serve + EVAL_TARGET scores as in-process to 4 decimals, with traces; floors keyed by the target",
    async () => {
      const r = await served.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^target: http:engine-serve \(http:\/\/127\.0\.0\.1:\d+\) produced the rankings and answers; corpus [0-9a-f]{12}; modes search, vsearch, fast, balanced, thorough; ask yes; expand yes; with traces$/m,
      );
      const report = reportOf(r);
      expect(report.skipped).toContainEqual({
        eval: "Lexical matrix",
        reason: "it measures the in-repo engine's text analysis on its own index, and target engine-serve is a service over HTTP",
      });
      expect([report.mode, report.floorMode]).toEqual(["http:engine-serve", "http:engine-serve"]);
      // The report names the target: its kind, name and origin (never a path or query, which could carry a secret).
      expect(report.models.target).toMatch(/^http:engine-serve \(http:\/\/127\.0\.0\.1:\d+\)$/);
      // The suite's offline models did none of the work: no line says they did, no suite is named after them.
      expect(r.stdout).not.toMatch(/^models: /m);
      expect(r.stdout).toMatch(/^grading: heuristic graders, no judge model configured/m);
      expect(r.output!.suites.map((s) => s.name)).toContain("Answers: facts [http:engine-serve]");
      expect(r.output!.suites.map((s) => s.name).join("\n")).not.toContain("offline extractive");
      // The lanes are skipped, reported with why, never scored.
      expect(skippedOf(report)).toEqual({ names: LANE_EVALS, reasons: new Set([inTheRepo("engine-serve", "a service over HTTP")]) });
      expect(r.stdout).toMatch(/^eval: 8 eval\(s\) skipped, not scored: /m);
      // Both times of every ranking call: the client's round trip and engine serve's own elapsedMs.
      const calls = report.target!.calls;
      expect(report.target).toMatchObject({
        target: "http:engine-serve",
        clientMs: { n: calls },
        serverMs: { n: calls },
        unjudged: { results: 0, calls: 0, documents: [] },
      });
      expect(report.target!.serverMs!.p50Ms).toBeLessThanOrEqual(report.target!.clientMs!.p50Ms);
      expect(r.stdout).toMatch(
        new RegExp(
          `^target: http:engine-serve: ${calls} ranking calls; client p50 [\\d.]+ m?s, p95 [\\d.]+ m?s; target's own time p50 [\\d.]+ m?s, p95 [\\d.]+ m?s; no result names a document the dataset does not hold$`,
          "m",
        ),
      );
      const expected = new Map([...(await inProcessMeans())].filter(([key]) => !LANES.test(key)));
      expect(means(report)).toEqual(expected);
      // Traces came through: the UI's stages and "lost at" for a served target.
      const balanced = r.output!.suites.find((s) => s.name === "Hybrid query (balanced)")!;
      const stages = balanced.evals[0]!.traces.map((t) => (t.input as { stage: string }).stage);
      expect(stages).toEqual(expect.arrayContaining(["bm25", "vector", "fusion", "rerank", "relevant documents"]));
      // The token: in the request header only, never in anything the run wrote.
      const written = [r.stdout, r.stderr, ...readdirSync(r.reportsDir).map((f) => readFileSync(join(r.reportsDir, f), "utf8"))].join("\n");
      expect(written).not.toContain(TOKEN);
      expect(JSON.stringify(r.output)).not.toContain(TOKEN);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "the engine wrapped as a target module (examples/targets/engine.target.ts), handed the corpus by the run, scores as in-process to 4 decimals, with traces",
    async () => {
      const r = await moduleTarget.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^target: module:engine-module \(examples\/targets\/engine\.target\.ts\) produced the rankings and answers; corpus [0-9a-f]{12}; modes search, vsearch, fast, balanced, thorough; ask yes; expand yes; with traces$/m,
      );
      expect(r.stdout).toMatch(
        /^eval: seeded collection eval of target engine-module \(examples\/targets\/engine\.target\.ts\) with the 58 documents/m,
      );
      expect(r.stdout).toMatch(/^eval: deleted the seeded collection eval of target engine-module/m);
      expect(r.stdout).not.toMatch(/^models: /m);
      const report = reportOf(r);
      expect([report.mode, report.floorMode]).toEqual(["module:engine-module", "module:engine-module"]);
      expect(report.models.target).toBe("module:engine-module (examples/targets/engine.target.ts)");
      expect(skippedOf(report)).toEqual({ names: LANE_EVALS, reasons: new Set([inTheRepo("engine-module", "a target module")]) });
      expect(means(report)).toEqual(new Map([...(await inProcessMeans())].filter(([key]) => !LANES.test(key))));
      // Every call timed by the suite, and the engine's own time reported by the module.
      expect(report.target).toMatchObject({
        target: "module:engine-module",
        clientMs: { n: report.target!.calls },
        serverMs: { n: report.target!.calls },
      });
      const balanced = r.output!.suites.find((s) => s.name === "Hybrid query (balanced)")!;
      expect(balanced.evals[0]!.traces.map((t) => (t.input as { stage: string }).stage)).toEqual(
        expect.arrayContaining(["bm25", "vector", "fusion", "rerank", "relevant documents"]),
      );
      expect(r.output!.suites.map((s) => s.name)).toContain("Answers: facts [module:engine-module]");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "engine serve on an EMPTY index, seeded by the run (EVAL_TARGET_SEED), scores as in-process to 4 decimals; the collection is gone afterwards",
    async () => {
      // The run of `target:serve`: an empty index (one finished index run over an empty folder) served, the run seeding it.
      expect(await served.fact("documentsBefore")).toBe(0);
      const r = await served.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /^eval: seeded collection eval-fixtures of target engine-serve \(http:\/\/127\.0\.0\.1:\d+\) with the 58 documents of dataset fixtures in [\d.]+ s; deleted after the run$/m,
      );
      expect(r.stdout).toMatch(/^eval: deleted the seeded collection eval-fixtures of target engine-serve \(http:\/\/127\.0\.0\.1:\d+\)$/m);
      const report = reportOf(r);
      expect(report.floorMode).toBe("http:engine-serve");
      expect(means(report)).toEqual(new Map([...(await inProcessMeans())].filter(([key]) => !LANES.test(key))));
      // Gone: the index holds nothing again.
      expect(await served.fact("documentsAfter")).toBe(0);
      const written = [r.stdout, r.stderr, ...readdirSync(r.reportsDir).map((f) => readFileSync(join(r.reportsDir, f), "utf8"))].join("\n");
      expect(written).not.toContain(TOKEN);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "runs recorded by `engine run` and `engine ask --batch` score as in-process through EVAL_RUN_DIR",
    async () => {
      const r = await recorded.run();
      expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
      const report = reportOf(r);
      expect(report.skipped).toContainEqual({ eval: "Query expansion", reason: "target recorded-engine does not expand queries" });
      expect(report.floorMode).toBe("run:recorded-engine");
      // No turns.jsonl in the folder: the agent eval is skipped, saying why (test/agent-turns.test.ts records turns).
      expect(skippedOf(report)).toEqual({
        names: [...LANE_EVALS, "Agent turns", "Expansion keeps identifiers", "Query expansion"].sort(),
        reasons: new Set([
          inTheRepo("recorded-engine", "recorded runs"),
          "target recorded-engine does not expand queries",
          "target recorded-engine does not answer agent turns",
        ]),
      });
      const expected = new Map(
        [...(await inProcessMeans())].filter(([key]) => !LANES.test(key) && !/^(Query expansion|Expansion keeps|Agent turns)/.test(key)),
      );
      expect(means(report)).toEqual(expected);
      // Recorded runs carry no time: their latency is not scored, never "within budget".
      const latency = report.aggregates
        .find((a) => a.eval === "Hybrid query (balanced)" && a.base)!
        .metrics.find((m) => /^Latency/.test(m.metric))!;
      expect(latency.notScored).toEqual({ unknown: latency.n });
      expect(report.target).toMatchObject({ target: "run:recorded-engine", clientMs: null, serverMs: null, unjudged: { results: 0 } });

      // The same runs without fast.run: the fast tier and the tier order are skipped and reported;
      // their floors (set when the tier was there) are skipped, the other tiers' floors checked.
      const t = await recorded.run("nofast");
      expect(t.code, t.stdout.slice(-3000) + t.stderr).toBe(0);
      const partial = reportOf(t);
      const lacksFast = "target recorded-nofast does not serve mode fast";
      expect(partial.skipped).toEqual([
        { eval: "Thoroughness", variant: "fast", reason: lacksFast },
        { eval: "Tier order per query", reason: lacksFast },
        { eval: "Tier order over all queries", reason: lacksFast },
      ]);
      const skippedFloors = partial.gate.checks.filter((c) => c.status === "skipped");
      expect(new Set(skippedFloors.map((c) => (c.eval === "Thoroughness" ? c.slice.split(",")[0] : c.eval)))).toEqual(
        new Set(["tier=fast", "Tier order per query"]),
      );
      expect(skippedFloors.every((c) => c.reason === lacksFast)).toBe(true);
      expect(partial.gate.checks.filter((c) => c.slice.startsWith("tier=fast")).every((c) => c.status === "skipped")).toBe(true);
      expect(partial.gate.checks.filter((c) => c.slice.startsWith("tier=balanced")).every((c) => c.status === "pass")).toBe(true);
      expect(partial.gate).toMatchObject({ missing: 0, skipped: skippedFloors.length });
      expect(partial.gate.ceilings.checks).toEqual([
        expect.objectContaining({ key: "Thoroughness|p95 ms|tier=fast", status: "skipped", reason: lacksFast }),
      ]);
      expect(t.stdout).toContain(
        `eval: 3 eval(s) skipped, not scored: Thoroughness [fast], Tier order per query, Tier order over all queries (${lacksFast})`,
      );
      expect(t.stdout).toMatch(
        new RegExp(
          `^gate: run:recorded-nofast floors from .*: \\d+ checked, 0 fell, 0 missing, ${skippedFloors.length} skipped \\(the target cannot run their evals\\)`,
          "m",
        ),
      );
      expect(t.stdout).toMatch(new RegExp(`^ {2}Thoroughness \\[fast\\] {2}\\d+ floor\\(s\\) skipped \\(${lacksFast}\\)$`, "m"));
    },
    RUN_TIMEOUT_MS,
  );
});

describe("a misbehaving target", () => {
  it(
    "completes the run, labels each failure, scores none as a success, reports the mode it lacks as skipped, and never leaks the token or cookie",
    async () => {
      const r = await flaky.run();
      const seen = await flaky.fact<Array<{ headers: { authorization?: string; cookie?: string } }>>("seen");
      // Cases failed: exit 1, never a pass; the run still wrote its report.
      expect(r.code, r.stdout.slice(-3000)).toBe(1);
      const report = reportOf(r);
      expect(report.floorMode).toBe("http:flaky");
      const suite = r.output!.suites.find((s) => s.name === "Search (BM25)")!;
      const failed = suite.evals.filter((e) => e.status === "fail");
      expect(failed.length).toBeGreaterThan(0);
      const errors = r.stdout + r.stderr;
      expect(errors).toMatch(/POST \/search: HTTP 500: INTERNAL boom Bearer \[redacted\] \[redacted\] \(2 attempts\)/);
      expect(errors).toMatch(/the response is not a SearchResponse: \(the body\): missing required field "results"/);
      expect(errors).toMatch(/POST \/search: connection failed/);
      expect(errors).toMatch(/POST \/search: no response within 2000 ms \(2 attempts\)/);
      // The unknown id is reported, and scored as unjudged (non-relevant), not dropped.
      const withUnknown = suite.evals.find((e) => (e.output as { unknownDocs?: string[] } | null)?.unknownDocs?.length);
      expect((withUnknown!.output as { unknownDocs: string[] }).unknownDocs).toEqual([UNKNOWN_DOC]);
      // Counted over the run too, in the report and the verdict block; the stub reports no time of its own.
      const withUnknownCount = suite.evals.filter((e) => (e.output as { unknownDocs?: string[] } | null)?.unknownDocs?.length).length;
      expect(report.target).toMatchObject({
        target: "http:flaky",
        serverMs: null,
        unjudged: { results: withUnknownCount, calls: withUnknownCount, documents: [UNKNOWN_DOC] },
      });
      expect(report.target!.clientMs!.n).toBe(report.target!.calls);
      // The Evalite UI names the target: the Target column of every ranked case, as stored for the UI.
      const ui = new Database(join(r.dir, "evalite.db"), { readonly: true });
      try {
        const rows = ui.prepare("SELECT rendered_columns FROM evals WHERE status = 'success'").all() as Array<{ rendered_columns: string }>;
        const named = rows.map(
          (row) => (JSON.parse(row.rendered_columns) as Array<{ label: string; value: unknown }>).find((c) => c.label === "Target")?.value,
        );
        expect(named.length).toBeGreaterThan(0);
        expect(new Set(named)).toEqual(new Set(["http:flaky"]));
      } finally {
        ui.close();
      }
      expect(r.stdout).toMatch(
        new RegExp(
          `^target: http:flaky: ${report.target!.calls} ranking calls; client p50 .*; target's own time: none reported; ${withUnknownCount} result\\(s\\) in ${withUnknownCount} call\\(s\\) name documents the dataset does not hold, scored as unjudged \\(not relevant\\): not/in/the/dataset\\.md$`,
          "m",
        ),
      );
      expect(report.summary.errored).toBe(failed.length);
      const scores = report.aggregates.find((a) => a.eval === "Search (BM25)" && a.base)!.metrics[0]!;
      expect(scores.notScored.errored).toBe(failed.length);
      // The mode it lacks: skipped and reported, its floors and ceiling skipped, never missing, never passed.
      const lacks = "target flaky does not serve mode vsearch";
      expect(report.skipped).toEqual([{ eval: "Vector search", reason: lacks }]);
      expect(r.output!.suites.map((s) => s.name)).not.toContain("Vector search");
      const vectorFloors = report.gate.checks.filter((c) => c.eval === "Vector search");
      expect(vectorFloors.length).toBeGreaterThan(0);
      expect(vectorFloors.every((c) => c.status === "skipped" && c.reason === lacks)).toBe(true);
      expect(report.gate).toMatchObject({ checked: 0, missing: 0, skipped: vectorFloors.length, ceilings: { skipped: 1 } });
      // Said once, in the verdict: a gated run does not also print each skip as it happens.
      expect(r.stdout).not.toContain(`eval: skipped "Vector search"`);
      expect(r.stdout).toContain(`eval: 1 eval(s) skipped, not scored: Vector search (${lacks})`);
      expect(r.stdout).toMatch(
        new RegExp(
          `^gate: http:flaky floors from .*: 0 checked, 0 fell, 0 missing, ${vectorFloors.length} skipped \\(the target cannot run their evals\\)`,
          "m",
        ),
      );
      expect(r.stdout).toContain(`  Vector search  ${vectorFloors.length} floor(s) skipped (${lacks})`);
      const written = readdirSync(r.reportsDir).map((f) => [f, readFileSync(join(r.reportsDir, f), "utf8")] as const);
      const junit = written.find(([f]) => f.endsWith(".junit.xml"))![1];
      expect(junit).toContain(`<testcase classname="gate.Vector search" name="Vector search"><skipped message="${lacks}"/></testcase>`);
      const markdown = written.find(([f]) => f.endsWith(".md"))![1];
      expect(markdown).toContain(`- Vector search: ${lacks} (${vectorFloors.length} floor(s), 1 latency ceiling(s) skipped)`);
      // The credentials: in their headers, and nowhere in what the run printed or wrote.
      const everything = r.stdout + r.stderr + written.map(([, text]) => text).join("") + JSON.stringify(r.output);
      expect(everything).not.toContain(TOKEN);
      expect(everything).not.toContain(COOKIE.split("=")[1]);
      expect(seen.every((h) => h.headers.authorization === `Bearer ${TOKEN}` && h.headers.cookie === COOKIE)).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("a seeded target whose run fails or is interrupted", () => {
  type Seen = Array<{ method: string; url: string; authorization?: string; headers?: { authorization?: string } }>;
  const calls = (seen: Seen) => seen.filter((c) => c.method === "PUT" || c.method === "DELETE").map((c) => `${c.method} ${c.url}`);
  const authorization = (c: Seen[number]) => c.authorization ?? c.headers?.authorization;

  it(
    "a run whose cases fail still deletes what it seeded, after the last case",
    async () => {
      // The misbehaving target's run (`target:flaky`): it takes documents, and its cases fail.
      const r = await flaky.run();
      const seen = await flaky.fact<Seen>("seen");
      expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(1);
      expect(calls(seen)).toEqual(["PUT /documents", "DELETE /documents?collection=eval-seed"]);
      expect(authorization(seen.at(-1)!)).toBe(`Bearer ${TOKEN}`);
      expect(seen.findIndex((c) => c.method === "DELETE")).toBeGreaterThan(seen.findLastIndex((c) => c.url === "/search"));
      expect(r.stdout).toContain("eval: deleted the seeded collection eval-seed of target flaky");
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a DELETE that fails is one warning naming the collection and what to do; the verdict stands",
    async () => {
      const r = await deleteFails.run();
      const seen = await deleteFails.fact<Seen>("seen");
      const url = await deleteFails.fact<string>("url");
      // Every case was answered and scored, and no floor exists for this target: not gated (never PASS), exit 0; the DELETE does not change it.
      expect(r.code, r.stdout.slice(-2000) + r.stderr).toBe(0);
      expect(calls(seen)).toEqual(["PUT /documents", "DELETE /documents?collection=eval-seed"]);
      const warnings = r.stderr.split("\n").filter((l) => l.includes("WARNING"));
      expect(warnings).toEqual([
        `eval: WARNING: the seeded collection eval-seed of target seedable (${url}) was not deleted (DELETE /documents?collection=eval-seed: HTTP 503: BUSY index locked); remove it with DELETE ${url}/documents?collection=eval-seed (with the run's token or cookie), or a later run with EVAL_TARGET_SEED=eval-seed replaces and deletes it; this run's verdict does not depend on it`,
      ]);
      expect(r.stdout).not.toContain("eval: deleted the seeded collection");
      expect(r.stdout).toMatch(
        /^eval: NOT GATED \(\d+ of \d+ cases pass; no floor, latency ceiling, recorded case or threshold held this run: --require-gate makes that a failure\); exit 0$/m,
      );
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "SIGINT during the run deletes what it seeded before the process ends",
    async () => {
      const r = await interrupted.run();
      const seen = await interrupted.fact<Seen>("seen");
      expect([r.code, r.signal]).toEqual([null, "SIGINT"]);
      expect(calls(seen)).toEqual(["PUT /documents", "DELETE /documents?collection=eval-seed"]);
      expect(authorization(seen.at(-1)!)).toBe(`Bearer ${TOKEN}`);
      expect(r.stderr).toContain("eval: interrupted (SIGINT): deleting the seeded collection eval-seed of target seedable");
      expect(r.stdout).toContain("eval: deleted the seeded collection eval-seed of target seedable");
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    },
    RUN_TIMEOUT_MS,
  );
});
