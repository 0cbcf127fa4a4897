/**
 * `pnpm eval`: the Definition-of-Done run, gated on per-metric floors.
 *
 * 1. Checks the command line, EVAL_ENGINE_OPTIONS, the dataset, the baseline, the file filter and
 *    evalite.config.ts (any problem: one line, exit 2).
 * 2. Runs Evalite once, in this process, through its Node API (`runEvalite`, mode "run-once"), on
 *    the storage evalite.config.ts names and the eval files the filter selects (EVAL_SELECTED_FILES,
 *    helpers/eval-selection.ts), recording the id of the run it creates; global setup
 *    (helpers/global-setup.ts) writes what the run measures to EVAL_RUN_INFO_FILE, and the eval
 *    files append each eval the target cannot run to EVAL_SKIPPED_FILE. Evalite's
 *    output passes through helpers/evalite-terminal.ts: one line per eval file, no table, no
 *    threshold or port line of Evalite's, unless --verbose.
 * 3. Reads exactly that run back from the storage (and writes it to --outputPath as Evalite's JSON
 *    export) and has the gate judge it (`judgeRun`, packages/eval-gate/src/judge-run.ts, pure: it
 *    applies --lower-floor and --accept-failure, holds the run to the floors, latency ceilings and
 *    recorded cases of its mode — the floors of skipped evals reported as skipped —, applies
 *    --update-baseline and decides the verdict, docs/gate.md); then writes what it returns: the
 *    baseline, the report set, the gate's verdict into the run's suites (status "fail", Evalite's
 *    ⊗, for each suite the gate failed), and prints the verdict.
 *
 * Exit status: 0 pass; 1 an eval failed, a case errored because the target, a model or its task
 * failed (gated or not), a case regressed, a floor fell or went missing, a latency
 * ceiling was exceeded or went missing, a --threshold given on the command line was not met,
 * Evalite recorded nothing, nothing could be scored, or an eval could score none of its cases; 2 a
 * configuration or fixture error (a baseline path that does not exist included, unless
 * --update-baseline creates it).
 * Evalite gets no threshold: its one mean is printed in the gate's block and recorded, and is part
 * of the verdict only with --threshold.
 *
 * Step 1 is this module, which loads only what its checks need, so the first line ("eval: dataset
 * …") comes as soon as they pass; steps 2 and 3 are bin/eval-verdict.ts, imported after it.
 */
import { dirname, join, relative, resolve } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { type Baseline, loadBaseline } from "@hybrid-search/eval-gate/baseline";
import { CALIBRATION_FILE, type Calibration, readCalibration } from "@hybrid-search/eval-gate/calibration";
import type { Dataset } from "../helpers/dataset.js";
import type { Detected } from "../helpers/datasets/detect.js";
import type { ResolvedRun } from "../helpers/run-plan.js";
import { datasetHeader } from "../helpers/datasets/header.js";
import { EVAL_USAGE, type EvalArgs, parseEvalArgs, selectFiles } from "./lib/eval-args.js";
import { REPO_ROOT } from "../helpers/fixture-files/paths.js";
import { loadRefusalMarkers } from "../helpers/fixture-files/refusal-markers.js";
import { type EvaliteSetup, evaliteSetup } from "./lib/run-context.js";
import { configError, type EvalIo, processEvalIo } from "./eval-io.js";

export { type EvalIo, processEvalIo } from "./eval-io.js";

const root = REPO_ROOT;

/** Runs one `pnpm eval` and returns its exit status (above); exits the process only through `io.exit`. */
export async function main(argv: string[], io: EvalIo = processEvalIo()): Promise<number> {
  const say = (line: string): void => io.stdout(`${line}\n`);
  let args: EvalArgs;
  let dataset: Dataset;
  let detected: Detected | null;
  let baseline: Baseline;
  let upgradedFrom: number | null;
  let evalite: EvaliteSetup;
  let selected: string[] | null;
  let calibration: Calibration | null;
  let run: ResolvedRun;
  const baselinePath = resolve(process.env.EVAL_BASELINE?.trim() || join(root, "evals/baseline.json"));
  try {
    args = parseEvalArgs(argv);
    if (args.help) {
      say(EVAL_USAGE);
      return 0;
    }
    // Everything the run measures, resolved and checked once, then published to global setup and
    // the eval worker (helpers/run-plan.ts): nothing below reads those settings again.
    const { resolveRun } = await import("../helpers/run-plan.js");
    run = resolveRun();
    ({ dataset, detected } = run);
    if (args.updateBaseline && Object.keys(run.plan.engineOptions).length > 0) {
      throw new ConfigError(
        "--update-baseline sets floors for the engine's defaults; unset EVAL_ENGINE_OPTIONS (a tuning experiment) first",
      );
    }
    // The answer evals read the suite's refusal phrases in their worker, where a bad file would only
    // fail the eval: check them here (exit 2) when the dataset's answer cases use them.
    if (dataset.askCases.length > 0 && dataset.refusalMarkers === null) loadRefusalMarkers();
    ({ baseline, upgradedFrom } = loadBaseline(baselinePath, { create: args.updateBaseline }));
    selected = args.filter === null ? null : selectFiles(root, args.filter);
    if (args.explainTarget) {
      const { explainTarget } = await import("./lib/explain-target.js");
      for (const line of datasetHeader(dataset, detected)) say(line);
      for (const line of await explainTarget(run.plan.target, dataset)) say(line);
      return 0;
    }
    const calibrationPath = join(dirname(baselinePath), CALIBRATION_FILE);
    calibration = readCalibration(calibrationPath, relative(process.cwd(), calibrationPath) || calibrationPath);
    const offline = await checkModelFlags(args);
    if (offline && args.dryRun) {
      say("eval: --dry-run: the run is offline: it would call no model (0 calls, 0 tokens, cost $0)");
      return 0;
    }
    evalite = await evaliteSetup(root);
  } catch (error) {
    return configError(error, io);
  }
  for (const line of datasetHeader(dataset, detected)) say(line);

  const [{ runAndJudge }, { publishRun, unpublishRun }] = await Promise.all([
    import("./eval-verdict.js"),
    import("../helpers/run-plan.js"),
  ]);
  publishRun(run);
  try {
    return await runAndJudge({ args, argv, io, dataset, baseline, baselinePath, upgradedFrom, evalite, selected, calibration });
  } finally {
    unpublishRun();
  }
}

/**
 * The model flags' checks, before anything runs: the price table (and EVAL_PRICES) must read, and
 * `--max-cost` needs a price for every model the run may call — a call of unknown cost cannot be
 * held to a budget. Returns whether the run is offline.
 */
async function checkModelFlags(args: EvalArgs): Promise<boolean> {
  const { selectModels } = await import("@hybrid-search/engine/models");
  let selection: ReturnType<typeof selectModels>;
  try {
    selection = selectModels(process.env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (selection.mode === "offline") return true;
  const { priceTable, unpricedModels } = await import("../helpers/models.js");
  const { prices, override } = priceTable();
  const missing = unpricedModels(selection, prices);
  if (args.maxCost !== null && missing.length > 0)
    throw new ConfigError(
      `--max-cost needs a price for every model the run calls; ${override ?? "evals/model-prices.json"} has none for ${missing.join(", ")} (add them to a file of the same schema and set EVAL_PRICES to it)`,
    );
  return false;
}
