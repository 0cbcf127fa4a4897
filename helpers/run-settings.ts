/**
 * Every setting a run reads, checked whether or not this run uses it (a typo in CI must not pass
 * quietly because the run happened to be offline): the model cache (`EVAL_CACHE`,
 * `EVAL_CACHE_FILE`), the price table (`EVAL_PRICES`, and the shipped one), the budget
 * (`EVAL_MAX_COST`), the trials (`EVAL_TRIALS`), a dry run (`EVAL_DRY_RUN`), Evalite's port
 * (`EVALITE_PORT`), the reports folder (`EVAL_REPORTS_DIR`) and the model settings
 * (`ENGINE_PROVIDER` and its companions, the engine's `selectModels`). Each malformed one is a
 * ConfigError: one line, exit 2, before anything runs. The dataset, the target and the engine
 * parameters are checked where they are read, by the run plan (run-plan.ts, `resolveRun`), which
 * calls this.
 */
import { statSync } from "node:fs";
import { ConfigError } from "@hybrid-search/eval-gate";
import { selectModels } from "@hybrid-search/engine/models";
import { dollarAmount, priceTable } from "./models.js";

/** The values `EVAL_CACHE` takes: the model cache on (the default) or off. */
const CACHE_VALUES = ["on", "off"];

/** Checks every setting above in `env`; the first malformed one is a ConfigError. */
export function checkRunSettings(env: NodeJS.ProcessEnv = process.env): void {
  const cache = env.EVAL_CACHE?.trim();
  if (cache && !CACHE_VALUES.includes(cache.toLowerCase()))
    throw new ConfigError(`EVAL_CACHE must be on or off (off: every model call goes to the model), got ${quoted(cache)}`);
  notAFolder(env, "EVAL_CACHE_FILE", "the model cache's file");
  const reports = env.EVAL_REPORTS_DIR?.trim();
  if (reports && exists(reports) && !isFolder(reports))
    throw new ConfigError(`EVAL_REPORTS_DIR names ${quoted(reports)}, which is a file: it names the folder the report set is written to`);
  notAFolder(env, "EVALITE_STORAGE", "Evalite's SQLite file");
  const maxCost = env.EVAL_MAX_COST?.trim();
  if (maxCost) dollarAmount("EVAL_MAX_COST", maxCost);
  integer(env, "EVAL_TRIALS", 1, 100);
  integer(env, "EVALITE_PORT", 0, 65_535);
  const dryRun = env.EVAL_DRY_RUN?.trim();
  if (dryRun && dryRun !== "1" && dryRun !== "0") throw new ConfigError(`EVAL_DRY_RUN must be 1 or 0, got ${quoted(dryRun)}`);
  try {
    selectModels(env);
  } catch (error) {
    throw new ConfigError((error as Error).message.split("\n")[0]!);
  }
  // The shipped price table and EVAL_PRICES: read, each price checked (≥ 0), offline or not.
  priceTable(env);
}

function integer(env: NodeJS.ProcessEnv, key: string, min: number, max: number): void {
  const raw = env[key]?.trim();
  if (!raw) return;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${key} must be a whole number from ${min} to ${max}, got ${quoted(raw)}`);
}

function notAFolder(env: NodeJS.ProcessEnv, key: string, what: string): void {
  const path = env[key]?.trim();
  if (path && isFolder(path)) throw new ConfigError(`${key} names the folder ${quoted(path)}; it names ${what}, a file`);
}

const quoted = (raw: string): string => JSON.stringify(raw.slice(0, 80));

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
