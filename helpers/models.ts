/**
 * The models of an eval run: the engine's model selection from the environment (offline unless
 * configured; see docs/engine.md), with every model wrapped by helpers/model-calls.ts in the role
 * it plays — answerer per preset, expander, judge, embedder — so each call is cached
 * (helpers/model-cache.ts), counted with its tokens and cost, held to `--max-cost`, estimated
 * instead of made under `--dry-run`, and traced to Evalite. The cache key includes every call
 * option, headers too, so `trialHeaders` (helpers/run-cache.ts) gives each trial of a case its own entry.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  describeModels,
  engineModelOptions,
  EXTRACTIVE_ANSWERER,
  OFFLINE_POLICY_MODEL,
  selectModels,
  type ModelSelection,
} from "@hybrid-search/engine/models";
import { DeterministicExpander, type EngineOptions, HeuristicReranker } from "@hybrid-search/engine";
import { ConfigError } from "@hybrid-search/eval-gate";
import { checkPrices, mergePrices, type PriceTable } from "@hybrid-search/eval-gate/usage";
import { join, relative, resolve } from "node:path";
import { FixtureError } from "./fixture-files/errors.js";
import { REPO_ROOT } from "./fixture-files/paths.js";
import { readJsonFile } from "./input-files/read.js";
import { cacheEnabled, cacheFile, openModelCache } from "./model-cache.js";
import { type CallSettings, instrumentEmbeddingModel, instrumentLanguageModel } from "./model-calls.js";

export interface EvalModels {
  selection: ModelSelection;
  /** Engine options carrying the (wrapped) models; empty offline. */
  engine: Pick<EngineOptions, "embedder" | "reranker" | "languageModels" | "expander" | "modelLimits">;
  /** The LLM judge, wrapped; undefined offline (graders then use their heuristics). */
  judge: LanguageModelV3 | undefined;
  /** One line naming the mode and every model id. */
  description: string;
  /** Model ids by role, as recorded in run info and reports. */
  ids: Record<string, string | null>;
  /** How every call is cached, budgeted and recorded. */
  calls: CallSettings;
}

let cached: EvalModels | undefined;

export function evalModels(env: NodeJS.ProcessEnv = process.env): EvalModels {
  if (cached && env === process.env) return cached;
  const selection = selectModels(env);
  const calls = callSettings(env, selection);
  const wrap = (m: LanguageModelV3, role: string): LanguageModelV3 => instrumentLanguageModel(m, role, calls);
  const judge = selection.judgeModel();
  const engine = engineModelOptions(selection, wrap);
  if (engine.embedder) engine.embedder = instrumentEmbeddingModel(engine.embedder, calls);
  const models: EvalModels = {
    selection,
    engine,
    judge: judge ? wrap(judge, "judge") : undefined,
    description: describeModels(selection),
    ids: modelIds(selection),
    calls,
  };
  if (env === process.env) cached = models;
  return models;
}

/** The shipped price table. */
export const PRICES_PATH = join(REPO_ROOT, "evals/model-prices.json");

/** The price table in force: the shipped one, with `EVAL_PRICES` (a file of the same schema) on top; a bad file is one line. */
export function priceTable(env: NodeJS.ProcessEnv = process.env): { prices: PriceTable; override: string | null } {
  const shipped = readPriceFile(PRICES_PATH, "evals/model-prices.json");
  const path = env.EVAL_PRICES?.trim();
  if (!path) return { prices: shipped, override: null };
  const shown = relative(process.cwd(), resolve(path)) || path;
  return { prices: mergePrices(shipped, readPriceFile(resolve(path), `EVAL_PRICES: ${shown}`)), override: shown };
}

/** A price table file through the suite's one reader (encoding, JSON, an object), then its schema. */
function readPriceFile(path: string, shown: string): PriceTable {
  try {
    return checkPrices(readJsonFile(path, { shown, top: "object" }), shown);
  } catch (error) {
    if (error instanceof FixtureError) throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * An amount in dollars as a person writes it on a command line: a plain decimal number, `0.50`,
 * `2`, `.5` — no sign, no `$`, no exponent, no hexadecimal (`$1` in a shell is an empty variable, `0x10`
 * is not sixteen dollars to anyone reading the CI file). `name` names the flag or variable.
 */
export function dollarAmount(name: string, raw: string): number {
  const text = raw.trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text) || !Number.isFinite(Number(text)))
    throw new ConfigError(`${name} must be a plain decimal amount in dollars, such as 0.50 or 2 (got ${JSON.stringify(raw.slice(0, 50))})`);
  return Number(text);
}

/** `EVAL_MAX_COST` in dollars, or null; anything but a plain decimal amount is one line. */
export function maxCostFrom(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.EVAL_MAX_COST?.trim();
  if (!raw) return null;
  return dollarAmount("--max-cost (EVAL_MAX_COST)", raw);
}

/** How this process's model calls are cached, budgeted and recorded, from the environment `pnpm eval` sets. */
function callSettings(env: NodeJS.ProcessEnv, selection: ModelSelection): CallSettings {
  if (selection.mode === "offline")
    return {
      cache: null,
      dryRun: false,
      maxCost: null,
      prices: { currency: "USD", per: "1M tokens", source: "", retrieved: "", models: {} },
      usageFile: null,
      endpoint: null,
    };
  return {
    cache: cacheEnabled(env) ? openModelCache(cacheFile(env)) : null,
    dryRun: env.EVAL_DRY_RUN === "1",
    maxCost: maxCostFrom(env),
    prices: priceTable(env).prices,
    usageFile: env.EVAL_USAGE_FILE?.trim() || null,
    endpoint: selection.endpoint,
  };
}

/** The offline components' ids as the engine records them (the reranker's as `provider/modelId`, like its trace). */
const offlineReranker = new HeuristicReranker();
const OFFLINE_IDS = {
  answerer: EXTRACTIVE_ANSWERER,
  agent: `offline/${OFFLINE_POLICY_MODEL}`,
  expander: new DeterministicExpander().id,
  reranker: `${offlineReranker.provider}/${offlineReranker.modelId}`,
};

/** Model ids by role (no credentials). */
export function modelIds(selection: ModelSelection): Record<string, string | null> {
  if (selection.mode === "offline") {
    return {
      answerer: OFFLINE_IDS.answerer,
      agent: OFFLINE_IDS.agent,
      judge: null,
      expander: OFFLINE_IDS.expander,
      reranker: OFFLINE_IDS.reranker,
    };
  }
  const p = selection.ids.presets!;
  return {
    "answerer:slim": p.slim,
    "answerer:balanced": p.balanced,
    "answerer:quality": p.quality,
    "agent:slim": p.slim,
    "agent:balanced": p.balanced,
    "agent:quality": p.quality,
    judge: selection.ids.judge,
    expander: selection.ids.expansion,
    reranker: selection.ids.reranker ?? OFFLINE_IDS.reranker,
  };
}

/** The model ids a run with this selection calls that the price table has no price for. */
export function unpricedModels(selection: ModelSelection, prices: PriceTable): string[] {
  if (selection.mode === "offline") return [];
  const ids = [...Object.values(selection.ids.presets ?? {}), selection.ids.judge, selection.ids.expansion, selection.ids.embedder];
  return [...new Set(ids.filter((id): id is string => id !== null && prices.models[id] === undefined))];
}
