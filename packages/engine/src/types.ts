/**
 * The engine's public types. The messages it answers with are the target contract's
 * (`@hybrid-search/target-contract`: hits, traces, answers, citations, sources, documents, agent
 * turns), declared there once; the engine narrows them to what it always gives (`RankedHit`,
 * `SearchResult`, `AskResult`, `TurnResult`) and declares here only its own options and reports.
 */
import type { EmbeddingModelV3, LanguageModelV3, RerankingModelV3 } from "@ai-sdk/provider";
import type {
  AskResponse,
  Citation,
  DocumentIds,
  Evidence,
  ExpandResponse,
  Hit,
  Preset,
  SearchResponse,
  Source,
  Tier,
  Trace,
  Validity,
} from "@hybrid-search/target-contract/types";
import type { TurnCitation, TurnOutcome, TurnResponse, TurnStep } from "@hybrid-search/target-contract/turn";
import type { AnalyzerConfig } from "./text/analyze.js";
import type { ChunkerConfig } from "./ingest/chunk.js";

/** Any AI SDK embedding model (`google.textEmbeddingModel(...)`, an OpenAI-compatible one, or the offline default). */
export type EmbeddingModel = EmbeddingModelV3;
/** Any AI SDK reranking model, or the offline heuristic reranker. */
export type RerankingModel = RerankingModelV3;

/**
 * Limits of one model call (see call-policy.ts): give up after `timeoutMs`, retries included;
 * retry a failed or rate-limited call up to `maxRetries` times.
 */
export interface CallPolicy {
  /** A positive integer (ms). @default 60000 (ENGINE_TIMEOUT_MS) */
  timeoutMs: number;
  /** A non-negative integer. @default 2 (ENGINE_MAX_RETRIES) */
  maxRetries: number;
}

/** The provider name the engine's in-process models declare (the hashed n-gram embedder, the heuristic reranker). */
export const OFFLINE_PROVIDER = "offline";

export type {
  Citation,
  Document,
  DocumentIds,
  Evidence,
  Hit,
  KnownTraceStageName,
  Preset,
  SearchResponse,
  Source,
  Tier,
  Trace,
  TraceItem,
  TraceStage,
  Validity,
} from "@hybrid-search/target-contract/types";
export type { TurnCitation, TurnOutcome, TurnResponse, TurnStep, TurnToolCall } from "@hybrid-search/target-contract/turn";

export const TIERS: readonly Tier[] = ["fast", "balanced", "thorough"];

export interface EngineOptions {
  /** Embedding model for vectors. @default the offline hashed character n-gram embedder (384 dimensions) */
  embedder?: EmbeddingModel;
  /**
   * Reranker for the balanced and thorough tiers, called through the AI SDK's `rerank` with the
   * index's statistics in `providerOptions.offline` (`{ termIdf, languages, maxIdf }`; other
   * providers ignore them). @default the offline heuristic reranker
   */
  reranker?: RerankingModel;
  /** Query expander for the thorough tier. @default the deterministic expander */
  expander?: QueryExpander;
  /** Language models that write answers, per preset. A preset without one answers extractively, offline. */
  languageModels?: Partial<Record<Preset, LanguageModelV3>>;
  /**
   * Language models that drive agent turns (`turn()`), per preset: the same models as
   * `languageModels`, usually, given apart so that a caller can tell the two uses apart (the eval
   * suite counts their tokens and cost under their own role). @default the preset's answer model;
   * a preset with neither is driven by the offline policy
   */
  agentModels?: Partial<Record<Preset, LanguageModelV3>>;
  /**
   * Limits for every AI SDK call the engine makes: answers, embeddings (indexing and queries) and
   * reranking. A `ModelExpander` takes its own (`engineModelOptions` gives it the same).
   * @default { timeoutMs: 60000, maxRetries: 2 }
   */
  modelLimits?: CallPolicy;
  /** Text analysis. A change rebuilds the full-text index on the next `index()`. */
  analyzer?: Partial<AnalyzerConfig>;
  /** Chunking parameters. A change re-chunks documents on their next `index()`. */
  chunker?: Partial<ChunkerConfig>;
  /** Hybrid fusion and reranking parameters. */
  hybrid?: Partial<HybridConfig>;
  /** How long to wait for another process's lock before failing with `DB_LOCKED`. @default 2000 */
  busyTimeoutMs?: number;
  /**
   * Where an index run computes its passages' terms and the offline embedder's vectors: `auto` on
   * a worker thread while the run's thread writes, when the run prepares at least 10,000 texts and
   * the process may use two CPUs or more; `always`, `never` force one way. The index is
   * the same either way. @default "auto"
   */
  indexWorker?: IndexWorkerMode;
}

/** Where an index run prepares its passages (`EngineOptions.indexWorker`, store/prepare-thread.ts). */
export type IndexWorkerMode = "auto" | "always" | "never";

export interface HybridConfig {
  /**
   * How the balanced and thorough tiers fuse their lists: `convex`, a weighted sum of min–max
   * normalized scores (retrieval/fusion.ts), or `rrf`, reciprocal rank fusion. @default "convex"
   */
  fusion: "convex" | "rrf";
  /** Reciprocal rank fusion constant (Cormack, Clarke & Büttcher, SIGIR 2009), when `fusion` is `rrf`. @default 60 */
  rrfK: number;
  /** Weight of the BM25 list in fusion. @default 1 */
  bm25Weight: number;
  /**
   * Weight of the vector list in fusion. @default 1, or OFFLINE_VECTOR_WEIGHT (0.5) for an embedder
   * whose provider is `offline` (the hashed n-gram embedder, wrapped or not)
   */
  vectorWeight: number;
  /**
   * Thorough: the lists of one retriever's expanded queries together weigh this times its original
   * query's list; the retriever's total weight stays as in balanced (retrieval/fusion.ts,
   * `familyWeights`). @default 0.5
   */
  expansionWeight: number;
  /** Depth of each list that enters fusion; a larger `limit` deepens them to `limit`. @default 50 */
  candidates: number;
  /** How many fused candidates the balanced tier reranks. @default 30 */
  rerankDepth: number;
  /** How many fused candidates the thorough tier reranks. @default 50 */
  thoroughRerankDepth: number;
  /** Final score = fusionWeight × (fused / max fused) + (1 − fusionWeight) × rerank score. @default 0.7 */
  fusionWeight: number;
  /** Thorough: first-pass documents the RM3 relevance model is estimated from; 0 turns feedback off. @default 10 */
  feedbackDocs: number;
  /** Thorough: feedback terms added to the query. @default 10 */
  feedbackTerms: number;
  /** Thorough: λ, the original query's weight in the expanded query (retrieval/feedback.ts). @default 0.5 */
  feedbackQueryWeight: number;
  /** Thorough: Rocchio's β, the weight of the feedback documents' mean vector added to the query vector; 0 turns vector feedback off. @default 0.75 */
  feedbackVectorWeight: number;
  /**
   * Thorough: feedback only when the query's language is known and every feedback document is in
   * it (retrieval/feedback.ts, `languageMismatch`); `false` always feeds back. @default true
   */
  feedbackLanguageGate: boolean;
  /** BM25 column weights (title, body, path) passed to FTS5 `bm25()`. @default [4, 1, 2] */
  columnWeights: readonly [number, number, number];
}

export interface SearchOptions {
  /** Number of documents to return. @default 10 */
  limit?: number;
  /** Only documents of this collection. */
  collection?: string;
  /** Only documents in this language (e.g. "de"). */
  language?: string;
  /** How many items of each ranked list the trace keeps. @default 20 */
  traceDepth?: number;
  /**
   * Evaluate validity at this instant instead of now: a `Date`, or `YYYY-MM-DD` / an ISO 8601
   * date-time (UTC unless it names an offset). See docs/engine.md, Validity.
   */
  asOf?: string | Date;
  /** Keep documents that are superseded or outside their validity window, marked `validity.stale`. @default false */
  includeSuperseded?: boolean;
}

export interface QueryOptions extends SearchOptions {
  /** @default "balanced" */
  tier?: Tier;
}

/** One ranked document, as the engine gives every one: the contract's `Hit` with all it can say. Results are document-level: the best passage stands for its document. */
export type RankedHit = Hit & {
  /** 1-based rank. */
  rank: number;
  /** Document id: the path relative to its collection root (`de/kuendigung.md`), or a JSONL record id. */
  docId: string;
  collection: string;
  /** Best-matching passage, `docId#n`. */
  passageId: string;
  /** Higher is better. BM25: −bm25() of FTS5; vectors: cosine; fused and reranked: see the trace. */
  score: number;
  title: string;
  language: string | null;
  /** Heading trail of the passage. */
  heading: string;
  /** Up to ~240 characters of the passage around the query terms. */
  snippet: string;
  /** Present only for a document that declares validity or is superseded by one that does. */
  validity?: HitValidity;
};

/** A result's validity at the call's instant (`asOf`, default now): the contract's `Validity`, its lists always given. */
export type HitValidity = Validity & {
  /** Ids this document supersedes. */
  supersedes: string[];
  /** Ids of the documents that directly supersede this one (in force or not). */
  supersededBy: string[];
};

/** A ranking as the engine answers it: the contract's `SearchResponse`, with the query, the mode, every stage's trace and the time. */
export interface SearchResult extends SearchResponse {
  query: string;
  /** `search`, `vsearch`, or the tier for `query`. */
  mode: "search" | "vsearch" | Tier;
  results: RankedHit[];
  trace: Trace;
  /** Milliseconds spent in the call. */
  elapsedMs: number;
}

/** Output of a query expander; its JSON Schema is `fixtures/schemas/expansion.schema.json`. */
export type Expansion = {
  /** Keyword queries to run with BM25 (the first is usually the query itself). */
  lexicalQueries: string[];
  /** Queries to embed and run against the vectors. */
  vectorQueries: string[];
  /** A hypothetical answer passage to embed (HyDE), when the expander writes one. */
  hyde?: string;
  /** The query's language, when the expander recognised it. */
  language?: string;
};

/** Read-only view of the index vocabulary, given to expanders. */
export interface Vocabulary {
  /** Number of passages containing the index term (0 when absent). */
  documentFrequency(term: string): number;
  /** Index terms within `maxEdits` edits of `term`, most frequent first. */
  similarTerms(term: string, maxEdits: number): string[];
  /** Languages of the indexed documents. */
  languages: readonly string[];
}

export interface ExpansionResult extends ExpandResponse {
  expansion: Expansion;
  /** Which expander produced it (`deterministic-v1`, `google/gemini-2.5-flash`, ...). */
  expander: string;
  /**
   * Set when the expander failed or its output failed validation and the query ran unexpanded;
   * `errors` is set exactly when there was output and it was invalid (not JSON, or AJV's errors).
   */
  fallback?: { reason: string; errors?: unknown };
}

export interface QueryExpander {
  /** Stable id recorded in traces. */
  readonly id: string;
  /** `headers` go with a model call, if the expander makes one (the eval suite makes trials distinct with them). */
  expand(query: string, context: { vocabulary: Vocabulary; headers?: Record<string, string> }): Promise<ExpansionResult>;
}

export interface IndexOptions {
  /** Collection name. @default the folder's name, or the JSONL file's name without extension */
  collection?: string;
  /** Progress and notices (re-embedding, rebuilds), one line each. */
  onMessage?: (line: string) => void;
}

export interface IndexDocumentsOptions {
  /** The collection that holds exactly these documents afterwards (others of it are removed). */
  collection: string;
  /** @default "keys" */
  ids?: DocumentIds;
  /** Progress and notices, one line each, as for `index`. */
  onMessage?: (line: string) => void;
}

/**
 * Why a folder entry was not indexed: `not-text` (not .md/.markdown/.mdx/.txt/.text),
 * `name-not-utf8` (the file name's bytes are not UTF-8), `link-outside` (a symbolic link resolving
 * outside the folder), `link-to-folder`, `link-dangling`, `link-loop`, `not-a-file` (FIFO, socket,
 * device).
 */
export type SkipReason = "not-text" | "name-not-utf8" | "link-outside" | "link-to-folder" | "link-dangling" | "link-loop" | "not-a-file";

/** A folder entry `index()` did not read. */
export interface SkippedFile {
  /** Relative to the folder, forward slashes; bytes of a name that is not UTF-8 as `\xNN`. */
  path: string;
  reason: SkipReason;
}

export interface IndexReport {
  collection: string;
  source: string;
  documents: { added: number; updated: number; unchanged: number; removed: number; total: number };
  passages: { written: number; removed: number; total: number };
  embeddings: { computed: number; reused: number; embedder: string; dimensions: number };
  /** Entries under the folder that were not indexed, and why (hidden entries and node_modules are left out silently). */
  skippedFiles: SkippedFile[];
  /** Notices such as an embedder change or a full-text rebuild. */
  messages: string[];
  elapsedMs: number;
}

/** What identifies an index's behaviour: equal fingerprints mean comparable runs. */
export interface IndexFingerprint {
  schemaVersion: number;
  analyzer: string;
  chunkers: string[];
  embedder: string;
  dimensions: number;
  /** sha256 over every document's (collection, path, content hash), in order. */
  corpusHash: string;
  documents: number;
  passages: number;
}

/** The answer presets: which language model answers (slim, balanced, quality). */
export const PRESETS: readonly Preset[] = ["slim", "balanced", "quality"];

export interface AskOptions {
  /** Which answer model to use. @default "balanced" */
  preset?: Preset;
  /** Number of sources retrieved and shown to the answerer. @default 5 */
  limit?: number;
  /** Retrieval tier. @default "balanced" */
  tier?: Tier;
  collection?: string;
  language?: string;
  /** Answer as of this instant (see `SearchOptions.asOf`): only documents valid then are sources. */
  asOf?: string | Date;
  /** Let superseded and expired documents be sources too, marked `validity.stale`. @default false */
  includeSuperseded?: boolean;
  /**
   * Minimum evidence (the best source's IDF-weighted share of the question's content terms) to
   * answer at all. @default 0.4 offline (extractive), 0.3 with a model (which may still refuse)
   */
  evidenceThreshold?: number;
  /** Extra HTTP headers for the model call (the eval suite makes trials distinct with one). */
  headers?: Record<string, string>;
  /** Give up on the answer model after this long (ms). @default the engine's modelLimits.timeoutMs (60000) */
  timeoutMs?: number;
}

/** A source as the engine gives every one: the contract's `Source` with all it can say. */
export type AskSource = Source & {
  /** The number the answer cites: [1], [2]… */
  ref: number;
  docId: string;
  passageId: string;
  title: string;
  heading: string;
  text: string;
  language: string | null;
  /** Retrieval score of the document. */
  score: number;
  /** As on the hit: present only for a document with validity. */
  validity?: HitValidity;
};

/** An answer as the engine gives every one: the contract's `AskResponse` with all it can say. */
export interface AskResult extends AskResponse {
  question: string;
  /** The answer, the refusal sentence when refused, "" when the answerer failed. */
  answer: string;
  citations: Array<Citation & { passageId: string }>;
  /** [n] references in the answer that point to no source. */
  invalidCitations: number[];
  sources: AskSource[];
  /** Who wrote the answer: `offline/extractive-v1` or `provider/model`. */
  answerer: string;
  /** The preset asked for; null when answered offline (no model for it). */
  preset: Preset | null;
  evidence: Evidence;
  flagged: NonNullable<AskResponse["flagged"]>;
  trace: Trace;
  elapsedMs: number;
}

/**
 * The tools of an agent turn (docs/engine.md, Agent turns): `search` ranks the index in a mode,
 * `read_document` returns a document's sections, `catalog` lists the collections and every
 * document's id (its path), title and language, `file_correction` proposes a correction to a
 * document and needs a person's approval: a turn never runs it, it stops there.
 */
export type AgentToolName = "search" | "read_document" | "catalog" | "file_correction";
export const AGENT_TOOLS: readonly AgentToolName[] = ["search", "read_document", "catalog", "file_correction"];

export interface TurnOptions {
  /** Which language model drives the loop; a preset without one is driven by the offline policy. @default "balanced" */
  preset?: Preset;
  /** The surface: the tools the turn may call (none twice). @default every tool (AGENT_TOOLS) */
  tools?: readonly AgentToolName[];
  /** Model steps at most, 1–50 (a step: one model call and the tools it calls). @default 8 */
  maxSteps?: number;
  /** Tokens the turn may use, every step's input and output together, 1–10,000,000. @default 32000 */
  tokenBudget?: number;
  /** What `search`, `read_document` and `catalog` see: as for `search`. */
  collection?: string;
  language?: string;
  asOf?: string | Date;
  includeSuperseded?: boolean;
  /** Extra HTTP headers for the model calls (the eval suite makes trials distinct with one). */
  headers?: Record<string, string>;
  /** Give up on the turn's model calls after this long (ms), all steps together. @default the engine's modelLimits.timeoutMs */
  timeoutMs?: number;
}

/** An agent turn as the engine gives every one: the contract's turn trace (`TurnResponse`) with all it can say. */
export interface TurnResult extends TurnResponse {
  question: string;
  /** What drove the loop: `offline/agent-policy-v1` or `provider/modelId`. */
  agent: string;
  /** The preset asked for; null when the offline policy drove the turn. */
  preset: Preset | null;
  /** The surface the turn had. */
  tools: AgentToolName[];
  outcome: TurnOutcome;
  /** The answer with its `[doc: <id>]` markers; the refusal sentence when refused; "" otherwise. */
  answer: string;
  citations: TurnCitation[];
  /** The action the turn stopped at, for a person to approve. */
  proposal?: { tool: string; input: unknown; step: number; summary: string };
  steps: TurnStep[];
  /** Tokens used, every step together: as the model reported them, or estimated (4 characters a token) for the offline policy. */
  usage: { inputTokens: number; outputTokens: number; totalTokens: number; counted: "model" | "estimate" };
  limits: { maxSteps: number; tokenBudget: number };
  elapsedMs: number;
}
