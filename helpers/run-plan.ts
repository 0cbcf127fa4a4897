/**
 * What a run measures, resolved once: the dataset (where, in which format and split, and the data
 * itself, loaded and checked), the target (its kind and checked configuration), the engine
 * parameters of a tuning experiment (EVAL_ENGINE_OPTIONS) and where offline answers are written
 * (EVAL_ANSWER_THREADS). The run's first process resolves it — `pnpm eval` (bin/eval.ts) before
 * anything runs, or global setup under a plain `evalite run` and `pnpm eval:watch` — and publishes
 * it: the plan in `EVAL_RUN_PLAN` (JSON, inherited by Evalite's worker; it carries the target's
 * credentials exactly as the environment that held them does, and is never written to a file),
 * the loaded dataset in a file of the run's temp folder. Every later reader in any process of the
 * run takes the plan as published and the dataset from that file: nothing below re-reads the
 * EVAL_* variables of the plan, re-detects a format or re-reads a dataset's sources (a watch-mode
 * rerun re-reads the dataset, to measure an edit, and publishes it again).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { type Dataset, datasetSplit, loadDataset } from "./dataset.js";
import type { Detected } from "./datasets/detect.js";
import { readDataset } from "./datasets/load.js";
import { type AnswerThreadsMode, answerThreadsFromEnv, engineOptionsFromEnv, type TunableEngineOptions } from "./engine-options.js";
import { loadTurnCases } from "./fixture-files/turn-cases.js";
import { checkRunSettings } from "./run-settings.js";
import { chooseTarget, type TargetPlan } from "./targets/kinds/index.js";

/** The environment variable the plan is published in. */
export const RUN_PLAN_ENV = "EVAL_RUN_PLAN";

export interface RunPlan {
  /** Where the dataset was read and how (EVAL_DATASET, EVAL_DATASET_FORMAT, EVAL_DATASET_SPLIT), and its name. */
  dataset: { source: string | null; format: string | null; split: string; name: string };
  /** The file the loaded dataset is published in. */
  datasetFile: string;
  target: TargetPlan;
  engineOptions: TunableEngineOptions;
  answerThreads: AnswerThreadsMode;
}

/** A resolved run: the plan, the dataset it read, and how its format was found (null: the project's own fixtures). */
export interface ResolvedRun {
  plan: RunPlan;
  dataset: Dataset;
  detected: Detected | null;
}

/**
 * Resolves the run from the environment, checking every setting it reads whether or not this run
 * uses it (run-settings.ts; a ConfigError or a DatasetError, one line, exit 2), loads its dataset
 * and checks the files its evals will read in their worker, where a bad one would only fail an
 * eval (exit 1): the turn cases. Nothing is published yet.
 */
export function resolveRun(env: NodeJS.ProcessEnv = process.env): ResolvedRun {
  checkRunSettings(env);
  const engineOptions = engineOptionsFromEnv(env);
  const answerThreads = answerThreadsFromEnv(env);
  const { dataset, detected } = readDataset(env);
  // The agent eval reads the turn cases as it loads, in Evalite's worker: a malformed file there
  // would fail that eval file (exit 1), so it is checked here, as input (exit 2).
  loadTurnCases();
  const target = chooseTarget(env);
  const plan: RunPlan = {
    dataset: {
      source: env.EVAL_DATASET?.trim() ? resolve(env.EVAL_DATASET.trim()) : null,
      format: env.EVAL_DATASET_FORMAT?.trim() || null,
      split: datasetSplit(env),
      name: dataset.name,
    },
    datasetFile: "",
    target,
    engineOptions,
    answerThreads,
  };
  return { plan, dataset, detected };
}

let published: { plan: RunPlan; dataset: Dataset; folder: string } | undefined;

/**
 * Publishes a resolved run to this process and every process it starts from now on: the dataset
 * in a file of a temp folder of its own (removed when the process exits), the plan in
 * `EVAL_RUN_PLAN`. Publishing again (a watch-mode rerun) replaces the dataset.
 */
export function publishRun(run: Pick<ResolvedRun, "plan" | "dataset">, env: NodeJS.ProcessEnv = process.env): RunPlan {
  const folder = published?.folder ?? mkdtempSync(join(tmpdir(), "eval-run-plan-"));
  if (!published) process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  mkdirSync(folder, { recursive: true });
  const plan = { ...run.plan, datasetFile: join(folder, "dataset.json") };
  writeFileSync(plan.datasetFile, serializeDataset(run.dataset));
  env[RUN_PLAN_ENV] = JSON.stringify(plan);
  published = { plan, dataset: run.dataset, folder };
  return plan;
}

/** Withdraws what `publishRun` published (a command that ran in a process that goes on: a test calling `main`). */
export function unpublishRun(env: NodeJS.ProcessEnv = process.env): void {
  if (published) rmSync(published.folder, { recursive: true, force: true });
  published = undefined;
  delete env[RUN_PLAN_ENV];
}

/**
 * The run's plan in this process: as published (by this process, or by the one that started it),
 * else resolved and published here (a process that is the run's first: an eval file run alone).
 */
export function runPlan(env: NodeJS.ProcessEnv = process.env): RunPlan {
  if (published) return published.plan;
  const raw = env[RUN_PLAN_ENV];
  if (raw) {
    try {
      return JSON.parse(raw) as RunPlan;
    } catch {
      throw new ConfigError(`${RUN_PLAN_ENV} is set by the run itself and must not be set by hand; unset it`);
    }
  }
  return publishRun(resolveRun(env), env);
}

/**
 * The run's dataset, as published: this process's own, or read from the published file (a worker:
 * callers keep it for the run, helpers/eval-index.ts, and read it again on a watch-mode rerun).
 */
export function runDataset(env: NodeJS.ProcessEnv = process.env): Dataset {
  const { datasetFile } = runPlan(env);
  if (published) return published.dataset;
  return parseDataset(readFileSync(datasetFile, "utf8"));
}

/** Reads the run's dataset again from its sources (a watch-mode rerun measures edited files) and publishes it. */
export function reloadRunDataset(env: NodeJS.ProcessEnv = process.env): Dataset {
  const plan = runPlan(env);
  const dataset = loadDataset({
    ...(plan.dataset.source ? { EVAL_DATASET: plan.dataset.source } : {}),
    ...(plan.dataset.format ? { EVAL_DATASET_FORMAT: plan.dataset.format } : {}),
    EVAL_DATASET_SPLIT: plan.dataset.split,
  });
  publishRun({ plan, dataset }, env);
  return dataset;
}

/** A dataset as JSON: its maps as entries. */
export function serializeDataset(dataset: Dataset): string {
  return JSON.stringify({ ...dataset, declaredLanguages: [...dataset.declaredLanguages] });
}

/** A dataset from `serializeDataset`'s JSON. */
export function parseDataset(text: string): Dataset {
  const value = JSON.parse(text) as Omit<Dataset, "declaredLanguages"> & { declaredLanguages: Array<[string, string]> };
  return { ...value, declaredLanguages: new Map(value.declaredLanguages) };
}
