/**
 * Embedding through any AI SDK embedding model, with batching, retries (AI SDK `embedMany`) and
 * failures turned into `PROVIDER_ERROR`. The offline embedder is called synchronously.
 */
import { EngineError } from "../errors.js";
import type { EmbeddingModel } from "../types.js";
import { HashedNgramEmbedder } from "./hashed-ngram.js";

/** `provider/modelId`, recorded in the index and in every trace. */
export function embedderId(model: EmbeddingModel): string {
  return `${model.provider}/${model.modelId}`;
}

export async function embedTexts(model: EmbeddingModel, texts: readonly string[]): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  if (model instanceof HashedNgramEmbedder) return texts.map((t) => model.embedOne(t));
  let embeddings: number[][];
  try {
    // Loaded on first use: the AI SDK costs ~250 ms to import, and offline runs never need it.
    const { embedMany } = await import("ai");
    ({ embeddings } = await embedMany({ model, values: [...texts], maxRetries: 2, maxParallelCalls: 2 }));
  } catch (error) {
    throw new EngineError("PROVIDER_ERROR", `embedding with ${embedderId(model)} failed: ${oneLine(error)}`, { cause: error });
  }
  if (embeddings.length !== texts.length) {
    throw new EngineError("PROVIDER_ERROR", `${embedderId(model)} returned ${embeddings.length} embeddings for ${texts.length} texts`);
  }
  return embeddings.map((e) => Float32Array.from(e));
}

function oneLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split("\n")[0]!.slice(0, 300);
}

export function defaultEmbedder(): EmbeddingModel {
  return new HashedNgramEmbedder();
}
