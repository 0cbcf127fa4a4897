/**
 * Steps 2 and 3 of `pnpm eval` (bin/eval.ts, whose comment describes the command): runs Evalite
 * once on the checked configuration, then gates exactly the run it made and prints the verdict.
 * bin/eval.ts imports this module only once its checks passed and its first line is out: it
 * loads Evalite's runner, the engine (the temp folder's clean-up) and the gate, which a refused
 * flag or a bad fixture need not wait for.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import type { EvaliteVerdict } from "@hybrid-search/eval-gate/analysis";
import {
  type Baseline,
  type CaseChange,
  type FloorChange,
  loadBaseline,
  withBaselineLock,
  writeBaseline,
} from "@hybrid-search/eval-gate/baseline";
import { exportRun, markFailedSuites, type RecordingStorage, recordCreatedRuns } from "@hybrid-search/eval-gate/evalite-storage";
import { type GateOptions, judgeRun } from "@hybrid-search/eval-gate/judge-run";
import { describeChanges } from "@hybrid-search/eval-gate/ratchet";
import { pct, type Report } from "@hybrid-search/eval-gate/report";
import { readRunInfo, readSkippedEvals, type RunInfo, type SkippedEval, skippedName } from "@hybrid-search/eval-gate/run-info";
import { suiteVerdicts } from "@hybrid-search/eval-gate/suite-verdicts";
import { draftsLine, draftsSuiteLines } from "@hybrid-search/eval-gate/drafts";
import { notGatedReason, skippedCounts, targetCallsLine, writeReportSet } from "@hybrid-search/eval-gate/writers";
import { CALIBRATION_FILE, type Calibration, type JudgeMethod } from "@hybrid-search/eval-gate/calibration";
import { stabilityLines } from "@hybrid-search/eval-gate/judge-stability";
import { summarizeUsage, type UsageSummary, usageLines } from "@hybrid-search/eval-gate/usage";
import { createInMemoryStorage } from "evalite/in-memory-storage";
import { runEvalite } from "evalite/runner";
import type { Evalite } from "evalite";
import type { Vitest } from "vitest/node";
import { JUDGED_GRADERS, judgeConfigHash } from "../scorers/judged-graders.js";
import { judgeId } from "../scorers/judge-call.js";
import { readUsageFile } from "../helpers/model-calls.js";
import { evalModels, priceTable } from "../helpers/models.js";
import type { Dataset } from "../helpers/dataset.js";
import type { EvalArgs } from "./lib/eval-args.js";
import { COMPILED_SUITE_ENV, isCompiledEntry } from "../config/compiled-suite.js";
import { datasetGateLines, QUESTIONS_EVAL } from "../helpers/datasets/thresholds.js";
import { GATED_ENV, SELECTION_ENV } from "../helpers/eval-selection.js";
import { evaliteSocketPath } from "./lib/evalite-socket.js";
import { filterEvaliteErrors, filterEvaliteOutput } from "./lib/evalite-terminal.js";
import { REPO_ROOT } from "../helpers/fixture-files/paths.js";
import { processStartedAt, runWallSeconds } from "../helpers/run-clock.js";
import { type EvaliteSetup, fixtureInfo, gitInfo } from "./lib/run-context.js";
import { removeOnExit } from "../helpers/setup-db.js";
import { SKIPPED_FILE_ENV } from "../helpers/targets/skips.js";
import { configError, type EvalIo } from "./eval-io.js";

const root = REPO_ROOT;
const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split("\n")[0]!;

/** What bin/eval.ts checked before its first line (step 1), handed on to run and judge. */
export interface CheckedRun {
  args: EvalArgs;
  argv: string[];
  io: EvalIo;
  dataset: Dataset;
  baseline: Baseline;
  baselinePath: string;
  upgradedFrom: number | null;
  evalite: EvaliteSetup;
  /** The eval files the filter selected; null: every file. */
  selected: string[] | null;
  /** The judge calibration beside the baseline, if any (judge-calibration.json). */
  calibration: Calibration | null;
}

/** The variables a run sets for Evalite, global setup and the worker: put back as they were when it ends (a test runs `main` again in the same process). */
const RUN_ENV = [
  "EVAL_RUN_INFO_FILE",
  SKIPPED_FILE_ENV,
  GATED_ENV,
  "EVAL_USAGE_FILE",
  "EVAL_TRIALS",
  "EVAL_CACHE",
  "EVAL_DRY_RUN",
  "EVAL_MAX_COST",
  COMPILED_SUITE_ENV,
  SELECTION_ENV,
] as const;

/** Steps 2 and 3 (bin/eval.ts): runs Evalite, gates its run, prints the verdict; returns the exit status. */
export async function runAndJudge(checked: CheckedRun): Promise<number> {
  const before = RUN_ENV.map((name) => [name, process.env[name]] as const);
  try {
    return await measureAndJudge(checked);
  } finally {
    for (const [name, value] of before) setOrDelete(name, value);
  }
}

async function measureAndJudge(checked: CheckedRun): Promise<number> {
  const { evalite, selected, ...checks } = checked;
  const { args, io } = checks;
  const work = mkdtempSync(join(tmpdir(), "eval-run-"));
  removeOnExit(work);
  const runInfoPath = join(work, "run-info.json");
  const skippedPath = join(work, "skipped.jsonl");
  const usagePath = join(work, "usage.jsonl");
  // The report's duration is the run's wall time: from this process's start (helpers/run-clock.ts).
  const startedAt = processStartedAt();
  let storage: Evalite.Storage;
  try {
    // A dry run's placeholder answers are no results: kept out of the UI's history.
    storage = args.dryRun ? createInMemoryStorage() : await evalite.openStorage();
  } catch (error) {
    io.stderr(`eval: Evalite's storage (evalite.config.ts, EVALITE_STORAGE) cannot be opened: ${firstLine(error)}\n`);
    return 2;
  }
  const recording = recordCreatedRuns(storage);
  let vitest: Vitest;
  const terminal = filterEvaliteOutput(process.stdout, { verbose: args.verbose, tty: process.stdout.isTTY === true });
  const errors = filterEvaliteErrors(process.stderr, { verbose: args.verbose });
  try {
    // Global setup runs in this process and evalite.config.ts is loaded in it: they read where to
    // write the run info, that the gate drives the run, and the selected files from the environment.
    process.env.EVAL_RUN_INFO_FILE = runInfoPath;
    // The eval files append each eval the target cannot run (helpers/targets/skips.ts).
    process.env[SKIPPED_FILE_ENV] = skippedPath;
    process.env[GATED_ENV] = "1";
    // Every model call is recorded there (helpers/model-calls.ts), by global setup and the workers alike.
    process.env.EVAL_USAGE_FILE = usagePath;
    process.env.EVAL_TRIALS = String(args.trials);
    // --no-cache turns the cache off; without it, a person's EVAL_CACHE (checked by the run plan) stands.
    if (args.noCache) process.env.EVAL_CACHE = "off";
    setOrDelete("EVAL_DRY_RUN", args.dryRun ? "1" : undefined);
    setOrDelete("EVAL_MAX_COST", args.maxCost === null ? undefined : String(args.maxCost));
    // Run from dist/ after the build check (bin/check-build.mjs): the eval files load the suite
    // compiled (helpers/compiled-suite.ts). Run from source (a test importing main), they do not.
    if (isCompiledEntry(import.meta.url, root)) process.env[COMPILED_SUITE_ENV] = "1";
    else delete process.env[COMPILED_SUITE_ENV];
    if (selected === null) delete process.env[SELECTION_ENV];
    else process.env[SELECTION_ENV] = JSON.stringify(selected);
    ({ vitest } = await runEvalite({
      mode: "run-once",
      cwd: root,
      storage: recording.storage,
      // No TCP port: the server only carries the model cache to the workers (helpers/evalite-socket.ts).
      serverSocket: evaliteSocketPath(work),
      // No scoreThreshold: the gate decides, and says in its block whether --threshold was part of it.
      ...args.evalite,
      ...(args.verbose ? {} : { hideTable: true }),
    }));
  } catch (error) {
    terminal.restore();
    errors.restore();
    // Evalite's UI server is still listening when its run throws: exit rather than wait on it.
    io.stderr(`eval: Evalite stopped before measuring: ${firstLine(error)}\n`);
    return io.exit(2);
  }
  terminal.restore();
  errors.restore();
  const usage = runUsage(usagePath, args.maxCost);
  if (args.dryRun) {
    await recording.storage.close();
    for (const line of usage ? usageLines(usage) : ["tokens: no model calls"]) io.stdout(`${line}\n`);
    io.stdout(
      `eval: --dry-run: no model was called; nothing was scored, gated or written (estimates: ${usage?.estimated ? "prompt characters / 4 in, maxOutputTokens or a typical output per role out" : "none"}); exit 0\n`,
    );
    return 0;
  }
  const verdict = evaliteVerdict(vitest);
  try {
    return await judgeAndReport({
      ...checks,
      configuredThreshold: evalite.threshold,
      verdict,
      recording,
      runInfoPath,
      skippedPath,
      startedAt,
      usage,
    });
  } finally {
    await recording.storage.close();
  }
}

/** What `runAndJudge` hands the gate once Evalite has run. */
interface RunToJudge extends Omit<CheckedRun, "evalite" | "selected"> {
  /** evalite.config.ts's `scoreThreshold`, null when none. */
  configuredThreshold: number | null;
  verdict: EvaliteVerdict;
  /** The storage Evalite ran on, still open: the gate reads the run from it and writes its verdicts back. */
  recording: RecordingStorage;
  runInfoPath: string;
  /** Where the eval files appended each eval the target could not run (helpers/targets/skips.ts). */
  skippedPath: string;
  startedAt: Date;
  /** The run's model calls, summed; null offline. */
  usage: UsageSummary | null;
}

/**
 * Step 3 (module comment): reads exactly this invocation's run back, has the gate judge it
 * (`judgeRun`, packages/eval-gate/src/judge-run.ts: the verdict is decided there, once), writes
 * what it returns — the baseline, the report set, the gate's verdict into each suite of the run
 * (status "fail" for a suite it failed: the ⊗ of Evalite's UI, suite-verdicts.ts) — and prints the
 * verdict; returns the exit status.
 */
async function judgeAndReport(run: RunToJudge): Promise<number> {
  const { args, io, baselinePath, verdict, recording } = run;
  const say = (line: string): void => io.stdout(`${line}\n`);
  // Exactly the run this invocation created ("run-once" makes one, lazily, at its first eval).
  const [runId, ...more] = recording.createdRunIds;
  const output = runId !== undefined && more.length === 0 ? await exportRun(recording.storage, runId) : null;
  let skipped: SkippedEval[];
  try {
    skipped = readSkippedEvals(run.skippedPath);
  } catch (error) {
    return configError(error, io);
  }
  if (runId !== undefined && output === null) {
    io.stderr(`eval: Evalite created runs ${recording.createdRunIds.join(", ")} in one "run-once" run; no verdict\n`);
    return 2;
  }
  if (output !== null && args.outputPath !== null) {
    const path = resolve(args.outputPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(output, null, 2));
    say(`eval: this run's results (Evalite's JSON export, run ${output.run.id}): ${relative(process.cwd(), path)}`);
  }
  const shown = relative(process.cwd(), baselinePath) || baselinePath;
  if (output === null) {
    const unrecorded = judgeRun({ output: null, evalite: verdict, skipped }, run.baseline, gateOptions(run, shown));
    say(`eval: ${unrecorded.reason}`);
    if (skipped.length > 0) say(skippedLine(skipped));
    return unrecorded.exitStatus;
  }
  let runInfo: RunInfo;
  try {
    runInfo = readRunInfo(run.runInfoPath);
  } catch (error) {
    return configError(error, io);
  }
  const judge = (baseline: Baseline, upgradedFrom: number | null) =>
    judgeRun(
      {
        output,
        evalite: verdict,
        runInfo,
        skipped,
        fixtures: fixtureInfo(run.dataset),
        startedAt: run.startedAt,
        finishedAt: new Date(),
        git: gitInfo(root),
        args: run.argv,
        filter: args.filter,
        // A dataset's own thresholds (a golden Q&A set's) are part of the verdict, with that format's semantics.
        datasetGate: run.dataset.gate ? { ...run.dataset.gate, eval: QUESTIONS_EVAL } : null,
        usage: run.usage,
      },
      baseline,
      { ...gateOptions(run, shown), upgradedFrom },
    );
  // A run that may change the baseline judges and writes under its lock, on the file as it is
  // then: another run's changes since this one started stay, and a second run at once waits.
  const mayChange = args.updateBaseline || args.lowerFloors.length > 0 || args.acceptFailures.length > 0;
  let judged: ReturnType<typeof judge>;
  let upgradedFrom = run.upgradedFrom;
  try {
    judged = mayChange
      ? await withBaselineLock(baselinePath, () => {
          const current = loadBaseline(baselinePath, { create: args.updateBaseline });
          upgradedFrom = current.upgradedFrom;
          const result = judge(current.baseline, current.upgradedFrom);
          if (result.kind !== "refused" && result.writeBaseline) writeBaseline(baselinePath, result.baseline);
          return result;
        })
      : judge(run.baseline, run.upgradedFrom);
  } catch (error) {
    return configError(error, io);
  }
  if (judged.kind === "refused") return configError(judged.error, io);
  if (judged.notRaised !== null) say(`baseline: not raised: ${judged.notRaised}`);
  if (upgradedFrom !== null)
    say(
      `baseline: ${shown} is version ${upgradedFrom}, read as version 2 (MRR is now MRR@10; no ceilings or recorded cases yet)${args.updateBaseline ? "; written as version 2" : "; pnpm eval --update-baseline writes it as version 2"}`,
    );
  const { report, changes, caseChanges } = judged;
  const reportsDir = resolve(process.env.EVAL_REPORTS_DIR?.trim() || join(root, "reports"));
  const paths = writeReportSet(args.keepReport ? join(reportsDir, "kept") : reportsDir, report);
  try {
    await markFailedSuites(recording.storage, output, suiteVerdicts(report));
  } catch (error) {
    // The verdict stands; only the UI's marks are missing.
    say(`eval: the gate's verdicts could not be written to Evalite's storage (the UI's ⊗ marks): ${firstLine(error)}`);
  }
  printVerdict(report, changes, baselinePath, say);
  if (report.fixtures.gate) for (const line of datasetGateLines(report.fixtures.gate)) say(line);
  printCases(report, caseChanges, say);
  const written = [paths.markdown, paths.junit, ...(paths.badge ? [paths.badge] : [])].map((p) => relative(process.cwd(), p));
  say(
    `report: ${relative(process.cwd(), paths.json)} (+ ${written.join(", ")})${paths.badge ? "" : "; no badge: a filtered run's pass rate is not the suite's"}`,
  );
  say(`eval: wall time ${runWallSeconds().toFixed(1)} s (this run, from its process's start to its verdict)`);
  say(
    `eval: ${report.status.toUpperCase()}${report.statusReasons.length > 0 ? ` (${report.statusReasons.join("; ")})` : ""}; exit ${report.exitStatus}`,
  );
  return judged.exitStatus;
}

/** The command line's say in the verdict (judge-run.ts `GateOptions`); `shown`: the baseline's path as messages name it. */
function gateOptions(run: RunToJudge, shown: string): GateOptions {
  const { args } = run;
  return {
    updateBaseline: args.updateBaseline,
    lowerFloors: args.lowerFloors,
    acceptFailures: args.acceptFailures,
    reason: args.reason,
    passMarks: args.passMarks,
    threshold: args.threshold,
    configuredThreshold: run.configuredThreshold,
    judgedGraders: JUDGED_GRADERS,
    baselinePath: relative(root, run.baselinePath) || run.baselinePath,
    baselineShown: shown,
    upgradedFrom: run.upgradedFrom,
    root,
    ...(args.maxFlipRate === null ? {} : { maxFlipRate: args.maxFlipRate }),
    judge: {
      methods: judgeMethods(),
      calibration: run.calibration,
      calibrationPath: relative(process.cwd(), join(dirname(run.baselinePath), CALIBRATION_FILE)),
    },
  };
}

/** The judge methods of this run's configuration: the heuristic always, the judge model (with its prompts' hash) when one is set. */
function judgeMethods(): Array<JudgeMethod & { judgeConfig: string | null }> {
  const { judge } = evalModels();
  return [
    { method: "heuristic", model: null, judgeConfig: null },
    ...(judge ? [{ method: "llm-judge" as const, model: judgeId(judge), judgeConfig: judgeConfigHash(judgeId(judge)) }] : []),
  ];
}

/** The model calls the run recorded, summed per role and model with their cost; null offline (nothing recorded, none configured). */
function runUsage(path: string, maxCost: number | null): UsageSummary | null {
  const calls = readUsageFile(path);
  if (calls.length === 0 && evalModels().selection.mode === "offline") return null;
  const { prices, override } = priceTable();
  return summarizeUsage(calls, prices, { override, maxCost });
}

function setOrDelete(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/**
 * What Evalite's reporter counts for its exit status, read from vitest after the run ("run-once"
 * mode keeps that status to itself): failed tests (a task threw or timed out) and eval files that
 * did not load.
 */
function evaliteVerdict(vitest: Vitest): EvaliteVerdict {
  return {
    failedTests: vitest.state.getCountOfFailedTests(),
    unloadedFiles: vitest.state
      .getTestModules()
      .filter((module) => module.errors().length > 0)
      .map((module) => relative(root, module.moduleId)),
  };
}

function printVerdict(report: Report, changes: readonly FloorChange[], baselinePath: string, say: (line: string) => void): void {
  const g = report.gate;
  const t = report.thresholds.tolerance;
  const where = relative(process.cwd(), baselinePath) || baselinePath;
  if (report.skipped.length > 0) say(skippedLine(report.skipped));
  if (g.checked + g.notRun + g.skipped === 0) {
    say(
      `gate: NOT GATED: no ${report.floorMode} floors in ${where}, so no mean of this run is held to a floor; it passes only when no eval failed, the target and every model answered every case, and every eval scored something. Set floors with: pnpm eval --update-baseline --reason "..."`,
    );
  } else {
    say(
      `gate: ${report.floorMode} floors from ${where}: ${g.checked} checked, ${g.fell} fell, ${g.missing} missing${g.notRun > 0 ? `, ${g.notRun} not run (filtered out)` : ""}${g.skipped > 0 ? `, ${g.skipped} skipped (the target cannot run their evals)` : ""} (tolerance ${t.absolute} + ${t.perSqrtN}/√n; language/category slices need n ≥ ${t.minSliceN})`,
    );
  }
  if (g.failures.length > 0) {
    say(`gate: REGRESSION: ${g.failures.length} floor(s) fell or went missing:`);
    for (const c of g.failures) {
      say(
        c.status === "missing"
          ? `  ${c.key}  not measured (floor ${c.floor})`
          : `  ${c.key}  ${c.value!.toFixed(4)} < floor ${c.floor.toFixed(4)}  (${c.delta! >= 0 ? "+" : "−"}${Math.abs(c.delta!).toFixed(4)})  n=${c.n}`,
      );
    }
    say(`gate: if a drop is intended: pnpm eval --lower-floor "<eval|metric|slice>" --reason "why"`);
  }
  for (const line of skippedFloorLines(report)) say(line);
  // Floors and ceilings exist, but the target could run none of their evals: say so as the Markdown and badge do.
  const skippedAll = g.skipped > 0 ? notGatedReason(report) : null;
  if (skippedAll !== null) say(`gate: NOT GATED: ${skippedAll}; no mean of this run was held to a floor`);
  if (g.unfloored.length > 0) say(`gate: ${g.unfloored.length} measurement(s) have no floor yet; pnpm eval --update-baseline adds them`);
  const c = g.ceilings;
  if (c.checked + c.notRun + c.skipped > 0)
    say(
      `gate: ${report.floorMode} latency ceilings (p95, ms): ${c.checked} checked, ${c.exceeded} exceeded, ${c.missing} missing${c.notRun > 0 ? `, ${c.notRun} not run` : ""}${c.skipped > 0 ? `, ${c.skipped} skipped` : ""} (ceiling = max(${report.thresholds.ceilingTolerance.factor} × p95, ${report.thresholds.ceilingTolerance.minMs} ms) when set)`,
    );
  if (c.failures.length > 0) {
    say(`gate: TOO SLOW: ${c.failures.length} latency ceiling(s) exceeded or went missing:`);
    for (const x of c.failures)
      say(
        x.p95Ms === null
          ? `  ${x.key}  no latency measured (ceiling ${x.ceilingMs} ms)`
          : `  ${x.key}  p95 ${x.p95Ms.toFixed(1)} ms > ceiling ${x.ceilingMs} ms  n=${x.n}`,
      );
    say(`gate: if it is intended: pnpm eval --lower-floor "<eval|p95 ms|slice>" --reason "why"`);
  }
  if (changes.length > 0) {
    const { summary, lines } = describeChanges(changes);
    say(`baseline: ${where}: ${summary} (logged with date, commit and reason)`);
    for (const line of lines) say(`  ${line}`);
  }
  say(`evalite: ${evaliteMeanLine(report)}`);
  const j = report.judge;
  if (j.mode !== "none")
    say(
      `judge: ${j.mode} (${j.llmJudge} llm-judge${j.cached ? `, ${j.cached} of them replayed from the model cache` : ""}, ${j.heuristic} heuristic${j.fallbacks > 0 ? `, of which ${j.fallbacks} fell back from a failed judge` : ""})`,
    );
  for (const line of j.calibration ?? []) say(line);
  if (report.variance) {
    say(`variance: up to ${report.variance.maxTrials} trials; ${report.variance.flipped.length} case(s) flipped between pass and fail`);
    for (const line of stabilityLines(report.variance.judge ?? null)) say(line);
  }
  if (report.usage) for (const line of usageLines(report.usage)) say(line);
}

/** The evals the target could not run, counted and named with why (grouped by reason): never scored, never a failure. */
export function skippedLine(skipped: readonly SkippedEval[]): string {
  const byReason = new Map<string, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), skippedName(s)]);
  const groups = [...byReason].map(([reason, names]) => `${names.join(", ")} (${reason})`);
  return `eval: ${skipped.length} eval(s) skipped, not scored: ${groups.join("; ")}`;
}

/** The skipped floors, one line per skipped eval with their count and why: neither passed nor missing. */
export function skippedFloorLines(report: Pick<Report, "skipped" | "gate">): string[] {
  const skippedChecks = report.gate.checks.filter((c) => c.status === "skipped");
  if (skippedChecks.length === 0) return [];
  const lines = [`gate: ${skippedChecks.length} floor(s) skipped, not checked: the target cannot run their evals`];
  for (const { skip, floors } of skippedCounts(report))
    if (floors > 0) lines.push(`  ${skippedName(skip)}  ${floors} floor(s) skipped (${skip.reason})`);
  return lines;
}

/**
 * Evalite's one mean over every score, and what decided instead: it is part of the verdict only
 * with --threshold N (Evalite itself gets no threshold under `pnpm eval`, so its summary cannot
 * print one as if it were the verdict).
 */
export function evaliteMeanLine(report: { evalite: Report["evalite"]; thresholds: Pick<Report["thresholds"], "evalite"> }): string {
  const e = report.evalite;
  const th = report.thresholds.evalite;
  const mean = `mean ${pct(e.mean)} of ${e.scores} scores`;
  const met = e.thresholdMet === null ? "not applicable" : e.thresholdMet ? "met" : "not met";
  if (th.binding)
    return `${mean}; --threshold ${th.threshold} % ${met} (part of the verdict, with the floors, latency ceilings, recorded cases and failed evals)`;
  const configured = th.threshold === null ? "" : `; ${th.source} sets threshold ${th.threshold} %, ${met}, which pnpm eval does not apply`;
  return `${mean}${configured} — not the verdict: the floors, latency ceilings, recorded cases and failed evals decide (--threshold N adds this mean)`;
}

/** The case ratchet's lines: counts, every regression with its reasons, what this run recorded. */
function printCases(report: Report, caseChanges: readonly CaseChange[], say: (line: string) => void): void {
  const s = report.summary;
  const k = report.gate.cases;
  say(
    `cases: ${s.cases} (retrieval cases and questions): ${s.passed} pass, ${s.failed} fail, ${s.errored} error; ${k.regressions} regressed, ${k.knownFailures} known failure(s), ${k.fixed} fixed, ${k.newFailures} new failure(s)${k.recorded ? "" : " (no cases recorded for this mode yet: pnpm eval --update-baseline records them)"}; ${s.notScored} of ${s.scores} scores not scored${s.p95LatencyMs === null ? "" : `; p50 ${s.p50LatencyMs!.toFixed(1)} ms, p95 ${s.p95LatencyMs.toFixed(1)} ms`}`,
  );
  const regressed = report.verdicts.filter((v) => v.status === "regression");
  if (regressed.length > 0) {
    say(`cases: REGRESSION: ${regressed.length} case(s) passed before and fail now:`);
    for (const v of regressed) say(`  ${v.key}  ${v.reasons.join("; ")}`);
    say(`cases: if a failure is intended: pnpm eval --accept-failure "<suite|id>" --reason "why"`);
  }
  const fixed = report.verdicts.filter((v) => v.status === "fixed");
  if (fixed.length > 0) say(`cases: fixed (failed before, pass now): ${fixed.map((v) => v.key).join(", ")}`);
  if (k.gone.length > 0)
    say(`cases: ${k.gone.length} recorded case(s) were not measured (removed?); pnpm eval --update-baseline drops them`);
  if (report.drafts) {
    say(draftsLine(report.drafts));
    for (const line of draftsSuiteLines(report.drafts)) say(line);
  }
  if (report.target) say(`target: ${targetCallsLine(report.target)}`);
  if (report.warnings.length > 0) say(`warnings: ${report.warnings.length} golden-set warning(s) (in the report's warnings)`);
  if (caseChanges.length > 0) {
    const count = (to: string | null) => caseChanges.filter((c) => c.to === to).length;
    say(`baseline: cases: ${count("pass")} recorded as passing, ${count("fail")} as failing, ${count(null)} removed`);
  }
}
