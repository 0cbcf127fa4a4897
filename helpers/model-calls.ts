/**
 * Every model call of an eval run goes through here: helpers/models.ts wraps each language model
 * with `instrumentLanguageModel` and the embedding model with `instrumentEmbeddingModel`, with the
 * role it plays (answerer per preset, judge, expander, embedder). The engine only sees AI SDK
 * models, so it needs to know nothing of this; the judge's calls come through the same wrapped
 * model. For each call, in order:
 *
 * 1. **The cache** (helpers/model-cache.ts): a hit is returned at once, counted per role, and says
 *    so in the reply's provider metadata (`evalCache: { hit: true }`, which the judge's grade
 *    copies into its score's metadata as `cached: true`).
 * 2. **`--dry-run`** (`EVAL_DRY_RUN=1`): the call is not made. It is recorded with its estimated
 *    tokens — the prompt's characters / 4, and `maxOutputTokens` or a per-role typical output
 *    (`TYPICAL_OUTPUT`) — and answered with a placeholder, so the run goes on to the calls that
 *    follow: the smallest reply valid for the call's JSON schema (or "(dry run)") for the engine's
 *    answerer and expander, hashed n-gram vectors for embeddings; a judge call throws `DryRunCall`
 *    instead (a placeholder is no judgment), and the judge falls back to its heuristic.
 * 3. **`--max-cost`** (`EVAL_MAX_COST`, dollars): before the call, its cost is estimated as in a
 *    dry run; if what was spent, plus what calls in flight may cost, plus this one would pass the
 *    budget, the call is not made: it is recorded as refused and throws `BudgetExceededError`
 *    (never retried), so its case fails, labelled, and the gate fails the run saying so.
 * 4. The call, its usage as the provider reported it (input, output, input read from the
 *    provider's prompt cache), recorded; the reply stored in the cache; a trace to Evalite (input,
 *    output, tokens, time) when inside an eval.
 *
 * Records go to this process's list and, as JSON lines, to `EVAL_USAGE_FILE` (set by `pnpm eval`;
 * global setup's index embeddings and the eval worker's calls land in one file, which the gate
 * sums: packages/eval-gate/src/usage.ts). The budget counts what that file held when this
 * process first checked (global setup embeds the corpus before any eval runs) plus its own.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import type {
  EmbeddingModelV3,
  JSONSchema7,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import { HashedNgramEmbedder } from "@hybrid-search/engine";
import { callCost, dollars, type ModelCall, type PriceTable } from "@hybrid-search/eval-gate/usage";
import { wrapEmbeddingModel, wrapLanguageModel } from "ai";
import { reportTraceLocalStorage } from "evalite/traces";
import { cacheKey, type ModelCache } from "./model-cache.js";

/** Output tokens a call of a role typically takes, for estimates when the call sets no `maxOutputTokens`. */
export const TYPICAL_OUTPUT: Readonly<Record<string, number>> = { answerer: 400, judge: 300, expander: 200, agent: 400 };
const DEFAULT_OUTPUT = 300;

/** A judge call `--dry-run` counted instead of making: the judge falls back to its heuristic at once (scorers/judge-call.ts). */
export class DryRunCall extends Error {
  override readonly name = "DryRunCall";
}

/** A call `--max-cost` did not let through: not retried, its case fails labelled. */
export class BudgetExceededError extends Error {
  override readonly name = "BudgetExceededError";
}

export interface CallSettings {
  /** The model cache, or null when off (`EVAL_CACHE=off`, `--no-cache`). */
  cache: ModelCache | null;
  dryRun: boolean;
  /** Dollars, or null for no budget. */
  maxCost: number | null;
  prices: PriceTable;
  /** Where this run's calls are appended (JSON lines), or null. */
  usageFile: string | null;
  /** The endpoint calls go to (no credentials), part of every cache key. */
  endpoint: string | null;
}

/** Every call this process recorded, in order. */
export const recordedCalls: ModelCall[] = [];

/** The keys of the calls a dry run counted: the same call again would be answered by the cache, as in a real run. */
const dryRunKeys = new Set<string>();

function record(settings: CallSettings, call: ModelCall): void {
  recordedCalls.push(call);
  if (settings.usageFile) appendFileSync(settings.usageFile, `${JSON.stringify(call)}\n`);
}

/** The calls recorded in a usage file (JSON lines); none when it does not exist. */
export function readUsageFile(path: string): ModelCall[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as ModelCall);
}

// ------------------------------------------------------------------------------------ budget

interface BudgetState {
  spent: number;
  reserved: number;
}
let budget: BudgetState | undefined;

function budgetState(settings: CallSettings): BudgetState {
  if (!budget) {
    const before = settings.usageFile ? readUsageFile(settings.usageFile) : [];
    budget = {
      spent: before.reduce((s, c) => s + (c.cacheHit || c.refused ? 0 : (callCost(c, settings.prices.models[c.model]) ?? 0)), 0),
      reserved: 0,
    };
  }
  return budget;
}

/** Admits a call of estimated cost, or refuses it (recorded) by throwing; returns how to settle it. */
function admit(settings: CallSettings, estimate: ModelCall, label: string): (actual: ModelCall | null) => void {
  if (settings.maxCost === null) return () => {};
  const state = budgetState(settings);
  const cost = callCost(estimate, settings.prices.models[estimate.model]);
  if (cost === null || state.spent + state.reserved + cost > settings.maxCost) {
    record(settings, { ...estimate, refused: "budget" });
    throw new BudgetExceededError(
      cost === null
        ? `--max-cost: ${label} has no price (evals/model-prices.json, EVAL_PRICES), so its cost cannot be held to the budget; not made`
        : `--max-cost ${dollars(settings.maxCost)} reached: this ${estimate.role} call to ${label} (~${dollars(cost)}) would pass the budget (spent ${dollars(state.spent)}); not made`,
    );
  }
  state.reserved += cost;
  return (actual) => {
    state.reserved -= cost;
    state.spent += actual ? (callCost(actual, settings.prices.models[actual.model]) ?? cost) : 0;
  };
}

// ------------------------------------------------------------------------------------ estimates

export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

function promptText(prompt: LanguageModelV3Prompt): string {
  return prompt
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("")))
    .join("\n");
}

function estimateCall(role: string, model: string, label: string, params: LanguageModelV3CallOptions): ModelCall {
  const schema = params.responseFormat?.type === "json" && params.responseFormat.schema ? JSON.stringify(params.responseFormat.schema) : "";
  return {
    role,
    model,
    label,
    inputTokens: estimateTokens(promptText(params.prompt) + schema),
    outputTokens: params.maxOutputTokens ?? TYPICAL_OUTPUT[role.split(":")[0]!] ?? DEFAULT_OUTPUT,
    cachedInputTokens: 0,
    cacheHit: false,
  };
}

/** The smallest value valid for a JSON schema (required fields only, minimum lengths), for dry-run replies. */
export function placeholderFor(schema: JSONSchema7 | boolean | undefined): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.oneOf ?? schema.anyOf;
  if (choice?.length) return placeholderFor(choice[0] as JSONSchema7);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = placeholderFor(schema.properties?.[key] as JSONSchema7);
      return out;
    }
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => placeholderFor(schema.items as JSONSchema7));
    case "integer":
    case "number":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    case "string": {
      const pattern = schema.pattern ? new RegExp(schema.pattern, "u") : null;
      const fits = ["dry run", "en", "x", "0"].find((s) => !pattern || pattern.test(s)) ?? "dry run";
      return fits.padEnd(schema.minLength ?? 0, "x");
    }
    default:
      return null;
  }
}

function dryReply(params: LanguageModelV3CallOptions, estimate: ModelCall): LanguageModelV3GenerateResult {
  const text =
    params.responseFormat?.type === "json" ? JSON.stringify(placeholderFor(params.responseFormat.schema as JSONSchema7)) : "(dry run)";
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: estimate.inputTokens ?? 0, noCache: estimate.inputTokens ?? 0, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: estimate.outputTokens ?? 0, text: estimate.outputTokens ?? 0, reasoning: 0 },
    },
    providerMetadata: { evalDryRun: { estimated: true } },
    warnings: [],
  } as LanguageModelV3GenerateResult;
}

// ------------------------------------------------------------------------------------ tracing

function traceToEvalite(params: LanguageModelV3CallOptions, result: LanguageModelV3GenerateResult, start: number): void {
  const report = reportTraceLocalStorage.getStore();
  if (!report) return;
  const input = params.prompt.map((m) => ({ role: m.role, content: typeof m.content === "string" ? m.content : promptText([m]) }));
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  const inputTokens = result.usage.inputTokens.total ?? 0;
  const outputTokens = result.usage.outputTokens.total ?? 0;
  report({
    input,
    output: { text },
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    start,
    end: performance.now(),
  });
}

// ------------------------------------------------------------------------------------ the wrappers

/** What the cache keeps of a reply: no request body, no raw response body. */
function storable(result: LanguageModelV3GenerateResult): unknown {
  const { request: _request, response, ...rest } = result;
  return { ...rest, ...(response ? { response: { ...response, body: undefined } } : {}) };
}

function revived(value: unknown): LanguageModelV3GenerateResult {
  const result = value as LanguageModelV3GenerateResult;
  if (result.response?.timestamp) result.response.timestamp = new Date(result.response.timestamp as unknown as string);
  return result;
}

const usageOf = (role: string, model: string, label: string, result: LanguageModelV3GenerateResult): ModelCall => ({
  role,
  model,
  label,
  inputTokens: result.usage.inputTokens.total ?? null,
  outputTokens: result.usage.outputTokens.total ?? null,
  cachedInputTokens: result.usage.inputTokens.cacheRead ?? null,
  cacheHit: false,
});

/** A language model whose every call is cached, estimated, budgeted, recorded and traced (module comment). */
export function instrumentLanguageModel(model: LanguageModelV3, role: string, settings: CallSettings): LanguageModelV3 {
  const label = `${model.provider}/${model.modelId}`;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate, params }) => {
        const start = performance.now();
        const key = cacheKey({ kind: "generate", provider: model.provider, modelId: model.modelId, endpoint: settings.endpoint, params });
        const hit = settings.cache?.get(key);
        if (settings.dryRun && hit === undefined && dryRunKeys.has(key)) {
          record(settings, { ...estimateCall(role, model.modelId, label, params), cacheHit: true, dryRun: true });
          if (role === "judge") throw new DryRunCall(`--dry-run: the judge call to ${label} was counted as a cache hit`);
          return dryReply(params, estimateCall(role, model.modelId, label, params));
        }
        if (hit !== undefined) {
          const result = revived(hit);
          record(settings, {
            ...usageOf(role, model.modelId, label, result),
            cacheHit: true,
            ...(settings.dryRun ? { dryRun: true } : {}),
          });
          result.providerMetadata = { ...result.providerMetadata, evalCache: { hit: true } };
          traceToEvalite(params, result, start);
          return result;
        }
        const estimate = estimateCall(role, model.modelId, label, params);
        if (settings.dryRun) {
          record(settings, { ...estimate, dryRun: true });
          if (settings.cache) dryRunKeys.add(key);
          if (role === "judge") throw new DryRunCall(`--dry-run: the judge call to ${label} was counted, not made`);
          return dryReply(params, estimate);
        }
        const settle = admit(settings, estimate, label);
        let result: LanguageModelV3GenerateResult;
        try {
          result = await doGenerate();
        } catch (error) {
          settle(null);
          throw error;
        }
        const used = usageOf(role, model.modelId, label, result);
        settle(used);
        record(settings, used);
        settings.cache?.set(key, "generate", label, storable(result));
        traceToEvalite(params, result, start);
        return { ...result, providerMetadata: { ...result.providerMetadata, evalCache: { hit: false } } };
      },
      wrapStream: async ({ doStream, params }) => {
        // The suite streams nothing; a stream is budgeted and counted, not cached.
        const estimate = estimateCall(role, model.modelId, label, params);
        if (settings.dryRun) throw new Error(`--dry-run: a streamed ${role} call to ${label} cannot be estimated by a placeholder`);
        const settle = admit(settings, estimate, label);
        const { stream, ...rest } = await doStream();
        let used: ModelCall | null = null;
        const counted = stream.pipeThrough(
          new TransformStream({
            transform(part, controller) {
              if (part.type === "finish")
                used = {
                  ...estimate,
                  inputTokens: part.usage.inputTokens.total ?? null,
                  outputTokens: part.usage.outputTokens.total ?? null,
                  cachedInputTokens: part.usage.inputTokens.cacheRead ?? null,
                };
              controller.enqueue(part);
            },
            flush() {
              settle(used);
              record(settings, used ?? { ...estimate, inputTokens: null, outputTokens: null, cachedInputTokens: null });
            },
          }),
        );
        return { stream: counted, ...rest };
      },
    },
  });
}

/** An embedding model whose every call is cached, estimated, budgeted and recorded (role `embedder`). */
export function instrumentEmbeddingModel(model: EmbeddingModelV3, settings: CallSettings): EmbeddingModelV3 {
  const label = `${model.provider}/${model.modelId}`;
  const offline = new HashedNgramEmbedder();
  return wrapEmbeddingModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapEmbed: async ({ doEmbed, params }) => {
        const key = cacheKey({ kind: "embed", provider: model.provider, modelId: model.modelId, endpoint: settings.endpoint, params });
        const tokens = estimateTokens(params.values.join("\n"));
        const base: ModelCall = {
          role: "embedder",
          model: model.modelId,
          label,
          inputTokens: tokens,
          outputTokens: 0,
          cachedInputTokens: 0,
          cacheHit: false,
        };
        const hit = settings.cache?.get(key) as Awaited<ReturnType<EmbeddingModelV3["doEmbed"]>> | undefined;
        if (hit !== undefined) {
          record(settings, {
            ...base,
            inputTokens: hit.usage?.tokens ?? null,
            cacheHit: true,
            ...(settings.dryRun ? { dryRun: true } : {}),
          });
          return hit;
        }
        if (settings.dryRun && settings.cache && dryRunKeys.has(key)) record(settings, { ...base, cacheHit: true, dryRun: true });
        else if (settings.dryRun) {
          record(settings, { ...base, dryRun: true });
          if (settings.cache) dryRunKeys.add(key);
        }
        if (settings.dryRun) {
          return { embeddings: params.values.map((v) => Array.from(offline.embedOne(v))), usage: { tokens }, warnings: [] };
        }
        const settle = admit(settings, base, label);
        let result: Awaited<ReturnType<EmbeddingModelV3["doEmbed"]>>;
        try {
          result = await doEmbed();
        } catch (error) {
          settle(null);
          throw error;
        }
        const used = { ...base, inputTokens: result.usage?.tokens ?? null };
        settle(used);
        record(settings, used);
        const { response, ...rest } = result;
        settings.cache?.set(key, "embed", label, { ...rest, ...(response ? { response: { ...response, body: undefined } } : {}) });
        return result;
      },
    },
  });
}
