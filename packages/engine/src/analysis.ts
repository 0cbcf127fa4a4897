/** The text analyzer, for tests and tools that must see text exactly as the index does. */
export {
  analyzeDocumentText,
  analyzeQuery,
  buildMatchExpression,
  indexTerms,
  matchingTerms,
  analyzerId,
  DEFAULT_ANALYZER,
  MAX_QUERY_TERMS,
} from "./text/analyze.js";
export type { AnalyzerConfig, AnalyzedQuery, QueryTerm, PositionedToken } from "./text/analyze.js";
export { detectLanguage } from "./text/language.js";
export { chunkDocument, chunkerId, DEFAULT_CHUNKER } from "./ingest/chunk.js";
export type { ChunkerConfig, Chunk } from "./ingest/chunk.js";
export { compareUtf8, byScoreThenDocIdDesc } from "./retrieval/order.js";
export { reciprocalRankFusion } from "./retrieval/rrf.js";
export { DEFAULT_HYBRID } from "./options/parameters.js";
export { CJK_STRATEGIES, type CjkStrategy } from "./text/cjk.js";
