/**
 * Engine parameters for a run, from `EVAL_ENGINE_OPTIONS` (JSON): `analyzer`, `chunker` and
 * `hybrid` settings, e.g. `EVAL_ENGINE_OPTIONS='{"hybrid":{"vectorWeight":1,"fusionWeight":0.5}}'`.
 * For tuning experiments, and for tests that measure a deliberately weakened engine. Models are
 * not set here: they come from the model selection.
 */
import { resolveParameters, type EngineOptions } from "@hybrid-search/engine";
import { ConfigError } from "@hybrid-search/eval-gate";

export type TunableEngineOptions = Pick<EngineOptions, "analyzer" | "chunker" | "hybrid">;

const KEYS = ["analyzer", "chunker", "hybrid"] as const;

export function engineOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): TunableEngineOptions {
  const raw = env.EVAL_ENGINE_OPTIONS?.trim();
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(`EVAL_ENGINE_OPTIONS is not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ConfigError("EVAL_ENGINE_OPTIONS must be a JSON object");
  for (const [key, value] of Object.entries(parsed)) {
    if (!(KEYS as readonly string[]).includes(key))
      throw new ConfigError(`EVAL_ENGINE_OPTIONS: unknown key "${key}" (known: ${KEYS.join(", ")})`);
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new ConfigError(`EVAL_ENGINE_OPTIONS.${key} must be an object`);
  }
  // The engine's own checks, before any index is built: a misspelled or out-of-range parameter
  // must stop the run, not measure the defaults under the experiment's name.
  try {
    resolveParameters(parsed as TunableEngineOptions);
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError)
      throw new ConfigError(`EVAL_ENGINE_OPTIONS: ${error.message.split("\n")[0]}`);
    throw error;
  }
  return parsed as TunableEngineOptions;
}

/** Where the in-process engine's offline answers are written (helpers/answer-ahead.ts), from `EVAL_ANSWER_THREADS`. */
export type AnswerThreadsMode = "auto" | "always" | "never";

const ANSWER_THREADS_MODES: readonly AnswerThreadsMode[] = ["auto", "always", "never"];

/**
 * `EVAL_ANSWER_THREADS`: `auto` (default) writes the answers on threads of their own for a run
 * that asks enough questions for it to pay; `always` and `never` force one way. The answers are
 * the same either way.
 */
export function answerThreadsFromEnv(env: NodeJS.ProcessEnv = process.env): AnswerThreadsMode {
  const raw = env.EVAL_ANSWER_THREADS?.trim() || "auto";
  if (!(ANSWER_THREADS_MODES as readonly string[]).includes(raw))
    throw new ConfigError(`EVAL_ANSWER_THREADS must be one of ${ANSWER_THREADS_MODES.join(", ")} (got "${raw}")`);
  return raw as AnswerThreadsMode;
}
