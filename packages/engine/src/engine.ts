/**
 * The engine: one SQLite index, searched by BM25 (`search`), by vectors (`vsearch`), or by a
 * hybrid tier (`query`). Every call returns ranked documents and a trace with one entry per stage.
 *
 * Tiers do different work:
 * - fast:      BM25 only.
 * - balanced:  BM25 and vectors, fused (convex combination of normalized scores), then the top
 *              `rerankDepth` candidates reranked.
 * - thorough:  the query expanded first (deterministic expander offline, a model when configured);
 *              BM25 for every distinct lexical query, vectors for every distinct vector query
 *              (and HyDE passage), a first fusion; when the query's language is known and the
 *              first pass's top documents are all in it, RM3 and Rocchio feedback replace the
 *              original query's BM25 and vector lists; fused again, then `thoroughRerankDepth`
 *              candidates reranked against the original query. See docs/engine.md, Hybrid tiers.
 */
import { aiSdk } from "./ai-sdk.js";
import { createHash } from "node:crypto";
import { callWithPolicy, checkCallPolicy, DEFAULT_CALL_POLICY } from "./call-policy.js";
import { EngineError, errorLine, quoteInput } from "./errors.js";
import { defaultEmbedder, defaultVectorWeight, embedderId, embedTexts } from "./embed/embedder.js";
import { DEFAULT_CHUNKER, validateChunker, type ChunkerConfig } from "./ingest/chunk.js";
import { baseLanguage } from "./ingest/language-path.js";
import { Bm25Retriever, prepareLexicalQuery, type DocCandidate, type LexicalQuery } from "./retrieval/bm25.js";
import { DeterministicExpander } from "./retrieval/deterministic-expander.js";
import { HeuristicReranker, type OfflineRerankOptions, type RerankDocument } from "./retrieval/heuristic-reranker.js";
import { byScoreThenDocIdDesc } from "./retrieval/order.js";
import { convexFusion, familyWeights, type FusedCandidate, type RankedList } from "./retrieval/fusion.js";
import { expandedQuery, languageMismatch, relevanceModel, rocchioVector, type FeedbackDocument } from "./retrieval/feedback.js";
import { reciprocalRankFusion } from "./retrieval/rrf.js";
import { makeSnippet } from "./retrieval/snippet.js";
import { VectorIndex } from "./retrieval/vector.js";
import { describeStale, ValidityGraph, type StaleReason } from "./retrieval/validity.js";
import { parseInstant } from "./ingest/validity.js";
import { Catalog } from "./store/catalog.js";
import { openIndex, sqliteFailure, type Db } from "./store/database.js";
import { type IndexerContext, indexRead, indexSource, passageBody } from "./store/indexer.js";
import { INDEX_WORKER_MODES } from "./store/prepare-thread.js";
import { sourceFromDocuments } from "./ingest/documents.js";
import { readMeta } from "./store/meta.js";
import { SCHEMA_VERSION } from "./store/schema.js";
import { IndexVocabulary } from "./store/vocabulary.js";
import { analyzerId, buildMatchExpression, MAX_QUERY_CHARS, resolveAnalyzer, usedQueryText, type AnalyzerConfig } from "./text/analyze.js";
import type { Answerer } from "./answer/answerer.js";
import { citedRefs, REFUSAL } from "./answer/citations.js";
import { checkEvidence, evidenceNote } from "./answer/evidence.js";
import { ExtractiveAnswerer } from "./answer/extractive.js";
import { ModelAnswerer } from "./answer/model-answerer.js";
import { chooseSources, flaggedSentences, type StoredPassage } from "./answer/sources.js";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type {
  AskOptions,
  AskResult,
  CallPolicy,
  DocumentInput,
  EmbeddingModel,
  EngineOptions,
  Expansion,
  ExpansionResult,
  Hit,
  HitValidity,
  HybridConfig,
  IndexDocumentsOptions,
  IndexFingerprint,
  IndexOptions,
  IndexReport,
  IndexWorkerMode,
  QueryExpander,
  QueryOptions,
  RerankingModel,
  SearchOptions,
  SearchResponse,
  TraceItem,
  TraceStage,
} from "./types.js";
import { OFFLINE_PROVIDER, PRESETS, type Preset, TIERS } from "./types.js";

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

/** Longest text sent to an embedding model for a query; longer queries are cut (and the trace says so). */
const MAX_EMBED_QUERY_CHARS = 8000;
/** Items per ranked list kept in a trace, unless a call asks for more. */
const TRACE_DEPTH = 20;

export interface OpenEngineOptions extends EngineOptions {
  /** Create an empty index when the file does not exist (for indexing). @default false */
  create?: boolean;
}

interface State {
  key: string;
  catalog: Catalog;
  vocabulary: IndexVocabulary;
  vectors?: VectorIndex;
  validity?: ValidityGraph;
}

const now = (): number => performance.timeOrigin + performance.now();

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
  private readonly db: Db;
  /** The lexical scorer behind sources and evidence of `ask()` (the heuristic reranker's features), whatever reranks. */
  private readonly lexicalScorer: HeuristicReranker;
  private readonly answerers: Partial<Record<Preset, Answerer>>;
  private readonly extractive: Answerer;
  private readonly bm25: Bm25Retriever;
  private readonly passageText;
  private generation = 0;
  private current: State | undefined;

  private constructor(file: string, db: Db, options: EngineOptions) {
    this.file = file;
    this.db = db;
    this.embedder = options.embedder ?? defaultEmbedder();
    ({ analyzer: this.analyzer, chunker: this.chunker, hybrid: this.hybrid } = resolveParameters(options, this.embedder));
    this.lexicalScorer = new HeuristicReranker(this.analyzer);
    this.reranker = options.reranker ?? this.lexicalScorer;
    this.expander = options.expander ?? new DeterministicExpander(this.analyzer);
    this.languageModels = { ...options.languageModels };
    this.answerers = {};
    for (const preset of PRESETS) {
      const model = this.languageModels[preset];
      if (model) this.answerers[preset] = new ModelAnswerer(model);
    }
    this.extractive = new ExtractiveAnswerer(this.lexicalScorer);
    this.modelLimits = { ...(options.modelLimits ?? DEFAULT_CALL_POLICY) };
    this.indexWorker = options.indexWorker ?? "auto";
    this.bm25 = new Bm25Retriever(db, this.hybrid.columnWeights);
    this.passageText = db.prepare("SELECT heading, text FROM passages WHERE id = ?");
  }

  /** Opens (or, with `create`, creates) the index at `file`. Throws EngineError when it cannot. */
  static open(file: string, options: OpenEngineOptions = {}): Engine {
    checkOptions(
      options,
      [
        "create",
        "embedder",
        "reranker",
        "expander",
        "languageModels",
        "modelLimits",
        "analyzer",
        "chunker",
        "hybrid",
        "busyTimeoutMs",
        "indexWorker",
      ],
      "Engine.open",
    );
    if (typeof file !== "string" || file === "") throw new TypeError(`Expected the index path to be a non-empty string`);
    const busyTimeoutMs = options.busyTimeoutMs ?? 2000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
      throw new RangeError(`Expected "busyTimeoutMs" to be a non-negative integer, got ${busyTimeoutMs}`);
    if (options.modelLimits !== undefined) checkCallPolicy(options.modelLimits, "modelLimits");
    if (options.indexWorker !== undefined && !INDEX_WORKER_MODES.includes(options.indexWorker))
      throw new RangeError(
        `Expected "indexWorker" to be one of ${INDEX_WORKER_MODES.join(", ")}, got ${JSON.stringify(options.indexWorker)}`,
      );
    // Check every parameter before a file is created: a typo must not leave an empty index behind.
    resolveParameters(options, options.embedder ?? defaultEmbedder());
    const db = openIndex(file, { create: options.create ?? false, busyTimeoutMs });
    try {
      return new Engine(file, db, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Indexes a folder of Markdown/text files or a JSONL corpus into one collection. */
  async index(location: string, options: IndexOptions = {}): Promise<IndexReport> {
    checkOptions(options, ["collection", "onMessage"], "index");
    try {
      return await indexSource(this.indexerContext(), location, options);
    } finally {
      this.generation++;
    }
  }

  /**
   * Indexes documents given as data into `options.collection`, which holds exactly these afterwards
   * (unchanged ones are skipped, missing ones removed; none removes the collection). Checked as a
   * source of files is, before anything is written; one transaction, as `index`.
   */
  async indexDocuments(documents: readonly DocumentInput[], options: IndexDocumentsOptions): Promise<IndexReport> {
    checkOptions(options, ["collection", "ids", "onMessage"], "indexDocuments");
    const { collection, ids = "keys", onMessage } = options;
    if (typeof collection !== "string" || collection.trim() === "")
      throw new TypeError(`Expected "collection" to be a non-empty string, got ${JSON.stringify(collection)}`);
    if (ids !== "paths" && ids !== "keys") throw new RangeError(`Expected "ids" to be "paths" or "keys", got ${JSON.stringify(ids)}`);
    const started = performance.now();
    const source = sourceFromDocuments(documents, ids, "documents");
    try {
      return await indexRead(this.indexerContext(), source, { collection, ...(onMessage ? { onMessage } : {}) }, started);
    } finally {
      this.generation++;
    }
  }

  private indexerContext(): IndexerContext {
    return {
      db: this.db,
      file: this.file,
      analyzer: this.analyzer,
      chunker: this.chunker,
      embedder: this.embedder,
      modelLimits: this.modelLimits,
      indexWorker: this.indexWorker,
    };
  }

  /** BM25 search. Synchronous: no model is involved. */
  search(text: string, options: SearchOptions = {}): SearchResponse {
    const started = now();
    const asked = searchOptions(options, "search");
    const state = this.checkedState(asked);
    const trace: TraceStage[] = [];
    const opts = this.validityStage(state, asked, trace);
    const lexical = this.lexicalQuery(state, usedQueryText(checkText(text)));
    const items = this.bm25Stage(state, lexical, text, opts.limit, opts, trace, "bm25");
    return this.respond(text, "search", state, items, lexical, opts, trace, started);
  }

  /** Vector search with the engine's embedder. */
  async vsearch(text: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const started = now();
    const asked = searchOptions(options, "vsearch");
    const state = this.checkedState(asked);
    const trace: TraceStage[] = [];
    const opts = this.validityStage(state, asked, trace);
    const used = usedQueryText(checkText(text));
    const [vectorList] = await this.vectorStage(state, [used], opts.limit, opts, trace);
    const vectorItems = vectorList?.items;
    const lexical = this.lexicalQuery(state, used);
    return this.respond(text, "vsearch", state, vectorItems ?? [], lexical, opts, trace, started);
  }

  /** Hybrid query at a tier (default balanced). */
  async query(text: string, options: QueryOptions = {}): Promise<SearchResponse> {
    const started = now();
    const { tier = "balanced", ...rest } = options;
    if (!TIERS.includes(tier)) throw new RangeError(`Expected "tier" to be one of ${TIERS.join(", ")}, got ${JSON.stringify(tier)}`);
    const asked = searchOptions(rest, "query");
    const state = this.checkedState(asked);
    const trace: TraceStage[] = [];
    const opts = this.validityStage(state, asked, trace);
    // Analysis, expansion, embedding and reranking see at most MAX_QUERY_CHARS: bounded cost.
    const used = usedQueryText(checkText(text));
    const lexical = this.lexicalQuery(state, used);
    const h = this.hybrid;

    if (tier === "fast") {
      const items = this.bm25Stage(state, lexical, text, opts.limit, opts, trace, "bm25");
      return this.respond(text, tier, state, items, lexical, opts, trace, started);
    }

    // Every list as deep as the results asked for, so fusion can fill `limit`.
    const depth = Math.max(h.candidates, opts.limit);
    let rerankDepth = h.rerankDepth;
    const vectorQueries = [used];
    const lexicalQueries: Array<{ name: string; query: LexicalQuery; text: string; weight: number }> = [
      { name: "bm25", query: lexical, text: used, weight: h.bm25Weight },
    ];
    if (tier === "thorough") {
      rerankDepth = h.thoroughRerankDepth;
      const expansion = await this.expansionStage(state, used, trace);
      const seenMatch = new Set([lexical.match]);
      expansion.lexicalQueries.forEach((q, i) => {
        const prepared = this.lexicalQuery(state, usedQueryText(q));
        if (seenMatch.has(prepared.match) || prepared.match === "") return;
        seenMatch.add(prepared.match);
        lexicalQueries.push({ name: `bm25:expansion ${i + 1}`, query: prepared, text: q, weight: h.bm25Weight * h.expansionWeight });
      });
      for (const q of [...expansion.vectorQueries, ...(expansion.hyde ? [expansion.hyde] : [])]) {
        const cut = usedQueryText(q);
        if (cut.trim() !== "" && !vectorQueries.includes(cut)) vectorQueries.push(cut);
      }
    }
    const lists: RankedList[] = [];
    const lexicalWeights = familyWeights(h.bm25Weight, lexicalQueries.length - 1, h.expansionWeight);
    lexicalQueries.forEach((lq, i) => {
      const weight = i === 0 ? lexicalWeights.original : lexicalWeights.variant;
      lists.push({ name: lq.name, weight, items: this.bm25Stage(state, lq.query, lq.text, depth, opts, trace, lq.name) });
    });
    const vectorLists = await this.vectorStage(state, vectorQueries, depth, opts, trace);
    const vectorWeights = familyWeights(h.vectorWeight, vectorLists.length - 1, h.expansionWeight);
    vectorLists.forEach(({ items }, i) => {
      lists.push({
        name: i === 0 ? "vector" : `vector:expansion ${i}`,
        weight: i === 0 ? vectorWeights.original : vectorWeights.variant,
        items,
      });
    });

    if (tier === "thorough" && h.feedbackDocs > 0 && lexical.terms.length > 0) {
      // The first pass is only the feedback's evidence; the trace shows it in the feedback stage.
      const feedback = this.feedbackStage(state, lexical, used, this.fuse(lists), vectorLists[0]?.vector, depth, opts, trace);
      // Each expanded query holds the original one: it takes the original list's place and weight.
      const vectorAt = lexicalQueries.length;
      if (feedback.bm25) lists[0] = { name: "bm25:feedback", weight: lists[0]!.weight, items: feedback.bm25 };
      if (feedback.vector) lists[vectorAt] = { name: "vector:feedback", weight: lists[vectorAt]!.weight, items: feedback.vector };
    }
    const fused = this.fusionStage(lists, opts.traceDepth, trace);
    const reranked = await this.rerankStage(state, used, fused, Math.max(rerankDepth, opts.limit), opts.traceDepth, trace);
    return this.respond(text, tier, state, reranked, lexical, opts, trace, started);
  }

  /**
   * Answers a question from the index, citing sources as [n]. Retrieval first (a hybrid tier), then
   * an evidence check that decides, before any model is called, whether the sources can answer at
   * all; then the preset's answerer: its language model, or the offline extractive answerer when
   * there is none. Never throws for a model failure: the result then has `error` and an empty answer.
   */
  async ask(question: string, options: AskOptions = {}): Promise<AskResult> {
    const started = now();
    checkOptions(
      options,
      ["preset", "limit", "tier", "collection", "language", "asOf", "includeSuperseded", "evidenceThreshold", "headers", "timeoutMs"],
      "ask",
    );
    checkText(question);
    const {
      preset = "balanced",
      tier = "balanced",
      evidenceThreshold,
      headers,
      timeoutMs = this.modelLimits.timeoutMs,
      limit = 5,
      ...filters
    } = options;
    if (!PRESETS.includes(preset))
      throw new RangeError(`Expected "preset" to be one of ${PRESETS.join(", ")}, got ${JSON.stringify(preset)}`);
    const policy = { ...this.modelLimits, timeoutMs };
    checkCallPolicy(policy, "ask");
    const answerer = this.answerers[preset] ?? this.extractive;
    const threshold = evidenceThreshold ?? answerer.evidenceThreshold;
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`Expected "evidenceThreshold" to be between 0 and 1, got ${threshold}`);

    const retrieval = await this.query(question, { ...filters, limit, tier });
    const trace = [...retrieval.trace];
    const scoring = this.rerankScoring(this.state());
    const passagesOf = (hit: { collection: string; docId: string }): StoredPassage[] => this.documentPassages(hit.collection, hit.docId);
    const sources = chooseSources(question, retrieval.results, passagesOf, this.lexicalScorer, scoring);

    const evidenceStart = now();
    const check = checkEvidence(question, sources, this.lexicalScorer, scoring, threshold);
    trace.push({
      stage: "evidence",
      input: { question, method: "IDF-weighted share of the question's content terms in a source", threshold },
      output: sources.map((src, i) => ({ docId: src.docId, passageId: src.passageId, score: check.coverage[i]!, rank: src.ref })),
      start: evidenceStart,
      end: now(),
      note: evidenceNote(check),
    });
    const answeredBy = answerer === this.extractive ? null : preset;
    const finish = (answer: string, extra: Partial<AskResult> = {}, declared: readonly number[] = []): AskResult => {
      // The [n] in the text first, then any source a structured answer declares beyond them.
      const refs = [...new Set([...citedRefs(answer), ...declared])];
      const citations = refs
        .filter((r) => r >= 1 && r <= sources.length)
        .map((r) => ({ ref: r, docId: sources[r - 1]!.docId, passageId: sources[r - 1]!.passageId }));
      return {
        question,
        sources,
        evidence: check.evidence,
        flagged: flaggedSentences(sources),
        preset: answeredBy,
        answerer: answerer.id,
        answer,
        refused: false,
        citations,
        invalidCitations: refs.filter((r) => r < 1 || r > sources.length),
        ...extra,
        trace,
        elapsedMs: now() - started,
      };
    };
    if (!check.evidence.sufficient) return finish(REFUSAL, { refused: true, refusal: "insufficient-evidence" });

    const generationStart = now();
    const answer = await answerer.answer({ question, sources, scoring, policy, ...(headers ? { headers } : {}) });
    trace.push({
      stage: "generation",
      input: { ...answer.trace.input, ...(answeredBy ? { preset: answeredBy } : {}) },
      output: answer.trace.output,
      start: generationStart,
      end: now(),
      ...(answer.trace.note ? { note: answer.trace.note } : {}),
    });
    const format = answer.format ? { answerFormat: answer.format } : {};
    if (answer.error !== undefined) return finish("", { error: answer.error, ...format });
    return answer.refusal
      ? finish(answer.text, { refused: true, refusal: answer.refusal, citations: [], ...format })
      : finish(answer.text, format, answer.citations);
  }

  /** What identifies this index's behaviour; equal fingerprints mean comparable runs. */
  fingerprint(): IndexFingerprint {
    const meta = readMeta(this.db);
    const hash = createHash("sha256");
    for (const row of this.db
      .prepare("SELECT collection, path, content_hash FROM documents ORDER BY collection, path")
      .raw()
      .iterate() as IterableIterator<string[]>) {
      hash.update(`${row[0]}\u0000${row[1]}\u0000${row[2]}\n`);
    }
    const counts = this.db
      .prepare("SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM passages) AS passages")
      .get() as { documents: number; passages: number };
    const chunkers = this.db.prepare("SELECT DISTINCT chunker FROM documents ORDER BY chunker").pluck().all() as string[];
    return {
      schemaVersion: SCHEMA_VERSION,
      analyzer: meta.analyzer ?? analyzerId(this.analyzer),
      chunkers,
      embedder: meta.embedder ?? embedderId(this.embedder),
      dimensions: meta.dimensions ?? 0,
      corpusHash: hash.digest("hex"),
      documents: counts.documents,
      passages: counts.passages,
    };
  }

  /** Collections, languages and sizes of the index. */
  stats(): {
    collections: string[];
    languages: string[];
    documents: number;
    passages: number;
    embedder: string | null;
    dimensions: number | null;
    stale: string | null;
  } {
    // Works on an index built with another analyzer too: it is how a user finds out what they have.
    let catalog: Catalog;
    try {
      catalog = new Catalog(this.db);
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
    const meta = readMeta(this.db);
    const expected = analyzerId(this.analyzer);
    return {
      collections: catalog.collections,
      languages: catalog.languages,
      documents: catalog.documents.length,
      passages: catalog.passageDocument.size,
      embedder: meta.embedder ?? null,
      dimensions: meta.dimensions ?? null,
      stale:
        meta.analyzer !== undefined && meta.analyzer !== expected
          ? `built with ${meta.analyzer}; this engine analyzes text as ${expected}: run \`pnpm engine index\` again`
          : null,
    };
  }

  close(): void {
    this.current?.vectors?.dispose();
    this.db.close();
  }

  // ---- stages ----

  /**
   * Validity (retrieval/validity.ts): which documents are stale at the call's instant — `asOf`, or
   * now — and why. They are hidden from every list unless `includeSuperseded` keeps them (marked on
   * the hits). Runs, and appears in the trace, only when the index has documents that declare
   * validity or the call asks about it.
   */
  private validityStage(state: State, opts: SearchOptionsResolved, trace: TraceStage[]): SearchOptionsResolved {
    const asked = opts.asOf !== undefined || opts.includeSuperseded;
    if (state.catalog.declaringValidity.length === 0 && !asked) return opts;
    const start = now();
    state.validity ??= new ValidityGraph(state.catalog);
    const asOf = opts.asOf ?? Date.now();
    const stale = state.validity.staleAt(asOf);
    const scope = state.catalog.filter(opts);
    const listed = [...stale].filter(([d]) => scope === undefined || scope(d));
    const kinds = new Map<string, number>();
    for (const [, reason] of listed) kinds.set(reason.kind, (kinds.get(reason.kind) ?? 0) + 1);
    const counted = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(", ");
    const note =
      state.validity.temporal.length === 0
        ? "no document declares validity"
        : listed.length === 0
          ? "no document is stale at this instant"
          : opts.includeSuperseded
            ? `includeSuperseded: ${listed.length} stale document(s) kept and marked (${counted})`
            : `${listed.length} stale document(s) hidden (${counted})`;
    trace.push({
      stage: "validity",
      input: {
        asOf: new Date(asOf).toISOString(),
        instant: opts.asOf === undefined ? "now" : "asOf",
        includeSuperseded: opts.includeSuperseded,
        rule: "stale = outside [validFrom, validUntil) or superseded, directly or through a chain, by a document in force",
        documents: state.validity.temporal.length,
      },
      output: {
        [opts.includeSuperseded ? "marked" : "hidden"]: listed
          .slice(0, opts.traceDepth)
          .map(([d, reason]) => ({ docId: state.catalog.documents[d]!.docId, kind: reason.kind, reason: describeStale(reason) })),
        count: listed.length,
      },
      start,
      end: now(),
      note,
    });
    return { ...opts, stale };
  }

  /** The `validity` a hit carries: only for documents that declare validity or are superseded. */
  private hitValidity(state: State, opts: SearchOptionsResolved): (docIndex: number) => { validity?: HitValidity } {
    const graph = state.validity;
    if (graph === undefined || opts.stale === undefined) return () => ({});
    return (d) => {
      const declared = state.catalog.documents[d]!.validity;
      const supersededBy = graph.supersededBy(d);
      if (declared === undefined && supersededBy.length === 0) return {};
      const reason = opts.stale!.get(d);
      return {
        validity: {
          ...(declared?.validFrom !== undefined ? { validFrom: declared.validFrom } : {}),
          ...(declared?.validUntil !== undefined ? { validUntil: declared.validUntil } : {}),
          supersedes: declared?.supersedes ?? [],
          supersededBy,
          stale: reason !== undefined,
          ...(reason ? { reason: describeStale(reason) } : {}),
        },
      };
    };
  }

  /** The BM25 side of a query; a compound the index holds in no form falls back to its parts. */
  private lexicalQuery(state: State, text: string): LexicalQuery {
    return prepareLexicalQuery(text, state.catalog.languages, this.analyzer, (alternative) => state.vocabulary.occurs(alternative));
  }

  private fuse(lists: RankedList[]): FusedCandidate[] {
    return this.hybrid.fusion === "rrf" ? reciprocalRankFusion(lists, this.hybrid.rrfK) : convexFusion(lists);
  }

  private fusionStage(lists: RankedList[], traceDepth: number, trace: TraceStage[]): FusedCandidate[] {
    const start = now();
    const h = this.hybrid;
    const fused = this.fuse(lists);
    trace.push({
      stage: "fusion",
      input: {
        method: h.fusion === "rrf" ? "rrf" : "convex combination of min-max normalized scores",
        ...(h.fusion === "rrf" ? { k: h.rrfK } : {}),
        lists: lists.map((l) => ({ name: l.name, weight: l.weight, size: l.items.length })),
      },
      output: fused.slice(0, traceDepth).map((c, i) => ({ docId: c.docId, score: c.score, rank: i + 1, detail: c.ranks })),
      start,
      end: now(),
    });
    return fused;
  }

  /**
   * Pseudo-relevance feedback (retrieval/feedback.ts) from the first pass's top documents: RM3 for
   * BM25 (the original query plus the relevance model's best terms) and Rocchio for vectors (the
   * query vector moved towards the documents' best passages). Runs only when the query's language
   * is known and every feedback document is in it; either list is missing when it has nothing to
   * add (no feedback terms, no vectors, `feedbackVectorWeight` 0).
   */
  private feedbackStage(
    state: State,
    lexical: LexicalQuery,
    text: string,
    firstPass: FusedCandidate[],
    queryVector: Float32Array | undefined,
    depth: number,
    opts: SearchOptionsResolved,
    trace: TraceStage[],
  ): { bm25?: DocCandidate[]; vector?: DocCandidate[] } {
    const h = this.hybrid;
    const start = now();
    const top = firstPass.slice(0, h.feedbackDocs);
    const languageOf = (c: FusedCandidate): string | undefined => {
      const language = state.catalog.documents[c.docIndex]!.language;
      return language ? baseLanguage(language) : undefined;
    };
    const input = {
      method: "RM3 (BM25) and Rocchio (vectors)",
      firstPass: top.map((c, i) => ({ docId: c.docId, score: c.score, rank: i + 1, language: languageOf(c) ?? null })),
      queryLanguage: lexical.queryLanguage ?? null,
      terms: h.feedbackTerms,
      originalWeight: h.feedbackQueryWeight,
      vectorWeight: h.feedbackVectorWeight,
    };
    const mismatch = h.feedbackLanguageGate ? languageMismatch(lexical.queryLanguage, top.map(languageOf)) : undefined;
    if (mismatch !== undefined || top.length === 0) {
      const note = `no feedback: ${mismatch ?? "the first pass found nothing"}`;
      trace.push({ stage: "feedback", input, output: { terms: [] }, start, end: now(), note });
      return {};
    }
    const docs: FeedbackDocument[] = top.map((c) => {
      const row = this.passageText.get(c.passages[0]!) as { heading: string; text: string };
      return { text: passageBody(row.heading, row.text), language: languageOf(c), score: c.score };
    });
    const weighted = expandedQuery(lexical.terms, relevanceModel(docs, this.analyzer), {
      docs: h.feedbackDocs,
      terms: h.feedbackTerms,
      originalWeight: h.feedbackQueryWeight,
    });
    const added = weighted.filter((t) => t.feedback);
    const vectors = queryVector && h.feedbackVectorWeight > 0 ? this.vectorIndex(state) : undefined;
    const docVectors = vectors ? top.flatMap((c) => vectors.passageVector(c.passages[0]!) ?? []) : [];
    trace.push({
      stage: "feedback",
      input,
      output: {
        terms: weighted.map((t) => ({
          alternatives: t.alternatives.map((a) => a.join(" ")),
          weight: t.weight,
          repeats: t.repeats,
          feedback: t.feedback,
        })),
        vectorDocuments: docVectors.length,
      },
      start,
      end: now(),
      ...(added.length === 0 ? { note: "no feedback terms: the first pass's documents hold nothing beyond the query" } : {}),
    });
    const out: { bm25?: DocCandidate[]; vector?: DocCandidate[] } = {};
    if (added.length > 0) {
      const match = buildMatchExpression(
        weighted.flatMap((t) =>
          Array.from({ length: t.repeats }, () => ({ surface: "", alternatives: t.alternatives, kind: "word" as const, stop: false })),
        ),
      );
      out.bm25 = this.bm25Stage(state, { ...lexical, match }, text, depth, opts, trace, "bm25:feedback");
    }
    if (vectors && queryVector && docVectors.length > 0) {
      const vectorStart = now();
      const items = vectors.documents(
        rocchioVector(queryVector, docVectors, h.feedbackVectorWeight),
        depth,
        state.catalog,
        documentFilter(state, opts),
      );
      trace.push({
        stage: "vector",
        input: { name: "vector:feedback", method: "Rocchio", beta: h.feedbackVectorWeight, documents: docVectors.length, depth },
        output: traceItems(items, state.catalog, opts.traceDepth),
        start: vectorStart,
        end: now(),
      });
      out.vector = items;
    }
    return out;
  }

  private bm25Stage(
    state: State,
    lexical: LexicalQuery,
    text: string,
    depth: number,
    opts: SearchOptionsResolved,
    trace: TraceStage[],
    name: string,
  ): DocCandidate[] {
    const start = now();
    let items: DocCandidate[];
    try {
      items = this.bm25.documents(lexical.match, depth, state.catalog, documentFilter(state, opts));
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
    const notes: string[] = [];
    if (lexical.match === "") notes.push("no searchable terms in the query");
    if (lexical.truncated > 0) notes.push(`${lexical.truncated} terms beyond the first 64 were ignored`);
    if (text.length > MAX_QUERY_CHARS) notes.push(`only the first ${MAX_QUERY_CHARS} characters of the query were used`);
    trace.push({
      stage: "bm25",
      input: {
        name,
        query: text,
        match: lexical.match,
        language: lexical.queryLanguage ?? null,
        depth,
        columnWeights: this.hybrid.columnWeights,
      },
      output: traceItems(items, state.catalog, opts.traceDepth),
      start,
      end: now(),
      ...(notes.length ? { note: notes.join("; ") } : {}),
    });
    return items;
  }

  /** One vector list per query, embedded in one call, with the query's vector (none for an empty query or an index without vectors). */
  private async vectorStage(
    state: State,
    queries: string[],
    depth: number,
    opts: SearchOptionsResolved,
    trace: TraceStage[],
  ): Promise<Array<{ items: DocCandidate[]; vector: Float32Array | undefined }>> {
    const start = now();
    const embedder = embedderId(this.embedder);
    const vectors = this.vectorIndex(state);
    const texts = queries.map((q) => q.slice(0, MAX_EMBED_QUERY_CHARS));
    const nonEmpty = texts.map((t) => t.trim() !== "");
    if (!vectors || !nonEmpty.some(Boolean)) {
      trace.push({
        stage: "vector",
        input: { queries, embedder, depth },
        output: [],
        start,
        end: now(),
        note: vectors ? "empty query" : "the index holds no vectors",
      });
      return queries.map(() => ({ items: [], vector: undefined }));
    }
    const embedded = await embedTexts(
      this.embedder,
      texts.filter((_, i) => nonEmpty[i]),
      this.modelLimits,
    );
    const filter = documentFilter(state, opts);
    const lists: Array<{ items: DocCandidate[]; vector: Float32Array | undefined }> = [];
    let k = 0;
    for (let i = 0; i < queries.length; i++) {
      const listStart = i === 0 ? start : now();
      const vector = nonEmpty[i] ? embedded[k++]! : undefined;
      const items = vector ? vectors.documents(vector, depth, state.catalog, filter) : [];
      lists.push({ items, vector });
      trace.push({
        stage: "vector",
        input: {
          name: i === 0 ? "vector" : `vector:expansion ${i}`,
          query: queries[i],
          embedder,
          dimensions: vectors.dimensions,
          passages: vectors.size,
          depth,
        },
        output: traceItems(items, state.catalog, opts.traceDepth),
        start: listStart,
        end: now(),
        ...(queries[i]!.length > MAX_EMBED_QUERY_CHARS ? { note: `query cut to ${MAX_EMBED_QUERY_CHARS} characters for embedding` } : {}),
      });
    }
    return lists;
  }

  /**
   * Expands a query with the engine's expander against this index's vocabulary, as the thorough
   * tier does. Never throws for an expander failure: the result then holds the query unexpanded and
   * a `fallback` with the reason.
   */
  async expand(text: string, options: { headers?: Record<string, string> } = {}): Promise<ExpansionResult> {
    checkOptions(options, ["headers"], "expand");
    return this.expandWith(this.state(), usedQueryText(checkText(text)), options.headers);
  }

  private async expandWith(state: State, text: string, headers?: Record<string, string>): Promise<ExpansionResult> {
    try {
      return await this.expander.expand(text, { vocabulary: state.vocabulary, ...(headers ? { headers } : {}) });
    } catch (error) {
      return {
        expansion: { lexicalQueries: [text], vectorQueries: [text] },
        expander: this.expander.id,
        fallback: { reason: `expander failed: ${errorLine(error)}` },
      };
    }
  }

  private async expansionStage(state: State, text: string, trace: TraceStage[]): Promise<Expansion> {
    const start = now();
    const result = await this.expandWith(state, text);
    trace.push({
      stage: "expansion",
      input: { query: text, expander: result.expander },
      output: { ...result.expansion, ...(result.fallback ? { fallback: result.fallback } : {}) },
      start,
      end: now(),
      ...(result.fallback ? { note: `ran unexpanded: ${result.fallback.reason}` } : {}),
    });
    return result.expansion;
  }

  private async rerankStage(
    state: State,
    text: string,
    fused: FusedCandidate[],
    depth: number,
    traceDepth: number,
    trace: TraceStage[],
  ): Promise<DocCandidate[]> {
    const start = now();
    const pool = fused.slice(0, depth);
    if (pool.length === 0) {
      trace.push({ stage: "rerank", input: { reranker: rerankerId(this.reranker), candidates: 0 }, output: [], start, end: now() });
      return [];
    }
    const entries: Array<{ candidate: number; passage: number }> = [];
    const documents: RerankDocument[] = [];
    pool.forEach((c, ci) => {
      const doc = state.catalog.documents[c.docIndex]!;
      for (const passage of c.passages) {
        const row = this.passageText.get(passage) as { heading: string; text: string };
        entries.push({ candidate: ci, passage });
        documents.push({
          title: doc.title,
          text: passageBody(row.heading, row.text),
          language: doc.language ? baseLanguage(doc.language) : null,
        });
      }
    });
    const scores = await this.rerankScores(state, text, documents);
    const maxFused = pool[0]!.score;
    const best = pool.map(() => ({ rerank: -Infinity, passage: -1 }));
    entries.forEach((e, i) => {
      if (scores[i]! > best[e.candidate]!.rerank) best[e.candidate] = { rerank: scores[i]!, passage: e.passage };
    });
    const w = this.hybrid.fusionWeight;
    const out = pool
      .map((c, i) => {
        const normalized = maxFused > 0 ? c.score / maxFused : 0;
        const rerank = best[i]!.rerank;
        return {
          docIndex: c.docIndex,
          docId: c.docId,
          passageRowId: best[i]!.passage,
          score: w * normalized + (1 - w) * rerank,
          fused: normalized,
          rerank,
        };
      })
      .sort(byScoreThenDocIdDesc);
    trace.push({
      stage: "rerank",
      input: {
        reranker: rerankerId(this.reranker),
        query: text,
        candidates: pool.length,
        passages: documents.length,
        // 1 − 0.7 is 0.30000000000000004 in binary floating point: written as the 0.3 it means.
        formula: `${w} × fused/max(fused) + ${Number((1 - w).toFixed(12))} × rerank`,
      },
      output: out.slice(0, traceDepth).map((c, i) => ({
        docId: c.docId,
        passageId: state.catalog.passageId(c.passageRowId),
        score: c.score,
        rank: i + 1,
        detail: { fused: c.fused, rerank: c.rerank },
      })),
      start,
      end: now(),
    });
    return out;
  }

  /** The index's statistics a lexical scorer needs; IDFs are looked up on first read, so a remote reranker costs none. */
  private rerankScoring(state: State): OfflineRerankOptions {
    return { termIdf: lazyIdf(state.vocabulary, {}), languages: state.catalog.languages, maxIdf: state.vocabulary.idf("") };
  }

  private documentPassages(collection: string, docId: string): StoredPassage[] {
    return this.db
      .prepare(
        "SELECT p.seq, p.heading, p.text FROM passages p JOIN documents d ON d.id = p.document_id WHERE d.collection = ? AND d.path = ? ORDER BY p.seq",
      )
      .all(collection, docId) as StoredPassage[];
  }

  /**
   * One rerank score per document, in input order, from the AI SDK's `rerank` under the call
   * policy. Every reranker gets the index's statistics as `providerOptions.offline`: the heuristic
   * reranker scores with them, a model provider ignores another provider's options.
   */
  private async rerankScores(state: State, text: string, documents: RerankDocument[]): Promise<number[]> {
    try {
      const { rerank } = await aiSdk();
      const { ranking } = await callWithPolicy(this.modelLimits, (settings) =>
        rerank({
          model: this.reranker,
          documents,
          query: text,
          providerOptions: { [OFFLINE_PROVIDER]: this.rerankScoring(state) },
          ...settings,
        }),
      );
      const scores = new Array<number>(documents.length).fill(0);
      for (const r of ranking) scores[r.originalIndex] = r.score;
      return scores;
    } catch (error) {
      throw new EngineError("PROVIDER_ERROR", `reranking with ${rerankerId(this.reranker)} failed: ${errorLine(error)}`, {
        cause: error,
      });
    }
  }

  // ---- state ----

  /** The state, after checking that a collection filter names a collection of the index. */
  private checkedState(opts: SearchOptionsResolved): State {
    const state = this.state();
    const { collection } = opts;
    if (collection !== undefined && state.catalog.documents.length > 0 && !state.catalog.collections.includes(collection)) {
      throw new RangeError(
        `Unknown collection "${collection}"; this index has ${state.catalog.collections.map((c) => `"${c}"`).join(", ")}`,
      );
    }
    return state;
  }

  private state(): State {
    let dataVersion: number;
    try {
      dataVersion = this.db.pragma("data_version", { simple: true }) as number;
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
    const key = `${dataVersion}:${this.generation}`;
    if (this.current?.key === key) return this.current;
    try {
      const meta = readMeta(this.db);
      const expected = analyzerId(this.analyzer);
      if (meta.analyzer !== undefined && meta.analyzer !== expected) {
        throw new EngineError(
          "INDEX_STALE",
          `${this.file}: built with ${meta.analyzer}; this engine analyzes text as ${expected}. Run \`pnpm engine index\` again to rebuild it`,
        );
      }
      if (meta.reindexRequired !== undefined) {
        // A migrated index (store/schema.ts) would show superseded documents as valid until it is read again.
        throw new EngineError(
          "INDEX_STALE",
          `${this.file}: upgraded to index schema version ${SCHEMA_VERSION}, but ${meta.reindexRequired}; run \`pnpm engine index\` again on every collection to read them`,
        );
      }
      const catalog = new Catalog(this.db);
      // The old state's vector rows go (and their scan's helper thread with them).
      this.current?.vectors?.dispose();
      this.current = { key, catalog, vocabulary: new IndexVocabulary(this.db, catalog.languages, catalog.passageDocument.size) };
      return this.current;
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
  }

  private vectorIndex(state: State): VectorIndex | undefined {
    const meta = readMeta(this.db);
    if (meta.embedder === undefined || state.catalog.passageDocument.size === 0) return undefined;
    const mine = embedderId(this.embedder);
    if (meta.embedder !== mine) {
      throw new EngineError(
        "EMBEDDER_MISMATCH",
        `${this.file}: vectors were made by ${meta.embedder} (${meta.dimensions} dimensions), this engine embeds with ${mine}; re-index with the same embedder, or open the index with ${meta.embedder}`,
      );
    }
    if (!state.vectors) {
      try {
        state.vectors = VectorIndex.load(this.db, state.catalog, meta.embedder, meta.dimensions ?? 0, this.file);
      } catch (error) {
        throw sqliteFailure(this.file, error);
      }
    }
    return state.vectors;
  }

  private respond(
    query: string,
    mode: SearchResponse["mode"],
    state: State,
    items: DocCandidate[],
    lexical: LexicalQuery,
    opts: SearchOptionsResolved,
    trace: TraceStage[],
    started: number,
  ): SearchResponse {
    const { limit } = opts;
    const queryTokens = new Set(lexical.terms.flatMap((t) => t.alternatives.flat()));
    const validity = this.hitValidity(state, opts);
    const results: Hit[] = items.slice(0, limit).map((item, i) => {
      const doc = state.catalog.documents[item.docIndex]!;
      const row = this.passageText.get(item.passageRowId) as { heading: string; text: string };
      const hit = {
        rank: i + 1,
        docId: doc.docId,
        collection: doc.collection,
        passageId: state.catalog.passageId(item.passageRowId),
        score: item.score,
        title: doc.title,
        language: doc.language,
        heading: row.heading,
        ...validity(item.docIndex),
      } as Hit;
      // Snippets analyze the passage text; most callers (TREC runs, evals, ask) never read them,
      // so one is made on first read. The getter is enumerable, so JSON output still has it.
      let snippet: string | undefined;
      Object.defineProperty(hit, "snippet", {
        enumerable: true,
        get: () => (snippet ??= makeSnippet(row.text, queryTokens, doc.language ? baseLanguage(doc.language) : undefined, this.analyzer)),
      });
      return hit;
    });
    return { query, mode, results, trace, elapsedMs: now() - started };
  }
}

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

interface SearchOptionsResolved {
  limit: number;
  traceDepth: number;
  collection?: string | undefined;
  language?: string | undefined;
  /** The instant validity is evaluated at (ms, UTC); undefined: now. */
  asOf: number | undefined;
  includeSuperseded: boolean;
  /** Stale documents at that instant, once the validity stage ran (undefined: the index declares no validity). */
  stale?: Map<number, StaleReason>;
}

function searchOptions(options: SearchOptions, where: string): SearchOptionsResolved {
  checkOptions(options, ["limit", "collection", "language", "traceDepth", "asOf", "includeSuperseded"], where);
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new RangeError(`Expected "limit" to be an integer from 1 to 10000, got ${limit}`);
  const traceDepth = options.traceDepth ?? TRACE_DEPTH;
  if (!Number.isInteger(traceDepth) || traceDepth < 0)
    throw new RangeError(`Expected "traceDepth" to be a non-negative integer, got ${traceDepth}`);
  for (const key of ["collection", "language"] as const) {
    if (options[key] !== undefined && (typeof options[key] !== "string" || options[key] === "")) {
      throw new TypeError(`Expected "${key}" to be a non-empty string`);
    }
  }
  if (options.includeSuperseded !== undefined && typeof options.includeSuperseded !== "boolean")
    throw new TypeError(`Expected "includeSuperseded" to be true or false, got ${JSON.stringify(options.includeSuperseded)}`);
  return {
    limit,
    traceDepth,
    collection: options.collection,
    language: options.language,
    asOf: options.asOf === undefined ? undefined : asOfInstant(options.asOf),
    includeSuperseded: options.includeSuperseded ?? false,
  };
}

/** `asOf` as milliseconds (UTC): a valid Date, or a date / date-time string (UTC unless it names an offset). */
function asOfInstant(value: unknown): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === "string" ? parseInstant(value) : undefined;
  if (ms === undefined || Number.isNaN(ms)) {
    const shown = typeof value === "string" ? quoteInput(value) : value instanceof Date ? "an invalid Date" : typeof value;
    throw new RangeError(
      `Expected "asOf" to be a date: YYYY-MM-DD or an ISO 8601 date-time such as 2024-09-01T08:30:00Z (UTC unless it names an offset), got ${shown}`,
    );
  }
  return ms;
}

/**
 * The filter every list applies: the collection and language filters, and the documents stale at
 * the call's instant unless `includeSuperseded` keeps them. Undefined when nothing is filtered, so
 * an index without validity ranks exactly as before.
 */
function documentFilter(state: State, opts: SearchOptionsResolved): ((docIndex: number) => boolean) | undefined {
  const scope = state.catalog.filter(opts);
  const { stale } = opts;
  if (stale === undefined || stale.size === 0 || opts.includeSuperseded) return scope;
  return (i) => !stale.has(i) && (scope === undefined || scope(i));
}

function checkText(text: unknown): string {
  if (typeof text !== "string") throw new TypeError(`Expected the query to be a string, got ${typeof text}`);
  return text;
}

/** Rejects unknown option names, suggesting the closest known one (catches `limt`, `tiers`). */
export function checkOptions(options: object, allowed: readonly string[], where: string): void {
  if (options === null || typeof options !== "object") throw new TypeError(`Expected ${where} options to be an object`);
  for (const key of Object.keys(options)) {
    if (allowed.includes(key)) continue;
    const close = allowed.find((a) => a.toLowerCase() === key.toLowerCase() || levenshtein(a, key) <= 2);
    throw new TypeError(`Unknown ${where} option "${key}"${close ? `; did you mean "${close}"?` : ""} (known: ${allowed.join(", ")})`);
  }
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
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

function traceItems(items: readonly DocCandidate[], catalog: Catalog, depth: number): TraceItem[] {
  return items
    .slice(0, depth)
    .map((c, i) => ({ docId: c.docId, passageId: catalog.passageId(c.passageRowId), score: c.score, rank: i + 1 }));
}

function rerankerId(model: RerankingModel): string {
  return `${model.provider}/${model.modelId}`;
}

/** An IDF map that looks terms up in the index on first access. */
function lazyIdf(vocabulary: IndexVocabulary, cache: Record<string, number>): Record<string, number> {
  return new Proxy(cache, {
    get(target, key) {
      if (typeof key !== "string") return undefined;
      if (!(key in target)) target[key] = vocabulary.documentFrequency(key) > 0 ? vocabulary.idf(key) : 0;
      return target[key];
    },
  });
}
