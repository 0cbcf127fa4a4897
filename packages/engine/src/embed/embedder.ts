/**
 * Embedding through any AI SDK embedding model: batching and retries by AI SDK `embedMany`, under
 * the engine's call policy (timeout and retries), failures turned into `PROVIDER_ERROR`. An
 * embedder that computes vectors in-process (`embedOne`, the offline one) is called directly.
 */
import { aiSdk } from "../ai-sdk.js";
import { callWithPolicy } from "../call-policy.js";
import { EngineError, errorLine } from "../errors.js";
import { type CallPolicy, type EmbeddingModel, OFFLINE_PROVIDER } from "../types.js";
import { HashedNgramEmbedder } from "./hashed-ngram.js";

/**
 * The offline embedder's list enters fusion at half weight unless told otherwise: measured on the
 * fixtures (docs/engine.md), its ranking is weaker than BM25's in every query category, and at
 * equal weight fusion cost 0.04 nDCG@10 against BM25 alone. A model embedder keeps weight 1.
 */
export const OFFLINE_VECTOR_WEIGHT = 0.5;

/**
 * The fusion weight of an embedder's list when `hybrid.vectorWeight` is not given, from the
 * provider it declares. The provider is part of the AI SDK interface, so a wrapper (AI SDK
 * middleware, a tracing or caching wrapper) keeps it, and with it the weight.
 */
export function defaultVectorWeight(model: EmbeddingModel): number {
  return model.provider === OFFLINE_PROVIDER ? OFFLINE_VECTOR_WEIGHT : 1;
}

/** `provider/modelId`, recorded in the index and in every trace. */
export function embedderId(model: EmbeddingModel): string {
  return `${model.provider}/${model.modelId}`;
}

/** An embedder that computes a vector synchronously in this process; no call to bound or retry. */
interface InProcessEmbedder extends EmbeddingModel {
  embedOne(text: string): Float32Array;
}

function embedsInProcess(model: EmbeddingModel): model is InProcessEmbedder {
  return typeof (model as Partial<InProcessEmbedder>).embedOne === "function";
}

export async function embedTexts(model: EmbeddingModel, texts: readonly string[], policy: CallPolicy): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (embedsInProcess(model)) return texts.map((t) => model.embedOne(t));
  let embeddings: number[][];
  try {
    const { embedMany } = await aiSdk();
    ({ embeddings } = await callWithPolicy(policy, (settings) =>
      embedMany({ model, values: [...texts], maxParallelCalls: 2, ...settings }),
    ));
  } catch (error) {
    throw new EngineError("PROVIDER_ERROR", `embedding with ${embedderId(model)} failed: ${errorLine(error)}`, { cause: error });
  }
  if (embeddings.length !== texts.length) {
    throw new EngineError("PROVIDER_ERROR", `${embedderId(model)} returned ${embeddings.length} embeddings for ${texts.length} texts`);
  }
  return embeddings.map((e) => Float32Array.from(e));
}

export function defaultEmbedder(): EmbeddingModel {
  return new HashedNgramEmbedder();
}
