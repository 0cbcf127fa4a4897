/**
 * `pnpm eval`: the Definition-of-Done run, gated on per-metric floors.
 *
 * 1. Checks the command line, EVAL_ENGINE_OPTIONS, the dataset, the baseline and the file filter
 *    (any problem: one line, exit 2).
 * 2. Runs `evalite run` once with `--threshold 0` (so Evalite's status says only whether an eval
 *    failed: threw, timed out, or its file did not load), `--outputPath` and EVAL_RUN_INFO_FILE
 *    into a temp folder.
 * 3. Gates the results on the floors of the run's mode (docs/gate.md), applies --lower-floor and
 *    --update-baseline, writes the report set and prints the verdict.
 *
 * Exit status: 0 pass; 1 an eval failed, a floor fell or went missing, or a --threshold given on
 * the command line was not met; 2 a configuration or fixture error. Evalite's configured
 * threshold (evalite.config.ts) is printed and recorded, not gating.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { DatasetError, loadDataset, type Dataset } from "../helpers/dataset.js";
import { ConfigError } from "@hybrid-search/eval-gate";
import { engineOptionsFromEnv } from "../helpers/engine-options.js";
import { formatFixtureError, isFixtureError } from "../helpers/fixtures.js";
import { removeOnExit } from "../helpers/setup-db.js";
import { checkFilter, EVAL_USAGE, parseEvalArgs, type EvalArgs } from "../helpers/eval-args.js";
import {
  checkFloors,
  floorMode,
  lowerFloors,
  ratchet,
  readBaseline,
  writeBaseline,
  type Baseline,
  type FloorChange,
} from "@hybrid-search/eval-gate/baseline";
import { readEvaliteOutput, runCreatedAt } from "@hybrid-search/eval-gate/evalite-output";
import { analyzeRun, buildReport, pct, type Report, type RunInfo } from "@hybrid-search/eval-gate/report";
import { configuredThreshold, fixtureInfo, gitInfo } from "../helpers/run-context.js";
import { writeReportSet } from "@hybrid-search/eval-gate/writers";

const root = resolve(import.meta.dirname, "..");
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

/** One line on stderr, exit status 2. */
function configError(error: unknown): number {
  const known = isFixtureError(error) || error instanceof DatasetError || error instanceof ConfigError;
  if (!known) throw error;
  process.stderr.write(`eval: ${isFixtureError(error) ? formatFixtureError(error) : (error as Error).message}\n`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  let args: EvalArgs;
  let dataset: Dataset;
  let baseline: Baseline;
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
    baseline = readBaseline(baselinePath);
    if (args.filter !== null) checkFilter(root, args.filter);
  } catch (error) {
    return configError(error);
  }
  say(`eval: dataset ${dataset.name} (${dataset.cases.length} queries)`);

  const work = mkdtempSync(join(tmpdir(), "eval-run-"));
  removeOnExit(work);
  const outputPath = resolve(args.outputPath ?? join(work, "results.json"));
  const runInfoPath = join(work, "run-info.json");
  const startedAt = new Date();
  const evalite = join(root, "node_modules/.bin/evalite");
  const run = spawnSync(evalite, ["run", ...args.evaliteArgs, "--threshold", "0", "--outputPath", outputPath], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, EVAL_RUN_INFO_FILE: runInfoPath },
  });
  if (run.error) {
    process.stderr.write(`eval: could not start Evalite (${run.error.message}); run the set-up command in the README first\n`);
    return 2;
  }
  if (run.signal) {
    process.stderr.write(`eval: Evalite was stopped by ${run.signal}; no verdict\n`);
    return 1;
  }
  const evaliteStatus = run.status ?? 1;
  if (evaliteStatus !== 0 && evaliteStatus !== 1) {
    // 2: global setup found a malformed fixture (its line is above); 252: a flag Evalite does not know.
    if (evaliteStatus !== 2)
      process.stderr.write(`eval: Evalite stopped with status ${evaliteStatus} before measuring (its message is above)\n`);
    return 2;
  }

  let runInfo: RunInfo;
  let output: ReturnType<typeof readEvaliteOutput>;
  try {
    if (!existsSync(outputPath)) throw new ConfigError(`Evalite wrote no results (status ${evaliteStatus}); its output above says why`);
    output = readEvaliteOutput(outputPath);
    if (runCreatedAt(output) < Math.floor(startedAt.getTime() / 1000) * 1000 - 1000) {
      // With nothing recorded, Evalite exports the storage's previous run: never gate on that.
      say(`eval: Evalite recorded no run (every eval file failed to load, or every eval was skipped); its output above says why`);
      return 1;
    }
    if (!existsSync(runInfoPath)) throw new ConfigError(`global setup wrote no run info to EVAL_RUN_INFO_FILE (helpers/global-setup.ts)`);
    runInfo = JSON.parse(readFileSync(runInfoPath, "utf8")) as RunInfo;
  } catch (error) {
    return configError(error);
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
    return configError(error);
  }
  const gate = checkFloors(baseline, mode, analysis.aggregates, analysis.ranEvals);
  if (args.updateBaseline) {
    if (evaliteStatus === 0) changes.push(...ratchet(baseline, mode, analysis.aggregates, context));
    else say(`baseline: not raised: an eval failed in this run`);
  }
  if (changes.length > 0) writeBaseline(baselinePath, baseline);

  const configured = await configuredThreshold(root);
  const report = buildReport({
    startedAt,
    finishedAt: new Date(),
    git,
    args: argv,
    runInfo,
    floorMode: mode,
    fixtures: fixtureInfo(dataset),
    evaliteStatus,
    evaliteThreshold:
      args.threshold !== null
        ? { threshold: args.threshold, source: "--threshold", binding: true }
        : { threshold: configured, source: configured === null ? "none" : "evalite.config.ts", binding: false },
    output,
    analysis,
    baselinePath: relative(root, baselinePath) || baselinePath,
    gate,
    changes,
  });
  const reportsDir = resolve(process.env.EVAL_REPORTS_DIR?.trim() || join(root, "reports"));
  const paths = writeReportSet(args.keepReport ? join(reportsDir, "kept") : reportsDir, report);
  printVerdict(report, changes, baselinePath);
  say(
    `report: ${relative(process.cwd(), paths.json)} (+ ${[paths.markdown, paths.junit, paths.badge].map((p) => relative(process.cwd(), p)).join(", ")})`,
  );
  say(
    `eval: ${report.status.toUpperCase()}${report.statusReasons.length > 0 ? ` (${report.statusReasons.join("; ")})` : ""}; exit ${report.exitStatus}`,
  );
  return report.exitStatus;
}

function printVerdict(report: Report, changes: readonly FloorChange[], baselinePath: string): void {
  const g = report.gate;
  const t = report.thresholds.tolerance;
  const where = relative(process.cwd(), baselinePath) || baselinePath;
  if (g.checked + g.notRun === 0) {
    say(`gate: no ${report.floorMode} floors in ${where}; set them with: pnpm eval --update-baseline --reason "..."`);
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
    `evalite: mean ${pct(e.mean)} of ${e.scores} scores; threshold ${th.threshold ?? "none"}${th.threshold === null ? "" : " %"} (${th.source}) ${e.thresholdMet === null ? "not applicable" : e.thresholdMet ? "met" : "not met"}${th.binding ? "" : " — advisory: the floors gate this run (Evalite itself ran with --threshold 0 so its status reports only failed evals)"}`,
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

process.exitCode = await main(process.argv.slice(2));
