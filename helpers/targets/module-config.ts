/**
 * A target module's configuration from the environment (`EVAL_TARGET=<path>` and its companions),
 * checked without loading the module: what the run plan carries (module-target.ts loads and calls it).
 */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { credential, positiveInt, RANGES, type SeedConfig, seedConfig, targetName } from "./settings.js";

export interface ModuleTargetConfig {
  /** The module's absolute path. */
  file: string;
  /** The path as EVAL_TARGET gave it, for messages and reports. */
  given: string;
  name?: string;
  timeoutMs: number;
  concurrency: number;
  /** EVAL_TARGET_SEED / EVAL_TARGET_KEEP_SEED; a module with `documents` is seeded whether or not they are set. */
  seed?: SeedConfig;
  /** Values redacted from everything the module says (EVAL_TARGET_TOKEN, EVAL_TARGET_COOKIE). */
  secrets: string[];
}

/** Extensions a target module may have. */
const EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** EVAL_TARGET as a module's path (`target`: its value, not a URL), with its companions. */
export function moduleTargetConfig(target: string, env: NodeJS.ProcessEnv): ModuleTargetConfig {
  const file = isAbsolute(target) ? target : resolve(target);
  if (!EXTENSIONS.test(file))
    throw new ConfigError(
      `EVAL_TARGET must be a service's http(s) URL or a target module's path (.ts, .mts, .js, .mjs, …), got ${JSON.stringify(target.slice(0, 200))}`,
    );
  if (!existsSync(file) || !statSync(file).isFile())
    throw new ConfigError(`EVAL_TARGET ${target}: no such file (paths are relative to ${process.cwd()})`);
  if (env.EVAL_TARGET_ADAPTER?.trim())
    throw new ConfigError(`EVAL_TARGET_ADAPTER describes an HTTP service, and EVAL_TARGET names a module (${target}); unset one of them`);
  const name = targetName(env);
  const seed = seedConfig(env);
  return {
    file,
    given: target,
    ...(name ? { name } : {}),
    timeoutMs: positiveInt(env, "EVAL_TARGET_TIMEOUT_MS", 10_000, RANGES.timeout),
    concurrency: positiveInt(env, "EVAL_TARGET_CONCURRENCY", 1, RANGES.concurrency),
    ...(seed ? { seed } : {}),
    secrets: [credential(env, "EVAL_TARGET_TOKEN"), credential(env, "EVAL_TARGET_COOKIE")].filter((s): s is string => !!s),
  };
}
