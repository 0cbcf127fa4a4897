/**
 * The environment variables the target kinds share (docs/targets.md): a target's name, its
 * timeouts and concurrency, and seeding (EVAL_TARGET_SEED and its companions). Each is checked
 * where it is read: a malformed value is a ConfigError (one line, exit 2).
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import { secretProblem } from "@hybrid-search/target-contract/redact";

/** When and where the run seeds a target with the dataset's corpus (helpers/targets/seed.ts). */
export interface SeedConfig {
  collection: string;
  /** EVAL_TARGET_KEEP_SEED=1: leave the seeded collection on the target after the run. */
  keep: boolean;
  /** Per PUT or DELETE /documents: a target indexes a corpus in one request, which takes longer than a search. */
  timeoutMs: number;
}

const COLLECTION = /^[A-Za-z0-9._-]{1,200}$/;

/** EVAL_TARGET_SEED and its companions, or undefined when it is unset. */
export function seedConfig(env: NodeJS.ProcessEnv): SeedConfig | undefined {
  const collection = env.EVAL_TARGET_SEED?.trim();
  const keep = env.EVAL_TARGET_KEEP_SEED?.trim();
  if (keep && keep !== "0" && keep !== "1")
    throw new ConfigError(`EVAL_TARGET_KEEP_SEED must be 1 or 0, got ${JSON.stringify(keep.slice(0, 50))}`);
  if (!collection) {
    if (keep) throw new ConfigError("EVAL_TARGET_KEEP_SEED keeps what EVAL_TARGET_SEED seeds; EVAL_TARGET_SEED is not set");
    return undefined;
  }
  if (!COLLECTION.test(collection))
    throw new ConfigError(
      `EVAL_TARGET_SEED must name a collection of 1–200 letters, digits, ".", "_" or "-", got ${JSON.stringify(collection.slice(0, 80))}`,
    );
  return { collection, keep: keep === "1", timeoutMs: positiveInt(env, "EVAL_TARGET_SEED_TIMEOUT_MS", 600_000, RANGES.timeout) };
}

/** The longest time Node's timers hold (2^31 − 1 ms, about 24.8 days): a longer one fires at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** The documented ranges of the integer settings (docs/targets.md). */
export const RANGES = {
  timeout: { min: 1, max: MAX_TIMEOUT_MS },
  retries: { min: 0, max: 10 },
  concurrency: { min: 1, max: 256 },
} as const;

/** An integer setting within `range`, or `fallback` when it is unset; anything else is a ConfigError naming the range. */
export function positiveInt(env: NodeJS.ProcessEnv, key: string, fallback: number, range: { min: number; max: number }): number {
  const raw = env[key]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < range.min || Number(raw) > range.max)
    throw new ConfigError(`${key} must be a whole number from ${range.min} to ${range.max}, got ${JSON.stringify(raw.slice(0, 50))}`);
  return Number(raw);
}

/**
 * A credential setting (EVAL_TARGET_TOKEN, EVAL_TARGET_COOKIE), or undefined when unset. One shorter
 * than the contract's minimum is refused: redacting it would cut it out of ordinary words.
 */
export function credential(env: NodeJS.ProcessEnv, key: string): string | undefined {
  const value = env[key];
  if (!value) return undefined;
  const problem = secretProblem(key, value);
  if (problem) throw new ConfigError(problem);
  return value;
}

/** EVAL_TARGET_NAME, checked (it keys the floors), or undefined when unset. */
export function targetName(env: NodeJS.ProcessEnv): string | undefined {
  const name = env.EVAL_TARGET_NAME?.trim();
  if (!name) return undefined;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name))
    throw new ConfigError(
      `EVAL_TARGET_NAME must be 1–64 letters, digits, ".", "_" or "-" (it keys the floors), got ${JSON.stringify(name.slice(0, 80))}`,
    );
  return name;
}

/** A URL (`scheme://…`), as opposed to a path. */
export const URL_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
