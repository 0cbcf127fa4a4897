// pnpm eval's gate end to end, on the hybrid query eval (evals/query.eval.ts): the full offline
// run passing the committed floors (the shared `fixtures` run), a deliberately weakened engine
// falling below them, pnpm eval:compare on the two real reports, and an explicit, logged lowering.
// Floors set by a real run and the next run gated by them are test/eval-init.test.ts's (a new
// dataset's first floors); what the verdict decides from built inputs is
// packages/eval-gate/src/judge-run.test.ts's. What the commands refuse before Evalite starts is
// checked in process, through their main.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { afterAll, describe, expect, it } from "vitest";
import type { Baseline } from "@hybrid-search/eval-gate/baseline";
import { reportProblems } from "@hybrid-search/eval-gate/report-file";
import type { Report } from "@hybrid-search/eval-gate/report";
import { main as compareMain } from "../bin/eval-compare.js";
import { evaliteMeanLine, verdictLine } from "../bin/eval-verdict.js";
import { stripAnsi } from "../bin/lib/evalite-terminal.js";
import { type EvalRun, evalInProcess, type Outcome, ROOT, RUN_TIMEOUT_MS } from "./eval-run.js";
import { HYBRID, QUERY_EVAL, WEAKENED } from "./shared-runs/configurations/fixtures.js";
import { sharedRun } from "./shared-runs/read.js";

const fixtures = sharedRun("fixtures");
const weakened = sharedRun("gate:weakened");
const lowered = sharedRun("gate:lowered");
const passMark = sharedRun("gate:pass-mark");
const badProvider = sharedRun("gate:bad-provider");

const work = mkdtempSync(join(tmpdir(), "gate-test-"));
/** The committed floors, for what pnpm eval refuses in process (it never writes them). */
const baselinePath = join(ROOT, "evals/baseline.json");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function reportOf(r: EvalRun): { path: string; report: Report } {
  const name = readdirSync(r.reportsDir).find((f) => /^\d{4}-.*Z\.json$/.test(f));
  expect(name, `no report in ${r.reportsDir}: ${r.stdout}${r.stderr}`).toBeDefined();
  const path = join(r.reportsDir, name!);
  return { path, report: JSON.parse(readFileSync(path, "utf8")) as Report };
}

/** `pnpm eval:compare <args>` in process, through its main. */
function compare(...args: string[]): Outcome {
  const r = { code: 0, stdout: "", stderr: "" };
  r.code = compareMain(args, { stdout: (s) => (r.stdout += s), stderr: (s) => (r.stderr += s) });
  return r;
}

/** `pnpm eval <args>` in process with the committed floors: for what it refuses before Evalite starts. */
const refused = (args: string[], env: Record<string, string> = {}): Promise<Outcome> =>
  evalInProcess(args, { EVAL_BASELINE: baselinePath, ...env });

const baseline = (): Baseline => JSON.parse(readFileSync(baselinePath, "utf8")) as Baseline;

/** The suites of a run's Evalite storage, as its UI reads them: the status it marks (⊗ for fail) and the duration it shows. */
async function suitesShown(r: EvalRun): Promise<Array<{ name: string; status: string; duration: number }>> {
  const storage = await createSqliteStorage(join(r.dir, "evalite.db"));
  try {
    return (await storage.suites.getMany({})).map(({ name, status, duration }) => ({ name, status, duration }));
  } finally {
    await storage.close();
  }
}

describe("pnpm eval gates on per-metric floors", () => {
  it(
    "the full offline run passes the committed floors and writes a schema-valid report set",
    async () => {
      const r = await fixtures.run();
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/gate: offline floors from evals\/baseline\.json: [1-9]\d* checked, 0 fell, 0 missing/);
      expect(r.stdout).toMatch(/gate: offline latency ceilings \(p95, ms\): [1-9]\d* checked, 0 exceeded, 0 missing/);
      expect(r.stdout).toMatch(
        /cases: \d+ \(retrieval cases and questions\): \d+ pass, \d+ fail, 0 error; 0 regressed, \d+ known failure\(s\), 0 fixed, 0 new failure\(s\)/,
      );
      // Evalite's mean is reported, and the block says what decided instead.
      expect(r.stdout).toMatch(
        /\nevalite: mean \d+\.\d % of \d+ scores — not the verdict: the floors, latency ceilings, recorded cases and failed evals decide \(--threshold N adds this mean\)\n/,
      );
      expect(r.stdout).toMatch(/eval: PASS; exit 0/);
      // The quiet default: one line for the file once scored, no table of cases, no threshold line of
      // Evalite's, no banner, no Evalite summary (what a run of one file prints and builds:
      // test/eval-init.test.ts).
      const quiet = stripAnsi(r.stdout);
      expect(quiet).toMatch(/^ \d+% evals\/query\.eval\.ts {2}\(58 evals\)$/m);
      expect(quiet).not.toMatch(/╔|Threshold|EVALITE|Eval Files|Port \d+ unavailable|Results exported|⏳/);
      expect(quiet).toMatch(/^index: building dataset fixtures…\nindex: dataset fixtures, 58 documents/m);
      const normal = reportOf(r);
      expect(reportProblems(normal.report)).toEqual([]);
      expect(normal.report).toMatchObject({
        status: "pass",
        exitStatus: 0,
        mode: "offline",
        floorMode: "offline",
        fixtures: { dataset: "fixtures", queries: 67, judgedQueries: 58 },
      });
      expect(normal.report.fingerprint.corpusHash).toMatch(/^[0-9a-f]{64}$/);
      expect(normal.report.aggregates.find((a) => a.eval === HYBRID && a.slice === "all")!.latency).toMatchObject({ source: "elapsedMs" });
      const files = readdirSync(r.reportsDir);
      expect(files.filter((f) => /Z\.(md|junit\.xml)$/.test(f))).toHaveLength(2);
      // A clean run: the JUnit file holds no failure although some cases fail as recorded; classnames are repo-relative.
      const junit = readFileSync(join(r.reportsDir, files.find((f) => f.endsWith(".junit.xml"))!), "utf8");
      expect(junit).toMatch(/<testsuites name="pnpm eval" tests="\d+" failures="0" errors="0" skipped="[1-9]\d*"/);
      expect(junit).toContain('classname="evals/query.eval.ts"');
      expect(junit).not.toContain(`classname="${ROOT}`);
      // What Evalite's UI shows of it: no ⊗ (the gate passed the suite), and a duration that is not Evalite's 0.
      const shown = (await suitesShown(r)).find((s) => s.name === HYBRID);
      expect(shown).toMatchObject({ name: HYBRID, status: "success" });
      expect(shown!.duration).toBeGreaterThan(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a filtered run leaves the badge alone: its pass rate is not the suite's",
    async () => {
      const r = await weakened.run();
      expect(readdirSync(r.reportsDir)).not.toContain("badge.json");
      expect(r.stdout).toMatch(/no badge: a filtered run's pass rate is not the suite's/);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a weakened engine exits 1 and names every fallen metric with its drop",
    async () => {
      const r = await weakened.run();
      expect(r.code, r.stdout + r.stderr).toBe(1);
      // --verbose: Evalite's own output, its table of cases included, but no threshold line of its own.
      const verbose = stripAnsi(r.stdout);
      expect(verbose).toContain("╔");
      expect(verbose).toMatch(/^ ⏳ evals\/query\.eval\.ts {2}\(58 evals\)$/m);
      expect(verbose).toMatch(/^ {6}Score {2}\d+%$/m);
      expect(verbose).not.toContain("Threshold");
      // --threshold N: Evalite's mean is part of the verdict.
      expect(r.stdout).toMatch(
        /\nevalite: mean \d+\.\d % of \d+ scores; --threshold 100 % not met \(part of the verdict, with the floors, latency ceilings, recorded cases and failed evals\)\n/,
      );
      expect(r.stdout).toMatch(/gate: REGRESSION: \d+ floor\(s\) fell or went missing:/);
      expect(r.stdout).toMatch(/ {2}Hybrid query \(balanced\)\|nDCG@10\|all {2}0\.\d{4} < floor 0\.\d{4} {2}\(−0\.\d{4}\) {2}n=58/);
      // The cases that passed before and fail now are named, each with why.
      expect(r.stdout).toMatch(
        /cases: REGRESSION: \d+ case\(s\) passed before and fail now:\n {2}Hybrid query \(balanced\)\|q-\d+ {2}\S+ 0\.\d{3} < 0\.5/,
      );
      expect(r.stdout).toMatch(
        /eval: FAIL \(\d+ case\(s\) regressed; \d+ floor\(s\) fell or went missing; Evalite's mean \d+\.\d % is below --threshold 100 %\); exit 1/,
      );
      const weak = reportOf(r);
      expect(reportProblems(weak.report)).toEqual([]);
      expect(weak.report.status).toBe("fail");
      // JUnit fails exactly the regressed cases and the fallen floors; the cases failing as recorded stay skipped.
      const junit = readFileSync(weak.path.replace(/\.json$/, ".junit.xml"), "utf8");
      const regressed = weak.report.verdicts.filter((v) => v.status === "regression");
      expect(regressed.length).toBeGreaterThan(0);
      // Every case was recorded by the committed floors' run: none is new. A weaker weighting may fix a
      // case or two (q-011 under convex fusion); a fixed case is reported, never a failure.
      expect(weak.report.verdicts.filter((v) => v.status === "new-failure")).toEqual([]);
      // Each <failure> names what failed — a regressed case by its id, with its reasons; a fallen floor
      // by eval, metric and slice, with value and floor — and nothing else fails.
      const failed = [...junit.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*><failure message="([^"]*)"/g)].map(
        ([, classname, name, message]) => ({ classname: classname!, name: name!, message: message! }),
      );
      expect((junit.match(/<failure /g) ?? []).length).toBe(failed.length);
      expect(
        failed.map((f) => (f.classname === QUERY_EVAL ? `case ${f.name.split(": ")[0]}` : `floor ${f.classname} ${f.name}`)).sort(),
      ).toEqual(
        [
          ...regressed.map((v) => `case ${v.id}`),
          ...weak.report.gate.failures.map((c) => `floor gate.${c.eval} ${c.metric} | ${c.slice}`),
          ...weak.report.gate.ceilings.failures.map((c) => `floor gate.${c.eval} p95 latency | ${c.slice}`),
        ].sort(),
      );
      for (const f of failed)
        expect(f.message).toMatch(
          f.classname === QUERY_EVAL ? /^regression: passed before; .*\d &lt; 0\.5/ : /^0\.\d{4} &lt; floor 0\.\d+ \(−0\.\d+, n=\d+\)$/,
        );
      expect(junit).toMatch(/<testsuites name="pnpm eval" tests="\d+" failures="\d+" errors="0" skipped="[1-9]\d*"/);
      expect(weak.report.engineOptions).toEqual({ hybrid: { columnWeights: [0, 0, 0] } });
      const fell = weak.report.gate.failures.find((c) => c.key === `${HYBRID}|nDCG@10|all`)!;
      expect(fell.delta!).toBeLessThan(-0.03);
      // No case threw, so Evalite stored the suite as a success; the gate failed it, and marked it so (⊗ in the UI).
      expect(weak.report.evalite.failedSuites).toEqual([]);
      expect(await suitesShown(r)).toEqual([expect.objectContaining({ name: HYBRID, status: "fail" })]);
    },
    RUN_TIMEOUT_MS,
  );

  it("refuses to set floors from a tuned engine", async () => {
    const r = await refused(["query", "--update-baseline"], WEAKENED);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "eval: --update-baseline sets floors for the engine's defaults; unset EVAL_ENGINE_OPTIONS (a tuning experiment) first\n",
    );
  });

  it("refuses a misspelled or out-of-range EVAL_ENGINE_OPTIONS before measuring, not a run of the defaults", async () => {
    const typo = await refused(["query"], { EVAL_ENGINE_OPTIONS: JSON.stringify({ hybrid: { rrfk: 10 } }) });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^eval: EVAL_ENGINE_OPTIONS: Unknown hybrid option "rrfk"; did you mean "rrfK"\? \(known: [^\n]+\)\n$/);
    const range = await refused(["query"], { EVAL_ENGINE_OPTIONS: JSON.stringify({ hybrid: { rrfK: -1 } }) });
    expect(range.code).toBe(2);
    expect(range.stderr).toBe('eval: EVAL_ENGINE_OPTIONS: Expected hybrid "rrfK" to be a non-negative number, got -1\n');
  });

  it("pnpm eval:compare on the two real reports: deltas, p-values, regressions first", async () => {
    const normal = reportOf(await fixtures.run());
    const weak = reportOf(await weakened.run());
    const r = compare(normal.path, weak.path);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain("fingerprint: same");
    expect(r.stdout.indexOf("REGRESSIONS (")).toBeLessThan(r.stdout.indexOf("NO SIGNIFICANT CHANGE ("));
    const regressions = r.stdout.slice(r.stdout.indexOf("REGRESSIONS ("), r.stdout.indexOf("NO SIGNIFICANT CHANGE ("));
    expect(regressions).toMatch(
      /Hybrid query \(balanced\) › nDCG@10: 0\.\d{3} → 0\.\d{3} {2}Δ −0\.\d{3} {2}95% CI \[−0\.\d{3}, −0\.\d{3}\] {2}p [\d.e-]+ \(Holm [\d.e-]+\) {2}wins \d+ \/ losses \d+ \/ ties \d+ {2}n 58/,
    );
    // The full run's other suites are only in a: listed, and compared on nothing.
    expect(r.stdout).toMatch(
      /latency \(engine time\), p50 \/ p95:\n(?: {2}.*\n)* {2}Hybrid query \(balanced\): [\d.]+ m?s \/ [\d.]+ m?s → [\d.]+ m?s \/ [\d.]+ m?s\n/,
    );
    const json = JSON.parse(compare(normal.path, weak.path, "--json").stdout);
    expect(json.metrics[0]).toMatchObject({ suite: HYBRID, verdict: "regression" });
    // The same run against itself: nothing changed.
    const same = compare(normal.path, normal.path);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("REGRESSIONS (0)");
  });

  it("pnpm eval:compare refuses runs with different fingerprints unless forced, and anything that is not a report", async () => {
    const normal = reportOf(await fixtures.run());
    const weak = reportOf(await weakened.run());
    const other = join(work, "other.json");
    writeFileSync(other, JSON.stringify({ ...weak.report, fingerprint: { ...weak.report.fingerprint, corpusHash: "f".repeat(64) } }));
    const refused = compare(normal.path, other);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^eval:compare: the runs measured different things, .*: corpusHash: "[0-9a-f]{64}" ≠ "f{64}" \(--force compares anyway\)\n$/,
    );
    const forced = compare(normal.path, other, "--force");
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain("fingerprints differ (compared anyway: --force): corpusHash");
    copyFileSync(join(ROOT, "package.json"), join(work, "package.json"));
    const notReport = compare(normal.path, join(work, "package.json"));
    expect(notReport.code).toBe(2);
    expect(notReport.stderr).toMatch(
      /^eval:compare: .*package\.json: not a pnpm eval report \(packages\/eval-gate\/report\.schema\.json\): .*\n$/,
    );
    expect(compare(normal.path).stderr).toBe(
      "eval:compare: two reports are needed, got 1; Usage: pnpm eval:compare <a.json> <b.json> [--force] [--json]\n",
    );
    const flag = compare(normal.path, weak.path, "--no-such-flag");
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^eval:compare: Unknown option '--no-such-flag'.*; Usage: pnpm eval:compare [^\n]*\n$/);
  });

  it(
    "lowering a floor and accepting failures take explicit flags and a reason, and are logged",
    async () => {
      // One run lowers the floors and accepts the regressed cases; that a lowering alone still fails
      // on the regressed cases is judgeRun's (packages/eval-gate/src/judge-run.test.ts).
      const r = await lowered.run();
      const before = (await lowered.fact<Baseline>("before")).floors.offline![HYBRID]!["nDCG@10"]!.all!;
      const b = await lowered.fact<Baseline>("after");
      // Evalite's flags reach its runner: no table even with --verbose (the `evalite run` CLI ignored --hideTable).
      expect(r.stdout).toMatch(/EVALITE/);
      expect(r.stdout).not.toContain("╔");
      // Floors and recorded cases both take the weaker run, which then passes.
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/cases: 58 \(retrieval cases and questions\): .*; 0 regressed, \d+ known failure\(s\)/);
      expect(b.floors.offline![HYBRID]!["nDCG@10"]!.all!).toBeLessThan(before);
      expect(b.log.at(-1)).toMatchObject({ action: "lower", reason: "test: accept the weaker ranking" });
      expect(b.log.at(-1)!.changes.find((c) => c.key === `${HYBRID}|nDCG@10|all`)).toMatchObject({ from: before });
      expect(b.log.at(-1)).toMatchObject({
        action: "lower",
        cases: expect.arrayContaining([expect.objectContaining({ to: "fail" })]),
      });
    },
    RUN_TIMEOUT_MS,
  );

  it("says what decided beside Evalite's mean: the gate, or --threshold with it; a configured threshold is not applied", () => {
    const line = (threshold: number | null, source: "none" | "evalite.config.ts" | "--threshold", thresholdMet: boolean | null) =>
      evaliteMeanLine({
        evalite: { exitStatus: 0, mean: 0.763, scores: 2540, thresholdMet, failedSuites: [] },
        thresholds: { evalite: { threshold, source, binding: source === "--threshold" } },
      });
    expect(line(null, "none", null)).toBe(
      "mean 76.3 % of 2540 scores — not the verdict: the floors, latency ceilings, recorded cases and failed evals decide (--threshold N adds this mean)",
    );
    expect(line(70, "evalite.config.ts", true)).toBe(
      "mean 76.3 % of 2540 scores; evalite.config.ts sets threshold 70 %, met, which pnpm eval does not apply — not the verdict: the floors, latency ceilings, recorded cases and failed evals decide (--threshold N adds this mean)",
    );
    expect(line(80, "--threshold", false)).toBe(
      "mean 76.3 % of 2540 scores; --threshold 80 % not met (part of the verdict, with the floors, latency ceilings, recorded cases and failed evals)",
    );
  });

  it("the last line: PASS only when a bar held; NOT GATED counts the passing cases; FAIL gives every reason", () => {
    const summary = { cases: 8, passed: 0 };
    expect(verdictLine({ status: "pass", statusReasons: [], exitStatus: 0, summary } as never)).toBe("eval: PASS; exit 0");
    expect(verdictLine({ status: "not-gated", statusReasons: [], exitStatus: 0, summary } as never)).toBe(
      "eval: NOT GATED (0 of 8 cases pass; no floor, latency ceiling, recorded case or threshold held this run: --require-gate makes that a failure); exit 0",
    );
    expect(verdictLine({ status: "fail", statusReasons: ["a", "b"], exitStatus: 1, summary } as never)).toBe("eval: FAIL (a; b); exit 1");
  });

  it("bad input stops with one line and exit 2, before any eval runs", async () => {
    // A filter names eval files exactly: one that names none lists the names, before Evalite starts.
    for (const name of ["no-such-eval", "searc", "*.md"]) {
      const filter = await refused([name]);
      expect(filter.code).toBe(2);
      expect(filter.stdout).toBe("");
      expect(filter.stderr).toBe(
        `eval: no eval file is named ${JSON.stringify(name)} (eval names: agent, ask, cjk, expansion, lexical, multilingual, query, search, temporal, thoroughness, vsearch; a glob such as '*search' selects several)\n`,
      );
    }
    const reason = await refused(["query", "--lower-floor", HYBRID]);
    expect(reason.code).toBe(2);
    expect(reason.stderr).toBe('eval: --lower-floor needs --reason "why the floor may drop"\n');
    // A malformed ceiling in the baseline: the file and the field.
    writeFileSync(join(work, "ceiling.json"), JSON.stringify({ ...baseline(), ceilings: { offline: { [HYBRID]: { all: "fast" } } } }));
    const ceiling = await refused(["query"], { EVAL_BASELINE: join(work, "ceiling.json") });
    expect(ceiling.code).toBe(2);
    expect(ceiling.stderr).toMatch(
      /^eval: .*ceiling\.json: \/ceilings\/offline\/Hybrid query \(balanced\)\/all: must be a number of milliseconds > 0 \(got "fast"\)\n$/,
    );
    const flag = await refused(["query", "--dryRun"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("eval: unknown flag --dryRun (did you mean --dry-run?); pnpm eval --help lists the flags\n");
    expect(flag.stdout).toBe("");
    // Checked before Evalite starts: one line of ours (Evalite's CLI printed its own after ~20 s), and
    // Evalite never opened its storage.
    const storage = join(work, "bogus-evalite.db");
    const bogus = await refused(["--bogus"], { EVALITE_STORAGE: storage });
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe("");
    expect(bogus.stderr).toBe("eval: unknown flag --bogus; pnpm eval --help lists the flags\n");
    expect(existsSync(storage)).toBe(false);
    // A mistyped baseline path does not switch the gate off.
    const missing = await refused(["search"], { EVAL_BASELINE: "no-such.json" });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe(
      `eval: ${join(ROOT, "no-such.json")}: no such baseline file (EVAL_BASELINE names the floors file); to start one there: pnpm eval --update-baseline --reason "..."\n`,
    );
    writeFileSync(join(work, "broken.json"), '{ "version": 1, "floors": ');
    const broken = await refused(["query"], { EVAL_BASELINE: join(work, "broken.json") });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^eval: .*broken\.json: not valid JSON \(.*\)\n$/);
  });

  it(
    "a pass mark for a metric nobody measures, known only once the run has measured, is one line and exit 2; nothing is written",
    async () => {
      // The same typo in the baseline's passMarks names the file and the field: judgeRun's message
      // (packages/eval-gate/src/judge-run.test.ts), through the same path to exit 2 as the flag's.
      const mark = await passMark.run();
      expect(mark.code).toBe(2);
      expect(mark.stderr).toMatch(
        /^eval: --pass-mark nDCG@11=…: no metric "nDCG@11" in this run or the baseline's floors \(metrics: .*nDCG@10.*\)\n$/,
      );
      expect(existsSync(mark.reportsDir)).toBe(false);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "a bad model configuration, found by global setup inside pnpm eval's process, is one line and exit 2 too",
    async () => {
      const provider = await badProvider.run();
      expect(provider.code).toBe(2);
      expect(provider.stderr).toBe('eval: ENGINE_PROVIDER must be google, openai-compatible or offline, got "nonsense"\n');
    },
    RUN_TIMEOUT_MS,
  );
});
