/**
 * Vitest global setup for the Evalite run (see evalite.config.ts): validates the dataset, builds the
 * run's temp index once, prints what is being measured, and shares the index with the eval files.
 * Every run and every watch-mode rerun gets a new run id, which scopes the engine responses the
 * eval files share (helpers/run-cache.ts). In watch mode every rerun re-indexes first (unchanged
 * documents are skipped), so an edit to a corpus document is measured on the next run. A malformed
 * fixture stops the run with one line.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { DatasetError, loadDataset } from "./dataset.js";
import { ConfigError } from "@hybrid-search/eval-gate";
import type { RunInfo } from "@hybrid-search/eval-gate/run-info";
import { engineOptionsFromEnv } from "./engine-options.js";
import { evalModels, type EvalModels } from "./models.js";
import { formatFixtureError, isFixtureError, loadAskCases, loadTranslations } from "./fixtures.js";
import { buildLaneIndex, LANES, loadLane, type LaneName } from "./lanes.js";
import { buildTempIndex, describeFingerprint, type TempIndex } from "./setup-db.js";
import "./eval-index.js";
import "./run-cache.js";

function datasetOrExit(): ReturnType<typeof loadDataset> {
  try {
    engineOptionsFromEnv();
    evalModels();
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

/** What this run measures, in the gate's shape (the gate owns the report; the suite fills it in). */
function runInfo(index: TempIndex, engineOptions: ReturnType<typeof engineOptionsFromEnv>, models: EvalModels): RunInfo {
  return {
    fingerprint: index.fingerprint,
    mode: models.selection.configuration,
    models: { embedder: index.fingerprint.embedder, ...models.ids },
    engineOptions,
  };
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dataset = datasetOrExit();
  const engine = engineOptionsFromEnv();
  const models = evalModels();
  process.stdout.write(`${models.description}\n`);
  let index: TempIndex;
  // Each lane has its own temp index, built with the same engine parameters.
  const lanes = new Map<LaneName, TempIndex>();
  try {
    index = await buildTempIndex(dataset.corpus, {
      dataset: dataset.name,
      collection: dataset.collection,
      engine: { ...engine, ...(models.engine.embedder ? { embedder: models.engine.embedder } : {}) },
    });
    for (const lane of LANES) lanes.set(lane, await buildLaneIndex(loadLane(lane), engine));
  } catch (error) {
    return exitOnSetupError(error);
  }
  const publish = (): void => {
    project.provide("evalIndex", { dbPath: index.dbPath, fingerprint: index.fingerprint });
    project.provide(
      "laneIndexes",
      Object.fromEntries([...lanes].map(([name, lane]) => [name, { dbPath: lane.dbPath, fingerprint: lane.fingerprint }])),
    );
    project.provide("evalRun", randomUUID());
    process.stdout.write(`${describeFingerprint(index.fingerprint)}\n`);
    for (const lane of lanes.values()) process.stdout.write(`${describeFingerprint(lane.fingerprint)}\n`);
    // `pnpm eval` (bin/eval.ts) asks for what this run measures so its report can record it. Not
    // through project.provide: vitest clears the provided context when the run closes.
    if (process.env.EVAL_RUN_INFO_FILE)
      writeFileSync(process.env.EVAL_RUN_INFO_FILE, JSON.stringify(runInfo(index, engine, models), null, 2));
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
    await index.refresh();
    for (const lane of lanes.values()) await lane.refresh();
    publish();
  });
  return () => {
    index.remove();
    for (const lane of lanes.values()) lane.remove();
  };
}
