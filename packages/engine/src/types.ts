/**
 * The engine's public types: the contract between the engine, its CLI and the eval suite.
 */
import type { EmbeddingModelV3, LanguageModelV3, RerankingModelV3 } from "@ai-sdk/provider";
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

export type Tier = "fast" | "balanced" | "thorough";
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

/** One ranked document. Results are document-level: the best passage stands for its document. */
export interface Hit {
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
}

/** A result's validity at the call's instant (`asOf`, default now). */
export interface HitValidity {
  validFrom?: string;
  validUntil?: string;
  /** Ids this document supersedes. */
  supersedes: string[];
  /** Ids of the documents that directly supersede this one (in force or not). */
  supersededBy: string[];
  /** Superseded or outside its window at the instant: only returned with `includeSuperseded`. */
  stale: boolean;
  /** Why it is stale, in words (`superseded by en/b.md`, `no longer valid (validUntil …)`). */
  reason?: string;
}

/**
 * The engine's own stages. A composition may add a stage of its own (docs/engine.md, "A new stage
 * or tier"), so a trace entry's `stage` is any name; one that should travel over the target
 * contract also needs its name in the contract's stage list.
 */
export type StageName = "validity" | "bm25" | "vector" | "fusion" | "rerank" | "expansion" | "feedback" | "evidence" | "generation";

/** A compact ranked list inside a trace: enough to see where a document went. */
export interface TraceItem {
  docId: string;
  passageId?: string;
  score: number;
  rank: number;
  /** Stage-specific numbers: ranks per fused list, the fused and rerank scores behind a final score. */
  detail?: Record<string, number>;
}

export interface TraceStage {
  stage: StageName | (string & {});
  /** What the stage was given (query text, MATCH expression, list sizes, parameters). */
  input: Record<string, unknown>;
  /** Ranked output (documents with scores and ranks) or, for expansion, the expansion. */
  output: TraceItem[] | Record<string, unknown>;
  /** Epoch milliseconds (fractional). */
  start: number;
  end: number;
  /** Anything the stage wants a reader to know (a fallback, a truncation, a skipped list). */
  note?: string;
}

export interface SearchResponse {
  query: string;
  /** `search`, `vsearch`, or the tier for `query`. */
  mode: "search" | "vsearch" | Tier;
  results: Hit[];
  trace: TraceStage[];
  /** Milliseconds spent in the call. */
  elapsedMs: number;
}

/** Output of a query expander; its JSON Schema is `fixtures/schemas/expansion.schema.json`. */
export interface Expansion {
  /** Keyword queries to run with BM25 (the first is usually the query itself). */
  lexicalQueries: string[];
  /** Queries to embed and run against the vectors. */
  vectorQueries: string[];
  /** A hypothetical answer passage to embed (HyDE), when the expander writes one. */
  hyde?: string;
  /** The query's language, when the expander recognised it. */
  language?: string;
}

/** Read-only view of the index vocabulary, given to expanders. */
export interface Vocabulary {
  /** Number of passages containing the index term (0 when absent). */
  documentFrequency(term: string): number;
  /** Index terms within `maxEdits` edits of `term`, most frequent first. */
  similarTerms(term: string, maxEdits: number): string[];
  /** Languages of the indexed documents. */
  languages: readonly string[];
}

export interface ExpansionResult {
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

/**
 * One document given as data rather than read from a file (`indexDocuments`, and `PUT /documents`
 * of the target contract, which has the same fields).
 */
export interface DocumentInput {
  /** The document id: a path like `en/billing/refunds.md` (`ids: "paths"`) or a record key. */
  id: string;
  /** @default "" (a record without a title) */
  title?: string;
  text: string;
  /** BCP 47 tag. `null`: unknown, not detected; absent: detected from the title and text, as for a JSONL record. */
  language?: string | null;
  /** How `text` is split into passages: `markdown` at its headings (a `.md` file's body), `text` by paragraphs. @default "text" */
  format?: "markdown" | "text";
  /** Validity (see Validity in docs/engine.md): a date or ISO 8601 date-time, UTC unless it names an offset. */
  validFrom?: string;
  validUntil?: string;
  /** Ids of documents of the same collection this one replaces. */
  supersedes?: string[];
}

/**
 * What document ids are: `paths` of a folder's files, whose words are searchable as for
 * `index(folder)` (`billing/refunds` matches `refunds`), or `keys` of records, which are not
 * (as for a JSONL corpus).
 */
export type DocumentIds = "paths" | "keys";

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
export type Preset = "slim" | "balanced" | "quality";
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

export interface AskSource {
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
}

export interface Citation {
  ref: number;
  docId: string;
  passageId: string;
}

export interface AskResult {
  question: string;
  /** The answer, the refusal sentence when refused, "" when the answerer failed. */
  answer: string;
  refused: boolean;
  /** Why it refused: too little evidence (decided before any model), no supporting sentence (extractive), or the model. */
  refusal?: "insufficient-evidence" | "no-supporting-sentence" | "model";
  citations: Citation[];
  /** [n] references in the answer that point to no source. */
  invalidCitations: number[];
  sources: AskSource[];
  /** Who wrote the answer: `offline/extractive-v1` or `provider/model`. */
  answerer: string;
  /** The preset asked for; null when answered offline (no model for it). */
  preset: Preset | null;
  evidence: { coverage: number; threshold: number; sufficient: boolean; bestRef: number | null };
  /** Source sentences that read as instructions to an assistant (never used as answer text). */
  flagged: Array<{ ref: number; sentence: string }>;
  /**
   * How the answer model answered: `structured` (it said itself whether it refuses, in any
   * language) or `text` (free text, from a server that cannot answer in JSON: `refused` then only
   * recognises the prompt's English refusal sentence). Absent when no model wrote the answer
   * (extractive, or refused on evidence).
   */
  answerFormat?: "structured" | "text";
  /** Set when the answer model failed; the answer is then empty, never a made-up refusal. */
  error?: string;
  trace: TraceStage[];
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

/** One call of a tool within a step. */
export interface TurnToolCall {
  id: string;
  name: string;
  input: unknown;
  /** What the tool returned; present when `status` is `done`. */
  output?: unknown;
  /** Why it failed, one line; present when `status` is `error`. */
  error?: string;
  /**
   * `done`; `error` (the tool threw, or the call named a tool or an input the surface does not
   * take); `awaiting-approval` (a tool that needs approval: never run within the turn).
   */
  status: "done" | "error" | "awaiting-approval";
  needsApproval: boolean;
  /** How long the tool ran (0 for a call that never ran). */
  durationMs: number;
}

/** One step of the loop: a model call, the text it wrote and the tools it called, in order. */
export interface TurnStep {
  /** 1-based. */
  index: number;
  toolCalls: TurnToolCall[];
  text: string;
  finishReason: string;
  /** Why the step did what it did, when the agent says so (its reasoning; the offline policy names its rule). */
  note?: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
}

/** A document the answer cites: surfaced when a tool's output in the turn returned it (with a quote: the quoted words in its text). */
export interface TurnCitation {
  docId: string;
  quote?: string;
  surfaced: boolean;
  /** The call that surfaced it: its step and position within the step, 1-based. */
  match?: { step: number; call: number };
}

/** How a turn ended (see the target contract's turn.ts). */
export type TurnOutcome = "answered" | "refused" | "stopped-at-approval" | "step-limit" | "budget-exhausted" | "error";

export interface TurnResult {
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
  /** Set when outcome is `error`: what failed, one line. */
  error?: string;
  elapsedMs: number;
}
