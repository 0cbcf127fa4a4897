/**
 * The models of an eval run: the engine's model selection from the environment (offline unless
 * configured; see docs/engine.md), with every language model wrapped by Evalite's AI SDK wrapper so
 * generation and judge calls are traced and cached. Evalite's cache key ignores the trial index, so
 * `trialHeaders` gives each trial of a case its own header and therefore its own cache entry.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapAISDKModel } from "evalite/ai-sdk";
import {
  describeModels,
  engineModelOptions,
  EXTRACTIVE_ANSWERER,
  OFFLINE_POLICY_MODEL,
  selectModels,
  type ModelSelection,
} from "@hybrid-search/engine/models";
import { DeterministicExpander, type EngineOptions, HeuristicReranker } from "@hybrid-search/engine";

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
}

let cached: EvalModels | undefined;

export function evalModels(env: NodeJS.ProcessEnv = process.env): EvalModels {
  if (cached && env === process.env) return cached;
  const selection = selectModels(env);
  const wrap = (m: LanguageModelV3): LanguageModelV3 => wrapAISDKModel(m) as LanguageModelV3;
  const judge = selection.judgeModel();
  const models: EvalModels = {
    selection,
    engine: engineModelOptions(selection, wrap),
    judge: judge ? wrap(judge) : undefined,
    description: describeModels(selection),
    ids: modelIds(selection),
  };
  if (env === process.env) cached = models;
  return models;
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
    judge: selection.ids.judge,
    expander: selection.ids.expansion,
    reranker: selection.ids.reranker ?? OFFLINE_IDS.reranker,
  };
}

const trials = new Map<string, number>();

/**
 * Headers that make this call distinct per trial of a case: the n-th call for `caseKey` in this
 * process is trial n. Evalite's cache then stores each trial's answer instead of replaying the first.
 */
export function trialHeaders(caseKey: string): Record<string, string> {
  const n = (trials.get(caseKey) ?? 0) + 1;
  trials.set(caseKey, n);
  return { "x-eval-trial": String(n) };
}
