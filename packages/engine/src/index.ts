/**
 * @hybrid-search/engine — a local hybrid search engine over one SQLite index.
 *
 *   const engine = Engine.open("index.db", { create: true });
 *   await engine.index("docs/");
 *   const { results, trace } = await engine.query("cancel my plan", { tier: "balanced" });
 *
 * Subpaths: `/formats` (JSONL and TREC run files), `/analysis` (the text analyzer), `/cli`.
 */
export { Engine } from "./engine.js";
export { AskThread, type AskThreadOptions } from "./answer/ask-thread.js";
export { resolveParameters } from "./options/parameters.js";
export { EngineError } from "./errors.js";
export { HashedNgramEmbedder } from "./embed/hashed-ngram.js";
export { HeuristicReranker } from "./retrieval/heuristic-reranker.js";
export { DeterministicExpander } from "./retrieval/deterministic-expander.js";
export type * from "./types.js";
export { AGENT_TOOLS } from "./types.js";
export type { EngineErrorCode } from "./errors.js";
export type { OpenEngineOptions } from "./options/call-options.js";
