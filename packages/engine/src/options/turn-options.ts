/**
 * `turn`'s options, checked before anything runs: a wrong type throws TypeError, a value out of
 * range RangeError, each naming the option and what was expected; an unknown option name suggests
 * the closest known one. The step cap and the token budget always have a value.
 */
import { checkCallPolicy } from "../call-policy.js";
import { AGENT_TOOLS, type AgentToolName, type CallPolicy, PRESETS, type Preset, type TurnOptions } from "../types.js";
import { resolveSearchOptions, type SearchOptionsResolved, checkText } from "./call-options.js";
import { checkOptions } from "./check.js";

/** Steps a turn takes at most unless it asks otherwise: the offline policy needs 5 for search, three reads and an answer. */
export const DEFAULT_MAX_STEPS = 8;
export const MAX_STEPS_LIMIT = 50;
/** Tokens a turn may use unless it asks otherwise: a few documents read whole, several times over as the prompt grows. */
export const DEFAULT_TOKEN_BUDGET = 32_000;
export const TOKEN_BUDGET_LIMIT = 10_000_000;

export interface TurnOptionsResolved {
  preset: Preset;
  tools: AgentToolName[];
  maxSteps: number;
  tokenBudget: number;
  /** What the tools' searches filter by (collection, language, asOf, includeSuperseded). */
  filters: Pick<SearchOptionsResolved, "collection" | "language" | "asOf" | "includeSuperseded">;
  /** The options as given, for the tools' calls into the pipeline (which check them again). */
  given: Pick<TurnOptions, "collection" | "language" | "asOf" | "includeSuperseded">;
  headers: Record<string, string> | undefined;
  policy: CallPolicy;
}

const integerIn = (name: string, value: unknown, min: number, max: number): number => {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`Expected "${name}" to be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
};

export function resolveTurnOptions(question: unknown, options: TurnOptions, modelLimits: CallPolicy): TurnOptionsResolved {
  checkOptions(
    options,
    ["preset", "tools", "maxSteps", "tokenBudget", "collection", "language", "asOf", "includeSuperseded", "headers", "timeoutMs"],
    "turn",
  );
  if (checkText(question).trim() === "") throw new RangeError(`Expected the question to hold some text`);
  const {
    preset = "balanced",
    tools = AGENT_TOOLS,
    headers,
    timeoutMs = modelLimits.timeoutMs,
    collection,
    language,
    asOf,
    includeSuperseded,
  } = options;
  if (!PRESETS.includes(preset))
    throw new RangeError(`Expected "preset" to be one of ${PRESETS.join(", ")}, got ${JSON.stringify(preset)}`);
  if (!Array.isArray(tools)) throw new TypeError(`Expected "tools" to be a list of tool names (${AGENT_TOOLS.join(", ")})`);
  for (const [i, tool] of tools.entries()) {
    if (!AGENT_TOOLS.includes(tool))
      throw new RangeError(`Expected "tools" to name tools of ${AGENT_TOOLS.join(", ")}, got ${JSON.stringify(tool)}`);
    if (tools.indexOf(tool) !== i) throw new RangeError(`Expected "tools" to name each tool once, got ${JSON.stringify(tool)} twice`);
  }
  const maxSteps = integerIn("maxSteps", options.maxSteps ?? DEFAULT_MAX_STEPS, 1, MAX_STEPS_LIMIT);
  const tokenBudget = integerIn("tokenBudget", options.tokenBudget ?? DEFAULT_TOKEN_BUDGET, 1, TOKEN_BUDGET_LIMIT);
  const given = {
    ...(collection !== undefined ? { collection } : {}),
    ...(language !== undefined ? { language } : {}),
    ...(asOf !== undefined ? { asOf } : {}),
    ...(includeSuperseded !== undefined ? { includeSuperseded } : {}),
  };
  const { limit: _limit, traceDepth: _traceDepth, ...filters } = resolveSearchOptions(given, "turn");
  const policy = { ...modelLimits, timeoutMs };
  checkCallPolicy(policy, "turn");
  return { preset, tools: [...tools], maxSteps, tokenBudget, filters, given, headers, policy };
}
