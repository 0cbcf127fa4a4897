/**
 * The engine: one SQLite index, searched by BM25 (`search`), by vectors (`vsearch`), or by a
 * hybrid tier (`query`), and answering questions from it (`ask`). Every call returns ranked
 * documents and a trace with one entry per stage.
 *
 * A facade: each method checks nothing and computes nothing itself but hands its core (core.ts)
 * to the module that does the work, listed here in one place:
 *   index, indexDocuments   store/indexer.ts (options: options/call-options.ts)
 *   search, vsearch, query  pipeline/run.ts: the tiers as compositions of stages (pipeline/tiers.ts)
 *   expand                  pipeline/stages/expansion.ts
 *   ask                     answer/ask.ts
 *   turn                    agent/turn.ts
 *   fingerprint, stats      store/fingerprint.ts
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { turn } from "./agent/turn.js";
import { ask } from "./answer/ask.js";
import { closeEngineCore, type EngineCore, indexerContext, openEngineCore } from "./core.js";
import type { ChunkerConfig } from "./ingest/chunk.js";
import { sourceFromDocuments } from "./ingest/documents.js";
import { checkOptions } from "./options/check.js";
import { checkIndexDocumentsOptions, checkText, type OpenEngineOptions } from "./options/call-options.js";
import { query, search, vsearch } from "./pipeline/run.js";
import { expandQuery } from "./pipeline/stages/expansion.js";
import { type IndexStats, indexFingerprint, indexStats } from "./store/fingerprint.js";
import { indexRead, indexSource } from "./store/indexer.js";
import { type AnalyzerConfig, usedQueryText } from "./text/analyze.js";
import type {
  AskOptions,
  AskResult,
  CallPolicy,
  Document,
  EmbeddingModel,
  ExpansionResult,
  HybridConfig,
  IndexDocumentsOptions,
  IndexFingerprint,
  IndexOptions,
  IndexReport,
  IndexWorkerMode,
  Preset,
  QueryExpander,
  QueryOptions,
  RerankingModel,
  SearchOptions,
  SearchResult,
  TurnOptions,
  TurnResult,
} from "./types.js";

export class Engine {
  readonly file: string;
  readonly embedder: EmbeddingModel;
  readonly reranker: RerankingModel;
  readonly expander: QueryExpander;
  readonly analyzer: AnalyzerConfig;
  readonly chunker: ChunkerConfig;
  readonly hybrid: HybridConfig;
  readonly languageModels: Partial<Record<Preset, LanguageModelV3>>;
  /** Limits of every model call: answers, embeddings, reranking. */
  readonly modelLimits: CallPolicy;
  /** Where an index run prepares its passages (`EngineOptions.indexWorker`). */
  readonly indexWorker: IndexWorkerMode;
  readonly #core: EngineCore;

  private constructor(core: EngineCore) {
    this.#core = core;
    ({
      file: this.file,
      embedder: this.embedder,
      reranker: this.reranker,
      expander: this.expander,
      analyzer: this.analyzer,
      chunker: this.chunker,
      hybrid: this.hybrid,
      languageModels: this.languageModels,
      modelLimits: this.modelLimits,
      indexWorker: this.indexWorker,
    } = core);
  }

  /** Opens (or, with `create`, creates) the index at `file`. Throws EngineError when it cannot. */
  static open(file: string, options: OpenEngineOptions = {}): Engine {
    return new Engine(openEngineCore(file, options));
  }

  /** Indexes a folder of Markdown/text files or a JSONL corpus into one collection. */
  async index(location: string, options: IndexOptions = {}): Promise<IndexReport> {
    checkOptions(options, ["collection", "onMessage"], "index");
    try {
      return await indexSource(indexerContext(this.#core), location, options);
    } finally {
      this.#core.index.changed();
    }
  }

  /**
   * Indexes documents given as data into `options.collection`, which holds exactly these afterwards
   * (unchanged ones are skipped, missing ones removed; none removes the collection). Checked as a
   * source of files is, before anything is written; one transaction, as `index`.
   */
  async indexDocuments(documents: readonly Document[], options: IndexDocumentsOptions): Promise<IndexReport> {
    const { collection, ids } = checkIndexDocumentsOptions(options);
    const started = performance.now();
    const source = sourceFromDocuments(documents, ids, "documents");
    const { onMessage } = options;
    try {
      return await indexRead(indexerContext(this.#core), source, { collection, ...(onMessage ? { onMessage } : {}) }, started);
    } finally {
      this.#core.index.changed();
    }
  }

  /** BM25 search. Synchronous: no model is involved. */
  search(text: string, options: SearchOptions = {}): SearchResult {
    return search(this.#core, text, options);
  }

  /** Vector search with the engine's embedder. */
  vsearch(text: string, options: SearchOptions = {}): Promise<SearchResult> {
    return vsearch(this.#core, text, options);
  }

  /** Hybrid query at a tier (default balanced). */
  query(text: string, options: QueryOptions = {}): Promise<SearchResult> {
    return query(this.#core, text, options);
  }

  /**
   * Answers a question from the index, citing sources as [n]. Retrieval first (a hybrid tier), then
   * an evidence check that decides, before any model is called, whether the sources can answer at
   * all; then the preset's answerer: its language model, or the offline extractive answerer when
   * there is none. Never throws for a model failure: the result then has `error` and an empty answer.
   */
  ask(question: string, options: AskOptions = {}): Promise<AskResult> {
    return ask(this.#core, question, options);
  }

  /**
   * Answers a question as an agent: a tool loop (search, read_document, catalog, and
   * file_correction, which needs approval and stops the turn) driven by the preset's language
   * model, or by the offline policy when the preset has none; a step cap and a token budget always
   * apply. Returns the turn trace. Never throws for a model failure: the outcome is then `error`.
   */
  turn(question: string, options: TurnOptions = {}): Promise<TurnResult> {
    return turn(this.#core, question, options);
  }

  /**
   * Expands a query with the engine's expander against this index's vocabulary, as the thorough
   * tier does. Never throws for an expander failure: the result then holds the query unexpanded and
   * a `fallback` with the reason.
   */
  async expand(text: string, options: { headers?: Record<string, string> } = {}): Promise<ExpansionResult> {
    checkOptions(options, ["headers"], "expand");
    return expandQuery(this.#core, this.#core.index.state(), usedQueryText(checkText(text)), options.headers);
  }

  /** What identifies this index's behaviour; equal fingerprints mean comparable runs. */
  fingerprint(): IndexFingerprint {
    return indexFingerprint(this.#core.db, this.#core.analyzer, this.#core.embedder);
  }

  /** Collections, languages and sizes of the index. */
  stats(): IndexStats {
    return indexStats(this.#core.db, this.#core.file, this.#core.analyzer);
  }

  close(): void {
    closeEngineCore(this.#core);
  }
}
