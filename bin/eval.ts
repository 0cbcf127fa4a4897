/**
 * `pnpm eval`: the Definition-of-Done run, gated on per-metric floors.
 *
 * 1. Checks the command line, EVAL_ENGINE_OPTIONS, the dataset, the baseline, the file filter and
 *    evalite.config.ts (any problem: one line, exit 2).
 * 2. Runs Evalite once, in this process, through its Node API (`runEvalite`, mode "run-once"), on
 *    the storage evalite.config.ts names, recording the id of the run it creates; global setup
 *    (helpers/global-setup.ts) writes what the run measures to EVAL_RUN_INFO_FILE.
 * 3. Reads exactly that run back from the storage (and writes it to --outputPath as Evalite's JSON
 *    export), gates it on the floors of the run's mode (docs/gate.md), applies --lower-floor and
 *    --update-baseline, writes the report set and prints the verdict.
 *
 * Exit status: 0 pass; 1 an eval failed, a floor fell or went missing, a --threshold given on the
 * command line was not met, Evalite recorded nothing, nothing could be scored, or an eval could
 * score none of its cases; 2 a configuration or fixture error (a baseline path that does not
 * exist included, unless --update-baseline creates it).
 * Evalite's configured threshold (evalite.config.ts) is printed and recorded, not gating.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import {
  type Baseline,
  checkFloors,
  type FloorChange,
  floorMode,
  lowerFloors,
  ratchet,
  readBaseline,
  writeBaseline,
} from "@hybrid-search/eval-gate/baseline";
import { exportRun, recordCreatedRuns } from "@hybrid-search/eval-gate/evalite-storage";
import { analyzeRun, buildReport, type EvaliteVerdict, evaliteStatus, pct, type Report } from "@hybrid-search/eval-gate/report";
import { readRunInfo, type RunInfo } from "@hybrid-search/eval-gate/run-info";
import { writeReportSet } from "@hybrid-search/eval-gate/writers";
import type { Evalite } from "evalite";
import type { Vitest } from "vitest/node";
import { type Dataset, DatasetError, loadDataset } from "../helpers/dataset.js";
import { engineOptionsFromEnv } from "../helpers/engine-options.js";
import { checkFilter, EVAL_USAGE, type EvalArgs, parseEvalArgs } from "../helpers/eval-args.js";
import { formatFixtureError, isFixtureError, REPO_ROOT } from "../helpers/fixtures.js";
import { processStartedAt, runWallSeconds } from "../helpers/run-clock.js";
import { type EvaliteSetup, evaliteSetup, fixtureInfo, gitInfo } from "../helpers/run-context.js";
import { removeOnExit } from "../helpers/setup-db.js";
import { type CommandIo, processIo } from "../helpers/cli-args.js";

const root = REPO_ROOT;
const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split("\n")[0]!;

/**
 * What `pnpm eval` writes to besides Evalite (which prints to the process's own streams and reads its
 * environment, as this command does).
 */
export interface EvalIo extends CommandIo {
  /** Ends the process now: the one way out when Evalite throws with its UI server still listening. */
  exit(status: number): never;
}

/** The running process's streams and exit (bin/entry/eval.ts). */
export function processEvalIo(): EvalIo {
  return { ...processIo(), exit: (status) => process.exit(status) };
}

/** One line on stderr, exit status 2. */
function configError(error: unknown, io: EvalIo): number {
  const known = isFixtureError(error) || error instanceof DatasetError || error instanceof ConfigError;
  if (!known) throw error;
  io.stderr(`eval: ${isFixtureError(error) ? formatFixtureError(error) : (error as Error).message}\n`);
  return 2;
}

/** Runs one `pnpm eval` and returns its exit status (above); exits the process only through `io.exit`. */
export async function main(argv: string[], io: EvalIo = processEvalIo()): Promise<number> {
  const say = (line: string): void => io.stdout(`${line}\n`);
  let args: EvalArgs;
  let dataset: Dataset;
  let baseline: Baseline;
  let evalite: EvaliteSetup;
  const baselinePath = resolve(process.env.EVAL_BASELINE?.trim() || join(root, "evals/baseline.json"));
  try {
    args = parseEvalArgs(argv);
    if (args.help) {
      say(EVAL_USAGE);
      return 0;
    }
    const engineOptions = engineOptionsFromEnv();
    if (args.updateBaseline && Object.keys(engineOptions).length > 0) {
      throw new ConfigError(
        "--update-baseline sets floors for the engine's defaults; unset EVAL_ENGINE_OPTIONS (a tuning experiment) first",
      );
    }
    dataset = loadDataset();
    baseline = readBaseline(baselinePath, { create: args.updateBaseline });
    if (args.filter !== null) checkFilter(root, args.filter);
    evalite = await evaliteSetup(root);
  } catch (error) {
    return configError(error, io);
  }
  say(`eval: dataset ${dataset.name} (${dataset.cases.length} queries)`);

  const work = mkdtempSync(join(tmpdir(), "eval-run-"));
  removeOnExit(work);
  const runInfoPath = join(work, "run-info.json");
  // The report's duration is the run's wall time: from this process's start (helpers/run-clock.ts).
  const startedAt = processStartedAt();
  let storage: Evalite.Storage;
  try {
    storage = await evalite.openStorage();
  } catch (error) {
    io.stderr(`eval: Evalite's storage (evalite.config.ts, EVALITE_STORAGE) cannot be opened: ${firstLine(error)}\n`);
    return 2;
  }
  const recording = recordCreatedRuns(storage);
  let vitest: Vitest;
  try {
    // Imported here, not above: it loads vitest and vite (about 2 s), which a refused flag need not wait for.
    const { runEvalite } = await import("evalite/runner");
    // Global setup runs in this process: it reads where to write the run info from the environment.
    process.env.EVAL_RUN_INFO_FILE = runInfoPath;
    ({ vitest } = await runEvalite({
      mode: "run-once",
      cwd: root,
      path: args.filter ?? undefined,
      storage: recording.storage,
      // Printed by Evalite's summary only: in "run-once" mode it sets no exit status. The gate decides.
      scoreThreshold: args.threshold ?? undefined,
      ...args.evalite,
    }));
  } catch (error) {
    // Evalite's UI server is still listening when its run throws: exit rather than wait on it.
    io.stderr(`eval: Evalite stopped before measuring: ${firstLine(error)}\n`);
    io.exit(2);
  }
  const verdict = evaliteVerdict(vitest);

  // Exactly the run this invocation created ("run-once" makes one, lazily, at its first eval).
  const [runId, ...more] = recording.createdRunIds;
  let output: Evalite.Exported.Output | null = null;
  try {
    if (runId !== undefined && more.length === 0) output = await exportRun(recording.storage, runId);
  } finally {
    await recording.storage.close();
  }
  if (runId === undefined) {
    say(
      `eval: Evalite recorded no run (every eval file failed to load, or every eval was skipped); its output above says why${verdict.unloadedFiles.length > 0 ? ` (did not load: ${verdict.unloadedFiles.join(", ")})` : ""}`,
    );
    return 1;
  }
  if (output === null) {
    io.stderr(`eval: Evalite created runs ${recording.createdRunIds.join(", ")} in one "run-once" run; no verdict\n`);
    return 2;
  }
  if (args.outputPath !== null) {
    const path = resolve(args.outputPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(output, null, 2));
    say(`eval: this run's results (Evalite's JSON export, run ${output.run.id}): ${relative(process.cwd(), path)}`);
  }
  let runInfo: RunInfo;
  try {
    runInfo = readRunInfo(runInfoPath);
  } catch (error) {
    return configError(error, io);
  }

  const mode = floorMode(runInfo.mode, dataset.name);
  const floorsOf = baseline.floors[mode] ?? {};
  const analysis = analyzeRun(output, (evalKey) => Object.keys(floorsOf[evalKey] ?? {}));
  const git = gitInfo(root);
  const context = {
    date: startedAt.toISOString(),
    commit: git.commit,
    dirty: git.dirty,
    reason: args.reason ?? "pnpm eval --update-baseline",
  };
  const changes: FloorChange[] = [];
  try {
    if (args.lowerFloors.length > 0)
      changes.push(...lowerFloors(baseline, mode, args.lowerFloors, analysis.aggregates, analysis.ranEvals, context));
  } catch (error) {
    return configError(error, io);
  }
  const gate = checkFloors(baseline, mode, analysis.aggregates, analysis.ranEvals);
  if (args.updateBaseline) {
    if (evaliteStatus(verdict) === 0) changes.push(...ratchet(baseline, mode, analysis.aggregates, context));
    else say(`baseline: not raised: an eval failed in this run`);
  }
  if (changes.length > 0) writeBaseline(baselinePath, baseline);

  const report = buildReport({
    startedAt,
    finishedAt: new Date(),
    git,
    args: argv,
    runInfo,
    floorMode: mode,
    fixtures: fixtureInfo(dataset),
    evalite: verdict,
    evaliteThreshold:
      args.threshold !== null
        ? { threshold: args.threshold, source: "--threshold", binding: true }
        : { threshold: evalite.threshold, source: evalite.threshold === null ? "none" : "evalite.config.ts", binding: false },
    output,
    analysis,
    baselinePath: relative(root, baselinePath) || baselinePath,
    gate,
    changes,
  });
  const reportsDir = resolve(process.env.EVAL_REPORTS_DIR?.trim() || join(root, "reports"));
  const paths = writeReportSet(args.keepReport ? join(reportsDir, "kept") : reportsDir, report);
  printVerdict(report, changes, baselinePath, say);
  say(
    `report: ${relative(process.cwd(), paths.json)} (+ ${[paths.markdown, paths.junit, paths.badge].map((p) => relative(process.cwd(), p)).join(", ")})`,
  );
  say(`eval: wall time ${runWallSeconds().toFixed(1)} s (this run, from its process's start to its verdict)`);
  say(
    `eval: ${report.status.toUpperCase()}${report.statusReasons.length > 0 ? ` (${report.statusReasons.join("; ")})` : ""}; exit ${report.exitStatus}`,
  );
  return report.exitStatus;
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
  if (g.checked + g.notRun === 0) {
    say(
      `gate: NOT GATED: no ${report.floorMode} floors in ${where}, so no mean of this run is held to a floor; it passes only when no eval failed and every eval scored something. Set floors with: pnpm eval --update-baseline --reason "..."`,
    );
  } else {
    say(
      `gate: ${report.floorMode} floors from ${where}: ${g.checked} checked, ${g.fell} fell, ${g.missing} missing${g.notRun > 0 ? `, ${g.notRun} not run (filtered out)` : ""} (tolerance ${t.absolute} + ${t.perSqrtN}/√n; language/category slices need n ≥ ${t.minSliceN})`,
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
  if (g.unfloored.length > 0) say(`gate: ${g.unfloored.length} measurement(s) have no floor yet; pnpm eval --update-baseline adds them`);
  if (changes.length > 0) {
    const added = changes.filter((c) => c.from === null).length;
    const removed = changes.filter((c) => c.to === null).length;
    say(
      `baseline: ${where}: ${added} floor(s) added, ${changes.length - added - removed} moved, ${removed} removed (logged with date, commit and reason)`,
    );
    // A first baseline adds hundreds of floors: list the changes people review, not every addition.
    for (const c of changes.filter((c) => c.from !== null || changes.length <= 20)) {
      say(
        `  ${c.key} ${c.from === null ? "new" : c.from.toFixed(4)} → ${c.to === null ? "removed" : c.to.toFixed(4)}${c.achieved === null ? "" : ` (achieved ${c.achieved.toFixed(4)}, n=${c.n})`}`,
      );
    }
  }
  const e = report.evalite;
  const th = report.thresholds.evalite;
  say(
    `evalite: mean ${pct(e.mean)} of ${e.scores} scores; threshold ${th.threshold ?? "none"}${th.threshold === null ? "" : " %"} (${th.source}) ${e.thresholdMet === null ? "not applicable" : e.thresholdMet ? "met" : "not met"}${th.binding ? "" : " — advisory: the floors gate this run (--threshold N makes it binding)"}`,
  );
  const j = report.judge;
  if (j.mode !== "none")
    say(
      `judge: ${j.mode} (${j.llmJudge} llm-judge, ${j.heuristic} heuristic${j.fallbacks > 0 ? `, of which ${j.fallbacks} fell back from a failed judge` : ""})`,
    );
  const s = report.summary;
  say(
    `cases: ${s.cases}: ${s.passed} pass, ${s.failed} fail, ${s.errored} error; ${s.notScored} of ${s.scores} scores not scored${s.p95LatencyMs === null ? "" : `; p50 ${s.p50LatencyMs!.toFixed(1)} ms, p95 ${s.p95LatencyMs.toFixed(1)} ms`}`,
  );
  if (report.variance)
    say(`variance: up to ${report.variance.maxTrials} trials; ${report.variance.flipped.length} case(s) flipped between pass and fail`);
}
