/**
 * The contract's messages as TypeScript types, one per definition of schemas/target.schema.json
 * and named as it names them. The schema decides (requests and responses are checked against it,
 * validate.ts); these types say the same for the code on either side of a call, and a field added
 * to one is added to the other in the same change. docs/targets.md explains each message.
 */
import type { CONTRACT_MODES } from "./messages.js";

/**
 * How a target ranks: `search` lexical (BM25), `vsearch` vectors, `fast`, `balanced`, `thorough`
 * the hybrid tiers (docs/engine.md#hybrid-tiers). A target lists the modes it serves in /health.
 * @example "balanced"
 */
export type Mode = (typeof CONTRACT_MODES)[number];

/**
 * An instant: `YYYY-MM-DD` or an ISO 8601 date-time, UTC unless it names an offset; 10–64 characters.
 * @example "2024-03-01"
 */
export type Instant = string;

/** `POST /search`. No other field is allowed. */
export interface SearchRequest {
  /** The query text, at most 100,000 characters; may be empty. @example "how do I cancel my subscription" */
  query: string;
  mode: Mode;
  /** Results wanted, 1–10000. @example 10 */
  limit: number;
  /** Only documents of this collection; 1–200 characters. */
  collection?: string;
  /** Only documents in this language: a BCP 47 tag of 1–35 characters. @example "de" */
  language?: string;
  /** Items per ranked list the trace keeps, 0–1000 (a target may ignore it). */
  traceDepth?: number;
  /** The instant document validity is evaluated at instead of now (docs/engine.md#validity); a target without validity ignores it. */
  asOf?: Instant;
  /** Also return documents that are superseded or outside their validity window at the instant, each marked `validity.stale`. @default false */
  includeSuperseded?: boolean;
}

/** A result's validity at the call's instant: present for a document that declares validity or is superseded by one that does. */
export interface Validity {
  /** From when the document is valid (inclusive), as it declares it. @example "2024-01-01" */
  validFrom?: string;
  /** Until when the document is valid (exclusive), as it declares it. */
  validUntil?: string;
  /** Ids this document replaces. Absent: read as none. */
  supersedes?: string[];
  /** Ids of the documents that directly replace this one. Absent: read as none. */
  supersededBy?: string[];
  /** Superseded or outside its window at the instant (returned only with `includeSuperseded`). */
  stale: boolean;
  /** Why it is stale, in words. @example "superseded by en/b.md" */
  reason?: string;
}

/** One result of a search, best first. */
export interface Hit {
  /** The dataset's document id (what the judgments name); not empty. @example "en/billing/refunds.md" */
  docId: string;
  /** The target's score; the suite takes `results` in the order given, not by score. */
  score: number;
  /** The passage that matched, when the target ranks passages. @example "en/billing/refunds.md#2" */
  passageId?: string;
  /** Text to show for the hit; the suite does not grade it. */
  snippet?: string;
  title?: string;
  validity?: Validity;
}

/** The answer to `POST /search`. Fields beyond these are allowed and ignored. */
export interface SearchResponse {
  /** Best first, at most 10,000. */
  results: Hit[];
  /** Time the target spent on the call (server side), in ms, ≥ 0. */
  elapsedMs?: number;
  trace?: Trace;
}

/** A compact ranked list's entry inside a trace stage. */
export interface TraceItem {
  docId: string;
  passageId?: string;
  score: number;
  /** 1-based. */
  rank: number;
  /** Stage-specific numbers (ranks per fused list, the scores behind a final score). */
  detail?: Record<string, number>;
}

/** The stages the suite reads by name: the diagnosis ("lost at") and the UI's stage views. */
export type KnownTraceStageName =
  | "validity"
  | "bm25"
  | "vector"
  | "fusion"
  | "rerank"
  | "expansion"
  | "feedback"
  | "evidence"
  | "generation";

/**
 * A stage's name: one the suite knows, or a stage of the target's own pipeline (a system composes
 * its own stages), shown in the trace as it is and not read by the diagnosis.
 */
export type TraceStageName = KnownTraceStageName | (string & {});

/**
 * One stage of the engine's stage trace (docs/engine.md#traces). Ranked stages (bm25, vector,
 * fusion, rerank) have a list of `TraceItem` as output; `validity`, when present, comes first.
 */
export interface TraceStage {
  stage: TraceStageName;
  /** What the stage was given (query text, list sizes, parameters). */
  input: Record<string, unknown>;
  /** A ranked list for bm25, vector, fusion and rerank; any object for the others (an expansion). */
  output: TraceItem[] | Record<string, unknown>;
  /** Epoch milliseconds, fractional. */
  start: number;
  /** Epoch milliseconds, fractional. */
  end: number;
  /** Anything the stage wants a reader to know (a fallback, a truncation). */
  note?: string;
}

/** The stages of one call, in the order they ran. */
export type Trace = TraceStage[];

/** Which language model answers: a cheaper or a dearer one (docs/engine.md#models). */
export type Preset = "slim" | "balanced" | "quality";

/** The hybrid tiers, fastest first (docs/engine.md#hybrid-tiers). */
export type Tier = "fast" | "balanced" | "thorough";

/** `POST /ask`. No other field is allowed. */
export interface AskRequest {
  /** 1–100,000 characters. */
  question: string;
  preset?: Preset;
  /** Sources to answer from, 1–100. */
  limit?: number;
  tier?: Tier;
  /** 1–200 characters. */
  collection?: string;
  /** A BCP 47 tag of 1–35 characters. */
  language?: string;
  asOf?: Instant;
  /** @default false */
  includeSuperseded?: boolean;
}

/** A `[ref]` the answer makes, and the document it names. */
export interface Citation {
  /** ≥ 1: the number in the answer's `[n]`. */
  ref: number;
  docId: string;
  passageId?: string;
}

/** A passage the answer was written from. */
export interface Source {
  /** ≥ 1. Absent: the source's position in `sources`, from 1. */
  ref?: number;
  docId: string;
  passageId?: string;
  title?: string;
  heading?: string;
  /** The passage the answer was written from; the RAG triad reads it. */
  text?: string;
  /** A BCP 47 tag, or null: unknown. */
  language?: string | null;
  score?: number;
  validity?: Validity;
}

/** The answer to `POST /ask`. Fields beyond these are allowed and ignored. */
export interface AskResponse {
  /** The answer; empty when `error` is set. */
  answer: string;
  citations: Citation[];
  refused: boolean;
  sources: Source[];
  /** Set when the answer could not be written (a model failed); the answer is then empty. */
  error?: string;
  /** Who wrote the answer. @example "offline/extractive-v1" */
  answerer?: string;
  /** ≥ 0, in ms. */
  elapsedMs?: number;
  trace?: Trace;
  /** The question answered, when the target echoes it. */
  question?: string;
  /**
   * Why it refused, when the target says: too little evidence (decided before any model wrote), no
   * supporting sentence (an extractive answerer), or the model itself.
   */
  refusal?: "insufficient-evidence" | "no-supporting-sentence" | "model";
  /** The `[n]` the answer makes that name no source, when the target counts them; absent, the suite counts them from `answer` and `sources`. */
  invalidCitations?: number[];
  /** The preset asked for; null when no model of it wrote the answer (offline). */
  preset?: Preset | null;
  /** What the target's evidence gate measured before answering, when it has one. */
  evidence?: Evidence;
  /** Source sentences that read as instructions to an assistant (never used as answer text). */
  flagged?: Array<{ ref: number; sentence: string }>;
  /**
   * How the answer model answered: `structured` (it said itself whether it refuses, in any
   * language) or `text` (free text). Absent when no model wrote the answer.
   */
  answerFormat?: "structured" | "text";
}

/** An evidence gate's measurement: the best source's share of the question's content (`coverage`) against the bar. */
export interface Evidence {
  /** ≥ 0. */
  coverage: number;
  /** ≥ 0: below it the target refuses without asking a model. */
  threshold: number;
  sufficient: boolean;
  /** The source that covered most, or null when none did. */
  bestRef: number | null;
}

/** `POST /expand`. No other field is allowed. */
export interface ExpandRequest {
  /** At most 100,000 characters. */
  query: string;
}

/** The answer to `POST /expand`. */
export interface ExpandResponse {
  /** The queries a thorough search runs; further fields (e.g. `hyde`, `language`) are allowed. */
  expansion: { lexicalQueries: string[]; vectorQueries: string[]; [field: string]: unknown };
  /** Which expander produced it. @example "deterministic-v1" */
  expander: string;
  /** Set when the expander failed and the query ran unexpanded. */
  fallback?: { reason: string; [field: string]: unknown };
}

/** What a target can do (`GET /health`); a mode, ask or expand it lacks is never asked for. No other field is allowed. */
export interface Capabilities {
  /** No mode twice. */
  modes: Mode[];
  ask: boolean;
  expand: boolean;
  /** Whether PUT /documents and DELETE /documents seed and remove a collection (and POST /search and /ask take `collection`). */
  documents: boolean;
  /** Whether responses carry the stage trace. */
  trace: boolean;
  /** Whether `POST /turn` answers agent turns (turn.ts). @default false */
  turn?: boolean;
}

/**
 * What the target has indexed: a string, or an object with at least `corpusHash`; equal
 * fingerprints mean comparable runs.
 * @example "es-docs:5183"
 */
export type Fingerprint = string | { corpusHash: string };

/** The largest request bodies a target accepts, in bytes (each ≥ 1). */
export interface Limits {
  bodyBytes?: number;
  /** @default DEFAULT_DOCUMENTS_BYTES (64 MiB), when a target names none */
  documentsBytes?: number;
}

/** The answer to `GET /health`. */
export interface HealthResponse {
  /** Not empty. @example "hybrid-search-engine" */
  name: string;
  version: string;
  fingerprint: Fingerprint;
  capabilities: Capabilities;
  limits?: Limits;
}

/** One document as the engine's readers read it from a file or a JSONL record. No other field is allowed. */
export interface Document {
  /** The dataset's document id (the judgments name it), 1–1000 characters. @example "en/billing/refunds.md" */
  id: string;
  title?: string;
  /** The body (a Markdown file without its front matter). */
  text: string;
  /** A BCP 47 tag of at most 35 characters; null: unknown, not to be guessed; absent: the target may detect it. */
  language?: string | null;
  /** How `text` splits into passages: `markdown` at its headings, `text` by paragraphs. @default "text" */
  format?: "markdown" | "text";
  validFrom?: Instant;
  validUntil?: Instant;
  /** Ids of documents of the same collection this one replaces; none empty. */
  supersedes?: string[];
}

/**
 * What document ids are: `paths`, a folder's file paths, whose words are searchable
 * (`en/billing/refunds.md` matches `refunds`); `keys`, opaque record ids.
 */
export type DocumentIds = "paths" | "keys";

/** `PUT /documents`: the collection's documents afterwards are exactly these (a seed is idempotent). No other field is allowed. */
export interface DocumentsRequest {
  /** 1–200 characters. */
  collection: string;
  /** @default "keys" */
  ids?: DocumentIds;
  /** At least one. */
  documents: Document[];
}

/** The answer to `PUT /documents` and `DELETE /documents?collection=…`. */
export interface DocumentsResponse {
  collection: string;
  /** Documents the collection holds afterwards, ≥ 0 (0 after a DELETE). */
  documents: number;
  /** What the target has indexed afterwards, as /health gives it. */
  fingerprint?: unknown;
}

/** Any non-2xx answer. No other field is allowed, in it or in `error`. */
export interface ErrorResponse {
  error: {
    /** Upper case, digits and `_`, starting with a letter. @example "BAD_REQUEST" */
    code: string;
    /** One line, at most 1000 characters. */
    message: string;
  };
}
