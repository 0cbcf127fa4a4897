/**
 * The engine's tunable parameters — `analyzer`, `chunker`, `hybrid` — merged with their defaults
 * and checked. `Engine.open` applies exactly `resolveParameters`, before any file is created, and
 * the suite calls it to check an experiment's options without opening an index.
 */
import { defaultEmbedder, defaultVectorWeight } from "../embed/embedder.js";
import { DEFAULT_CHUNKER, validateChunker, type ChunkerConfig } from "../ingest/chunk.js";
import { resolveAnalyzer, type AnalyzerConfig } from "../text/analyze.js";
import type { EmbeddingModel, EngineOptions, HybridConfig } from "../types.js";
import { checkOptions } from "./check.js";

export const DEFAULT_HYBRID: HybridConfig = {
  fusion: "convex",
  rrfK: 60,
  bm25Weight: 1,
  vectorWeight: 1,
  expansionWeight: 0.5,
  candidates: 50,
  rerankDepth: 30,
  thoroughRerankDepth: 50,
  fusionWeight: 0.7,
  feedbackDocs: 10,
  feedbackTerms: 10,
  feedbackQueryWeight: 0.5,
  feedbackVectorWeight: 0.75,
  feedbackLanguageGate: true,
  columnWeights: [4, 1, 2],
};

/**
 * The engine's tunable parameters (`analyzer`, `chunker`, `hybrid`) merged with their defaults and
 * checked, without opening an index: an unknown key throws TypeError naming the closest known one
 * (`rrfk` → `rrfK`), a value out of range RangeError. `Engine.open` applies exactly this.
 */
export function resolveParameters(
  options: Pick<EngineOptions, "analyzer" | "chunker" | "hybrid">,
  embedder: EmbeddingModel = defaultEmbedder(),
): { analyzer: AnalyzerConfig; chunker: ChunkerConfig; hybrid: HybridConfig } {
  const analyzer = resolveAnalyzer(options.analyzer);
  if (options.chunker !== undefined) checkOptions(options.chunker, Object.keys(DEFAULT_CHUNKER), "chunker");
  const chunker = { ...DEFAULT_CHUNKER, ...options.chunker };
  validateChunker(chunker);
  if (options.hybrid !== undefined) checkOptions(options.hybrid, Object.keys(DEFAULT_HYBRID), "hybrid");
  const hybrid = { ...DEFAULT_HYBRID, vectorWeight: defaultVectorWeight(embedder), ...options.hybrid };
  validateHybrid(hybrid);
  return { analyzer, chunker, hybrid };
}

function validateHybrid(h: HybridConfig): void {
  const positive = (name: keyof HybridConfig, v: number, integer: boolean): void => {
    if (!Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v)))
      throw new RangeError(`Expected hybrid "${name}" to be a non-negative ${integer ? "integer" : "number"}, got ${v}`);
  };
  if (h.fusion !== "convex" && h.fusion !== "rrf")
    throw new RangeError(`Expected hybrid "fusion" to be "convex" or "rrf", got ${JSON.stringify(h.fusion)}`);
  positive("rrfK", h.rrfK, false);
  positive("feedbackDocs", h.feedbackDocs, true);
  positive("feedbackTerms", h.feedbackTerms, true);
  if (!(h.feedbackQueryWeight >= 0 && h.feedbackQueryWeight <= 1))
    throw new RangeError(`Expected hybrid "feedbackQueryWeight" to be between 0 and 1, got ${h.feedbackQueryWeight}`);
  positive("feedbackVectorWeight", h.feedbackVectorWeight, false);
  if (typeof h.feedbackLanguageGate !== "boolean")
    throw new TypeError(`Expected hybrid "feedbackLanguageGate" to be true or false, got ${JSON.stringify(h.feedbackLanguageGate)}`);
  positive("bm25Weight", h.bm25Weight, false);
  positive("vectorWeight", h.vectorWeight, false);
  positive("expansionWeight", h.expansionWeight, false);
  positive("candidates", h.candidates, true);
  positive("rerankDepth", h.rerankDepth, true);
  positive("thoroughRerankDepth", h.thoroughRerankDepth, true);
  if (!(h.fusionWeight >= 0 && h.fusionWeight <= 1))
    throw new RangeError(`Expected hybrid "fusionWeight" to be between 0 and 1, got ${h.fusionWeight}`);
  if (h.columnWeights.length !== 3 || h.columnWeights.some((w) => !Number.isFinite(w) || w < 0)) {
    throw new RangeError(`Expected hybrid "columnWeights" to be three non-negative numbers (title, body, path)`);
  }
}
