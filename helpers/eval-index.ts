/**
 * Inside an eval file: the run's shared index, opened once per worker process. Built by
 * `helpers/global-setup.ts`; when an eval runs without it, a private temp index is built instead.
 */
import { inject } from "vitest";
import { Engine } from "@hybrid-search/engine";
import { datasetDocIds, type Dataset } from "./dataset.js";
import { indexSource } from "./datasets/load.js";
import { evalModels } from "./models.js";
import { buildLaneIndex, loadLane, type Lane, type LaneName } from "./lanes.js";
import { perRun } from "./run-cache.js";
import { kindOf } from "./targets/kinds/index.js";
import { buildTempIndex, type SuiteFingerprint } from "./setup-db.js";
import { runDataset, runPlan } from "./run-plan.js";
import { type MeasuredTarget, readyTarget } from "./targets/eval-target.js";
import { inProcessTarget } from "./targets/kinds/in-process.js";

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
 * The run's dataset as the run's plan published it (helpers/run-plan.ts), read once per run in this
 * process: the eval files ask for it many times; a watch-mode rerun reads it again.
 */
export const evalDataset: () => Dataset = perRun(() => runDataset());

let opened: Promise<EvalIndex> | undefined;

export function evalIndex(): Promise<EvalIndex> {
  opened ??= open();
  return opened;
}

async function open(): Promise<EvalIndex> {
  const dataset = evalDataset();
  const options = { ...runPlan().engineOptions, ...evalModels().engine };
  const provided = inject("evalIndex") as ProvidedIndex | undefined;
  const { dbPath, fingerprint } =
    provided ??
    (await buildTempIndex(indexSource(dataset, runDataset), { dataset: dataset.name, collection: dataset.collection, engine: options }));
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
  const options = runPlan().engineOptions;
  const provided = (inject("laneIndexes") as Partial<Record<LaneName, ProvidedIndex>> | undefined)?.[name];
  if (provided) return { engine: Engine.open(provided.dbPath, options), fingerprint: provided.fingerprint, lane };
  const built = await buildLaneIndex(lane, options);
  return { engine: Engine.open(built.dbPath, options), fingerprint: built.fingerprint, lane };
}

/**
 * The run's target (helpers/targets/), opened once per run in this worker: the in-process engine on
 * the run's index unless EVAL_TARGET or EVAL_RUN_DIR names another (a watch-mode rerun opens it
 * afresh only when its kind keeps state in this process, and so is handed the corpus again).
 */
export const evalTarget: () => Promise<MeasuredTarget> = perRunOrOnce(() =>
  readyTarget(runPlan().target, {
    dataset: evalDataset(),
    configuration: evalModels().selection.configuration,
    suiteIndex: evalIndex,
  }),
);

/** Once per run for a target whose kind seeds it in every process (a module), else once per process. */
function perRunOrOnce(open: () => Promise<MeasuredTarget>): () => Promise<MeasuredTarget> {
  let once: Promise<MeasuredTarget> | undefined;
  const perRunOpen = perRun(open);
  return () => (kindOf(runPlan().target).seedsInEveryProcess ? perRunOpen() : (once ??= open()));
}

/** A lane's index as the in-process target: the lanes measure the in-repo engine only. */
export async function laneTarget(name: LaneName): Promise<MeasuredTarget & { lane: Lane }> {
  const { engine, fingerprint, lane } = await laneIndex(name);
  return { target: inProcessTarget(engine, `${name} lane`), fingerprint, lane };
}

let known: Set<string> | undefined;

/** The dataset's document ids, read once per worker: a target's result naming another is unjudged. */
export function knownDocIds(): ReadonlySet<string> {
  known ??= datasetDocIds(evalDataset());
  return known;
}
