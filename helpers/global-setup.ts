/**
 * Vitest global setup for the Evalite run (see evalite.config.ts): validates the dataset, says
 * when the run is not gated (not driven by `pnpm eval`), builds the temp indexes the selected eval
 * files measure (helpers/index-plan.ts: `pnpm eval search` builds the dataset's index only),
 * printing a line as each build starts and its fingerprint when done, and shares the indexes with
 * the eval files. Every run and every watch-mode rerun gets a new run id, which scopes the shared
 * engine responses (helpers/run-cache.ts). In watch mode a rerun re-indexes the indexes its files
 * measure first (unchanged documents are skipped), so an edit to a corpus document is measured on
 * the next run. A malformed fixture stops the run with one line. With EVAL_TARGET_SEED it seeds
 * the HTTP target with the dataset's corpus after /health and deletes it when the run ends
 * (helpers/targets/seed.ts).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { type Dataset, DatasetError } from "./dataset.js";
import { indexSource } from "./datasets/load.js";
import { ConfigError } from "@hybrid-search/eval-gate";
import type { RunInfo } from "@hybrid-search/eval-gate/run-info";
import type { TunableEngineOptions } from "./engine-options.js";
import { GATED_ENV, notGatedLine } from "./eval-selection.js";
import { evalModels, type EvalModels } from "./models.js";
import { formatFixtureError, isFixtureError } from "./fixture-files.js";
import { type IndexName, indexesFor } from "./index-plan.js";
import { buildLaneIndex, LANES, loadLane } from "./lanes.js";
import { labelEvaliteDuration, restartRunClock } from "./run-clock.js";
import { buildTempIndex, describeFingerprint, type SuiteFingerprint, type TempIndex } from "./setup-db.js";
import { reloadRunDataset, type RunPlan, runDataset, runPlan } from "./run-plan.js";
import { knownTargetInfo, type MeasuredTarget, openTarget, type TargetInfo, targetInfo } from "./targets/eval-target.js";
import { kindOf, type TargetPlan } from "./targets/kinds/index.js";
import { observedFingerprint } from "./targets/observe.js";
import { guardSeed, type SeedIo, type SeedSession, seedTarget } from "./targets/seed.js";
import "./eval-index.js";
import "./run-cache.js";

/**
 * The run's plan and dataset: as `pnpm eval` resolved and published them, or resolved here (a plain
 * `evalite run`, `pnpm eval:watch`) and published to the eval worker. A broken setting or dataset
 * stops the run with one line, not an eval file's import with a stack trace.
 */
function planOrExit(): { plan: RunPlan; dataset: Dataset } {
  try {
    evalModels();
    for (const lane of LANES) loadLane(lane);
    return { plan: runPlan(), dataset: runDataset() };
  } catch (error) {
    return exitOnSetupError(error);
  }
}

/**
 * A failure in global setup: one line and exit 2 for what the user can fix (a fixture, the dataset,
 * the configuration, a corpus file the engine refuses). Anything thrown out of global setup would
 * make Evalite print a stack trace and then wait forever (its UI server stays up), so a bug exits
 * too (status 1). Under `pnpm eval` global setup runs in the same process, so this is its exit.
 */
function exitOnSetupError(error: unknown): never {
  const known =
    isFixtureError(error) ||
    error instanceof DatasetError ||
    error instanceof ConfigError ||
    (error as { name?: string }).name === "EngineError";
  if (known) {
    process.stderr.write(`eval: ${isFixtureError(error) ? formatFixtureError(error) : (error as Error).message.split("\n")[0]}\n`);
    process.exit(2);
  }
  process.stderr.write(`eval: global setup failed (a bug): ${formatFixtureError(error)}\n`);
  process.exit(1);
}

/**
 * What this run measures, in the gate's shape (the gate owns the report; the suite fills it in).
 * Its `mode` keys the floors: the model configuration for the in-process engine, the target's
 * kind and name for any other (its kind's `floorsKey`).
 */
function runInfo(
  fingerprint: SuiteFingerprint,
  target: Pick<TargetInfo, "name" | "label">,
  plan: TargetPlan,
  engineOptions: TunableEngineOptions,
  models: EvalModels,
): RunInfo {
  const kind = kindOf(plan);
  const configuration = models.selection.configuration;
  return {
    fingerprint,
    mode: kind.floorsKey(target.name, configuration),
    models: kind.runModels(target.label, plan.config, models, fingerprint),
    engineOptions: kind.suiteIndex ? engineOptions : {},
  };
}

/** What the index is called while it builds (its fingerprint line names it the same way). */
function indexLabel(name: IndexName, dataset: Dataset): string {
  return name === "dataset" ? `dataset ${dataset.name}` : `dataset ${name} lane`;
}

/** Builds one index: the dataset's, or a lane's (each with its own temp index and the run's engine parameters). */
function buildIndex(name: IndexName, dataset: Dataset, engine: TunableEngineOptions, models: EvalModels): Promise<TempIndex> {
  if (name !== "dataset") return buildLaneIndex(loadLane(name), engine);
  return buildTempIndex(indexSource(dataset, runDataset), {
    dataset: dataset.name,
    collection: dataset.collection,
    engine: { ...engine, ...(models.engine.embedder ? { embedder: models.engine.embedder } : {}) },
  });
}

const seedIo: SeedIo = {
  say: (line) => process.stdout.write(`${line}\n`),
  warn: (line) => process.stderr.write(`${line}\n`),
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  labelEvaliteDuration();
  const { plan: run, dataset } = planOrExit();
  const engine = run.engineOptions;
  const models = evalModels();
  const plan = run.target;
  const kind = kindOf(plan);
  // The files this run selected (Vitest collected their paths before global setup).
  const selected = project.vitest.state.getPaths();
  if (!process.env[GATED_ENV]) process.stdout.write(`${notGatedLine(selected)}\n`);
  // The models line names what did the work: the suite's models for the engine on the suite's
  // index; another target produces its own rankings and answers (its line follows once it
  // answers), and the suite's models only grade.
  process.stdout.write(`${kind.modelsLine(models)}\n`);
  // Another target has its own index: the run builds none of the dataset's, and no lane's either
  // (the lanes measure the in-repo engine only; their evals are skipped, saying why).
  const indexes = new Map<IndexName, TempIndex>();
  /** Builds the indexes `files` measure that are not built yet; re-indexes the others when asked. */
  const prepare = async (files: readonly string[], refresh: boolean): Promise<TempIndex[]> => {
    const wanted = kind.suiteIndex ? indexesFor(files) : new Set<IndexName>();
    const used: TempIndex[] = [];
    for (const name of ["dataset", ...LANES] as const) {
      if (!wanted.has(name)) continue;
      const built = indexes.get(name);
      if (built && !refresh) {
        used.push(built);
        continue;
      }
      process.stdout.write(`index: ${built ? "re-indexing" : "building"} ${indexLabel(name, dataset)}…\n`);
      if (built) await built.refresh();
      else indexes.set(name, await buildIndex(name, dataset, engine, models));
      process.stdout.write(`${describeFingerprint(indexes.get(name)!.fingerprint)}\n`);
      used.push(indexes.get(name)!);
    }
    return used;
  };
  let used: TempIndex[];
  let other: MeasuredTarget | undefined;
  let seeded: SeedSession | undefined;
  let unguard = (): void => undefined;
  try {
    used = await prepare(selected, false);
    // A target of its own (not the suite's index) is opened here: one that does not answer stops the run, with one line.
    if (!kind.suiteIndex) {
      const opened = await openTarget(plan, { dataset, configuration: models.selection.configuration, suiteIndex: noSuiteIndex });
      other = opened;
      if (opened.seed && opened.seedable) {
        // A seed that fails stops the run here too; once it is in, every way out deletes it.
        seeded = await seedTarget(opened.seedable, dataset, opened.seed, seedIo);
        unguard = guardSeed(seeded);
        other = { ...other, fingerprint: observedFingerprint(seeded.fingerprint, dataset, seeded.collection) };
      }
    }
  } catch (error) {
    return exitOnSetupError(error);
  }
  const info = (): TargetInfo | null => {
    if (other) return targetInfo(plan, other);
    const index = indexes.get("dataset") ?? used[0];
    return index ? knownTargetInfo(plan, models.selection.configuration, index.fingerprint) : null;
  };
  const publish = (used: readonly TempIndex[]): void => {
    const main = indexes.get("dataset");
    if (main) project.provide("evalIndex", provided(main));
    project.provide(
      "laneIndexes",
      Object.fromEntries(LANES.filter((name) => indexes.has(name)).map((name) => [name, provided(indexes.get(name)!)])),
    );
    project.provide("evalRun", randomUUID());
    const target = used[0] || other ? info() : null;
    if (target) project.provide("evalTarget", target);
    if (other) {
      const { capabilities: c } = other.target;
      process.stdout.write(
        `target: ${other.target.label} (${kind.location(plan.config)}) produced the rankings and answers; corpus ${other.fingerprint.corpusHash.slice(0, 12)}; modes ${c.modes.join(", ") || "none"}; ask ${c.ask ? "yes" : "no"}; expand ${c.expand ? "yes" : "no"}; ${c.trace ? "with" : "no"} traces\n`,
      );
    }
  };
  publish(used);
  // `pnpm eval` (bin/eval.ts) asks for what this run measures so its report can record it: the
  // target's own fingerprint, or in-process the dataset's index (a lane's when the selected files
  // measure lanes only). Not through project.provide: vitest clears the provided context when the
  // run closes.
  const measured = info();
  if (process.env.EVAL_RUN_INFO_FILE && measured)
    writeFileSync(process.env.EVAL_RUN_INFO_FILE, JSON.stringify(runInfo(measured.fingerprint, measured, plan, engine, models), null, 2));
  project.onTestsRerun(async (specifications) => {
    restartRunClock();
    try {
      reloadRunDataset();
      for (const lane of LANES) loadLane(lane);
    } catch (error) {
      // Watch mode keeps running: say what is wrong once; the evals will fail on it too.
      if (!isFixtureError(error)) throw error;
      process.stderr.write(`eval: ${formatFixtureError(error)}\n`);
      return;
    }
    if (seeded && other) {
      try {
        await seeded.reseed();
      } catch (error) {
        // Watch mode keeps running: the line says what the failed seed left on the target
        // (deleted unless kept), which is what the evals then measure.
        if (!(error instanceof ConfigError) && (error as { name?: string }).name !== "EngineError") throw error;
        process.stderr.write(`eval: ${(error as Error).message}\n`);
      }
      other = { ...other, fingerprint: observedFingerprint(seeded.fingerprint, dataset, seeded.collection) };
    }
    publish(
      await prepare(
        specifications.map((s) => s.moduleId),
        true,
      ),
    );
  });
  return async () => {
    for (const index of indexes.values()) index.remove();
    // After the last eval, whether the run passed or failed.
    await seeded?.release();
    unguard();
  };
}

/** Global setup opens only a target of its own: the engine on the suite's index is opened by each worker on the index built here. */
function noSuiteIndex(): never {
  throw new Error("global setup opens the engine on the suite's index in the eval workers, not here");
}

function provided(index: TempIndex): { dbPath: string; fingerprint: TempIndex["fingerprint"] } {
  return { dbPath: index.dbPath, fingerprint: index.fingerprint };
}
