/**
 * Vitest global setup for the Evalite run (see evalite.config.ts): validates the dataset, builds the
 * run's temp index once, prints what is being measured, and shares the index with the eval files.
 * In watch mode every rerun re-indexes first (unchanged documents are skipped), so an edit to a
 * corpus document is measured on the next run. A malformed fixture stops the run with one line.
 */
import { writeFileSync } from "node:fs";
import { Engine } from "@hybrid-search/engine";
import type { TestProject } from "vitest/node";
import { DatasetError, loadDataset } from "./dataset.js";
import { ConfigError } from "@hybrid-search/eval-gate";
import type { RunInfo } from "@hybrid-search/eval-gate/run-info";
import { engineOptionsFromEnv } from "./engine-options.js";
import { evalModels, type EvalModels } from "./models.js";
import { formatFixtureError, isFixtureError, loadAskCases, loadTranslations } from "./fixtures.js";
import { buildLaneIndex, LANES, loadLane, type LaneName } from "./lanes.js";
import { buildTempIndex, describeFingerprint, type TempIndex } from "./setup-db.js";
import { type MeasuredTarget, openTarget, targetInfo } from "./targets/eval-target.js";
import { type TargetChoice, targetChoice, targetLocation, targetMode } from "./targets/select.js";
import "./eval-index.js";

function datasetOrExit(): ReturnType<typeof loadDataset> {
  try {
    engineOptionsFromEnv();
    evalModels();
    targetChoice();
    for (const lane of LANES) loadLane(lane);
    // The answer eval's fixtures, validated here too: a broken file must stop the run with one
    // line, not fail ask.eval.ts's import with a stack trace.
    loadTranslations();
    loadAskCases();
    return loadDataset();
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
 * kind and name for any other (helpers/targets/select.ts).
 */
function runInfo(
  measured: MeasuredTarget,
  choice: TargetChoice,
  engineOptions: ReturnType<typeof engineOptionsFromEnv>,
  models: EvalModels,
): RunInfo {
  const { target, fingerprint } = measured;
  if (target.kind === "in-process")
    return { fingerprint, mode: models.selection.configuration, models: { embedder: fingerprint.embedder, ...models.ids }, engineOptions };
  return {
    fingerprint,
    mode: targetMode(target, models.selection.configuration),
    // Where the target is (an HTTP target's origin only) and the judge, which is still the suite's.
    models: { target: `${target.kind} ${target.name} (${targetLocation(choice)})`, judge: models.ids.judge ?? null },
    engineOptions: {},
  };
}

/**
 * Opens the run's target once here, so that one that does not answer stops the run with one line;
 * the in-process engine is the index global setup built (opened on it, closed by `close`).
 */
async function openRunTarget(
  choice: TargetChoice,
  index: TempIndex | undefined,
  dataset: ReturnType<typeof loadDataset>,
  models: EvalModels,
): Promise<{ measured: MeasuredTarget; close: () => void }> {
  let close = (): void => undefined;
  const measured = await openTarget(choice, dataset, models.selection.configuration, async () => {
    const engine = Engine.open(index!.dbPath, { ...engineOptionsFromEnv(), ...models.engine });
    close = () => engine.close();
    return { engine, fingerprint: index!.fingerprint };
  });
  return { measured, close };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dataset = datasetOrExit();
  const engine = engineOptionsFromEnv();
  const models = evalModels();
  const choice = targetChoice();
  process.stdout.write(`${models.description}\n`);
  let index: TempIndex | undefined;
  // Each lane has its own temp index, built with the same engine parameters.
  const lanes = new Map<LaneName, TempIndex>();
  let measured: MeasuredTarget;
  let closeTarget = (): void => undefined;
  try {
    // Another target has its own index: the run builds none (the lanes run in-process only).
    if (choice.kind === "in-process") {
      index = await buildTempIndex(dataset.corpus, {
        dataset: dataset.name,
        collection: dataset.collection,
        engine: { ...engine, ...(models.engine.embedder ? { embedder: models.engine.embedder } : {}) },
      });
      for (const lane of LANES) lanes.set(lane, await buildLaneIndex(loadLane(lane), engine));
    }
    ({ measured, close: closeTarget } = await openRunTarget(choice, index, dataset, models));
  } catch (error) {
    return exitOnSetupError(error);
  }
  const publish = (): void => {
    project.provide("evalTarget", targetInfo(measured));
    if (measured.target.kind !== "in-process") {
      const t = measured.target;
      process.stdout.write(
        `target: ${t.kind} ${t.name} (${targetLocation(choice)}), corpus ${measured.fingerprint.corpusHash.slice(0, 12)}; modes ${t.capabilities.modes.join(", ") || "none"}; ask ${t.capabilities.ask ? "yes" : "no"}; expand ${t.capabilities.expand ? "yes" : "no"}; ${t.capabilities.trace ? "with" : "no"} traces\n`,
      );
      if (process.env.EVAL_RUN_INFO_FILE)
        writeFileSync(process.env.EVAL_RUN_INFO_FILE, JSON.stringify(runInfo(measured, choice, engine, models), null, 2));
      return;
    }
    if (!index) return;
    project.provide("evalIndex", { dbPath: index.dbPath, fingerprint: index.fingerprint });
    project.provide(
      "laneIndexes",
      Object.fromEntries([...lanes].map(([name, lane]) => [name, { dbPath: lane.dbPath, fingerprint: lane.fingerprint }])),
    );
    process.stdout.write(`${describeFingerprint(index.fingerprint)}\n`);
    for (const lane of lanes.values()) process.stdout.write(`${describeFingerprint(lane.fingerprint)}\n`);
    // `pnpm eval` (bin/eval.ts) asks for what this run measures so its report can record it. Not
    // through project.provide: vitest clears the provided context when the run closes.
    if (process.env.EVAL_RUN_INFO_FILE)
      writeFileSync(
        process.env.EVAL_RUN_INFO_FILE,
        JSON.stringify(runInfo({ ...measured, fingerprint: index.fingerprint }, choice, engine, models), null, 2),
      );
  };
  publish();
  project.onTestsRerun(async () => {
    try {
      loadDataset();
      for (const lane of LANES) loadLane(lane);
    } catch (error) {
      // Watch mode keeps running: say what is wrong once; the evals will fail on it too.
      if (!isFixtureError(error)) throw error;
      process.stderr.write(`eval: ${formatFixtureError(error)}\n`);
      return;
    }
    await index?.refresh();
    for (const lane of lanes.values()) await lane.refresh();
    publish();
  });
  return () => {
    closeTarget();
    index?.remove();
    for (const lane of lanes.values()) lane.remove();
  };
}
