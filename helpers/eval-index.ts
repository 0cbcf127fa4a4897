/**
 * Inside an eval file: the run's shared index, opened once per worker process. Built by
 * `helpers/global-setup.ts`; when an eval runs without it, a private temp index is built instead.
 */
import { inject } from "vitest";
import { Engine } from "@hybrid-search/engine";
import { datasetDocIds, loadDataset, type Dataset } from "./dataset.js";
import { indexSource } from "./datasets/load.js";
import { engineOptionsFromEnv } from "./engine-options.js";
import { evalModels } from "./models.js";
import { buildLaneIndex, loadLane, type Lane, type LaneName } from "./lanes.js";
import { perRun } from "./run-cache.js";
import { buildTempIndex, type SuiteFingerprint } from "./setup-db.js";
import { fingerprintOf, type MeasuredTarget, openTarget, seedable, seedFor } from "./targets/eval-target.js";
import { seedTarget } from "./targets/seed.js";
import { inProcessTarget } from "./targets/in-process.js";
import { type TargetChoice, targetChoice } from "./targets/select.js";

export interface ProvidedIndex {
  dbPath: string;
  fingerprint: SuiteFingerprint;
}

declare module "vitest" {
  interface ProvidedContext {
    evalIndex: ProvidedIndex;
    /** The lanes' indexes (helpers/lanes.ts), by lane name. */
    laneIndexes: Partial<Record<LaneName, ProvidedIndex>>;
  }
}

export interface EvalIndex {
  engine: Engine;
  /** The index file the engine has open. */
  dbPath: string;
  fingerprint: SuiteFingerprint;
  dataset: Dataset;
}

/**
 * The run's dataset, loaded once per run in this process: the eval files ask for it many times,
 * and loading a BEIR folder reads its whole corpus (to check the judgments' document ids).
 */
export const evalDataset: () => Dataset = perRun(() => loadDataset());

let opened: Promise<EvalIndex> | undefined;

export function evalIndex(): Promise<EvalIndex> {
  opened ??= open();
  return opened;
}

async function open(): Promise<EvalIndex> {
  const dataset = evalDataset();
  const options = { ...engineOptionsFromEnv(), ...evalModels().engine };
  const provided = inject("evalIndex") as ProvidedIndex | undefined;
  const { dbPath, fingerprint } =
    provided ?? (await buildTempIndex(indexSource(dataset), { dataset: dataset.name, collection: dataset.collection, engine: options }));
  return { engine: Engine.open(dbPath, options), dbPath, fingerprint, dataset };
}

export interface LaneIndex {
  engine: Engine;
  fingerprint: SuiteFingerprint;
  lane: Lane;
}

const lanesOpened = new Map<LaneName, Promise<LaneIndex>>();

/** A lane's shared index (built by the global setup), opened once per worker; built privately without it. */
export function laneIndex(name: LaneName): Promise<LaneIndex> {
  let lane = lanesOpened.get(name);
  if (!lane) lanesOpened.set(name, (lane = openLane(name)));
  return lane;
}

async function openLane(name: LaneName): Promise<LaneIndex> {
  const lane = loadLane(name);
  const options = engineOptionsFromEnv();
  const provided = (inject("laneIndexes") as Partial<Record<LaneName, ProvidedIndex>> | undefined)?.[name];
  if (provided) return { engine: Engine.open(provided.dbPath, options), fingerprint: provided.fingerprint, lane };
  const built = await buildLaneIndex(lane, options);
  return { engine: Engine.open(built.dbPath, options), fingerprint: built.fingerprint, lane };
}

let targetOpened: Promise<MeasuredTarget> | undefined;

/**
 * The run's target (helpers/targets/), opened once per worker: the in-process engine on the run's
 * index unless EVAL_TARGET or EVAL_RUN_DIR names another. A target module that takes documents is
 * handed the dataset's corpus here, in the process that calls it, once per run (a watch-mode
 * rerun hands it the corpus as it is then); global setup seeds its own copy, and removes the
 * collection when the run ends. A seed that fails fails every case with its one line.
 */
export function evalTarget(): Promise<MeasuredTarget> {
  choice ??= targetChoice();
  targetOpened ??= openTarget(choice, loadDataset(), evalModels().selection.configuration, evalIndex);
  return choice.kind === "module" ? seededModule() : targetOpened;
}

let choice: TargetChoice | undefined;

const seededModule = perRun(async (): Promise<MeasuredTarget> => {
  const measured = await targetOpened!;
  const seed = seedFor(choice!, measured.target);
  if (!seed) return measured;
  const dataset = loadDataset();
  const quiet = { say: () => undefined, warn: () => undefined };
  const session = await seedTarget(seedable(measured.target), dataset, { ...seed, keep: true }, quiet);
  return { ...measured, fingerprint: fingerprintOf(session.fingerprint, dataset, session.collection) };
});

/** A lane's index as the in-process target: the lanes measure the in-repo engine only. */
export async function laneTarget(name: LaneName): Promise<MeasuredTarget & { lane: Lane }> {
  const { engine, fingerprint, lane } = await laneIndex(name);
  return { target: inProcessTarget(engine, `${name} lane`), fingerprint, lane };
}

let known: Set<string> | undefined;

/** The dataset's document ids, read once per worker: a target's result naming another is unjudged. */
export function knownDocIds(): ReadonlySet<string> {
  known ??= datasetDocIds(loadDataset());
  return known;
}
