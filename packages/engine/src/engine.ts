/**
 * The engine: one SQLite index, searched by BM25 (`search`), by vectors (`vsearch`), or by a
 * hybrid tier (`query`). Every call returns ranked documents and a trace with one entry per stage.
 *
 * Tiers do different work:
 * - fast:      BM25 only.
 * - balanced:  BM25 and vectors, fused by reciprocal rank fusion, then the top
 *              `rerankDepth` candidates reranked.
 * - thorough:  the query expanded first (deterministic expander offline, a model when configured);
 *              BM25 for every distinct lexical query, vectors for every distinct vector query
 *              (and HyDE passage), all fused, then `thoroughRerankDepth` candidates reranked
 *              against the original query.
 */
import { createHash } from "node:crypto";
import { EngineError } from "./errors.js";
import { embedderId, embedTexts, defaultEmbedder } from "./embed/embedder.js";
import { HashedNgramEmbedder } from "./embed/hashed-ngram.js";
import { DEFAULT_CHUNKER, validateChunker, type ChunkerConfig } from "./ingest/chunk.js";
import { baseLanguage } from "./ingest/language-path.js";
import { Bm25Retriever, prepareLexicalQuery, type DocCandidate, type LexicalQuery } from "./retrieval/bm25.js";
import { DeterministicExpander } from "./retrieval/deterministic-expander.js";
import { HeuristicReranker, type RerankDocument } from "./retrieval/heuristic-reranker.js";
import { byScoreThenDocIdDesc } from "./retrieval/order.js";
import { reciprocalRankFusion, type FusedCandidate, type RankedList } from "./retrieval/rrf.js";
import { makeSnippet } from "./retrieval/snippet.js";
import { VectorIndex } from "./retrieval/vector.js";
import { Catalog } from "./store/catalog.js";
import { openIndex, sqliteFailure, type Db } from "./store/database.js";
import { indexSource, passageBody } from "./store/indexer.js";
import { readMeta } from "./store/meta.js";
import { SCHEMA_VERSION } from "./store/schema.js";
import { IndexVocabulary } from "./store/vocabulary.js";
import { analyzerId, resolveAnalyzer, type AnalyzerConfig } from "./text/analyze.js";
import { citedRefs, isRefusal, REFUSAL } from "./answer/citations.js";
import { EXTRACTIVE_ANSWERER, extractiveAnswer } from "./answer/extractive.js";
import { looksLikeInstruction } from "./answer/injection.js";
import { splitSentences } from "./answer/sentences.js";
import { oneLine } from "./models/model-expander.js";
import { PRESETS, type Preset } from "./models/select.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type {
  AskOptions,
  AskResult,
  AskSource,
  EmbeddingModel,
  EngineOptions,
  Expansion,
  ExpansionResult,
  Hit,
  HybridConfig,
  IndexFingerprint,
  IndexOptions,
  IndexReport,
  QueryExpander,
  QueryOptions,
  RerankingModel,
  SearchOptions,
  SearchResponse,
  Tier,
  TraceItem,
  TraceStage,
} from "./types.js";
import { TIERS } from "./types.js";

export const DEFAULT_HYBRID: HybridConfig = {
  rrfK: 60,
  bm25Weight: 1,
  vectorWeight: 1,
  expansionWeight: 0.5,
  candidates: 50,
  rerankDepth: 30,
  thoroughRerankDepth: 50,
  fusionWeight: 0.7,
  columnWeights: [4, 1, 2],
};

/**
 * The offline embedder's list enters fusion at half weight unless told otherwise: measured on the
 * fixtures (docs/engine.md), its ranking is weaker than BM25's in every query category, and at
 * equal weight fusion cost 0.04 nDCG@10 against BM25 alone. A model embedder keeps weight 1.
 */
export const OFFLINE_VECTOR_WEIGHT = 0.5;

export const ASK_PROMPT_PATH = resolve(import.meta.dirname, "../prompts/ask.md");
/** Evidence needed to answer, see AskOptions.evidenceThreshold. */
export const EVIDENCE_THRESHOLD = { extractive: 0.4, model: 0.3 } as const;

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
  readonly modelLimits: { timeoutMs: number; maxRetries: number };
  private readonly db: Db;
  private readonly bm25: Bm25Retriever;
  private readonly passageText;
  private generation = 0;
  private current: State | undefined;

  private constructor(file: string, db: Db, options: EngineOptions) {
    this.file = file;
    this.db = db;
    this.embedder = options.embedder ?? defaultEmbedder();
    ({ analyzer: this.analyzer, chunker: this.chunker, hybrid: this.hybrid } = resolveParameters(options, this.embedder));
    this.reranker = options.reranker ?? new HeuristicReranker(this.analyzer);
    this.expander = options.expander ?? new DeterministicExpander(this.analyzer);
    this.languageModels = { ...options.languageModels };
    this.modelLimits = options.modelLimits ?? { timeoutMs: 60_000, maxRetries: 2 };
    this.bm25 = new Bm25Retriever(db, this.hybrid.columnWeights);
    this.passageText = db.prepare("SELECT heading, text FROM passages WHERE id = ?");
  }

  /** Opens (or, with `create`, creates) the index at `file`. Throws EngineError when it cannot. */
  static open(file: string, options: OpenEngineOptions = {}): Engine {
    checkOptions(
      options,
      ["create", "embedder", "reranker", "expander", "languageModels", "modelLimits", "analyzer", "chunker", "hybrid", "busyTimeoutMs"],
      "Engine.open",
    );
    if (typeof file !== "string" || file === "") throw new TypeError(`Expected the index path to be a non-empty string`);
    const busyTimeoutMs = options.busyTimeoutMs ?? 2000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
      throw new RangeError(`Expected "busyTimeoutMs" to be a non-negative integer, got ${busyTimeoutMs}`);
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
      return await indexSource(
        { db: this.db, file: this.file, analyzer: this.analyzer, chunker: this.chunker, embedder: this.embedder },
        location,
        options,
      );
    } finally {
      this.generation++;
    }
  }

  /** BM25 search. Synchronous: no model is involved. */
  search(text: string, options: SearchOptions = {}): SearchResponse {
    const started = now();
    const opts = searchOptions(options, "search");
    const state = this.checkedState(opts);
    const trace: TraceStage[] = [];
    const lexical = prepareLexicalQuery(checkText(text), state.catalog.languages, this.analyzer);
    const items = this.bm25Stage(state, lexical, text, opts.limit, opts, trace, "bm25");
    return this.respond(text, "search", state, items, lexical, opts.limit, trace, started);
  }

  /** Vector search with the engine's embedder. */
  async vsearch(text: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const started = now();
    const opts = searchOptions(options, "vsearch");
    const state = this.checkedState(opts);
    const trace: TraceStage[] = [];
    checkText(text);
    const [vectorItems] = await this.vectorStage(state, [text], opts.limit, opts, trace);
    const lexical = prepareLexicalQuery(text, state.catalog.languages, this.analyzer);
    return this.respond(text, "vsearch", state, vectorItems ?? [], lexical, opts.limit, trace, started);
  }

  /** Hybrid query at a tier (default balanced). */
  async query(text: string, options: QueryOptions = {}): Promise<SearchResponse> {
    const started = now();
    const { tier = "balanced", ...rest } = options;
    if (!TIERS.includes(tier)) throw new RangeError(`Expected "tier" to be one of ${TIERS.join(", ")}, got ${JSON.stringify(tier)}`);
    const opts = searchOptions(rest, "query");
    const state = this.checkedState(opts);
    const trace: TraceStage[] = [];
    const lexical = prepareLexicalQuery(checkText(text), state.catalog.languages, this.analyzer);
    const h = this.hybrid;

    if (tier === "fast") {
      const items = this.bm25Stage(state, lexical, text, opts.limit, opts, trace, "bm25");
      return this.respond(text, tier, state, items, lexical, opts.limit, trace, started);
    }

    const lists: RankedList[] = [];
    let rerankDepth = h.rerankDepth;
    const vectorQueries = [text];
    const lexicalQueries: Array<{ name: string; query: LexicalQuery; text: string; weight: number }> = [
      { name: "bm25", query: lexical, text, weight: h.bm25Weight },
    ];
    if (tier === "thorough") {
      rerankDepth = h.thoroughRerankDepth;
      const expansion = await this.expansionStage(state, text, trace);
      const seenMatch = new Set([lexical.match]);
      expansion.lexicalQueries.forEach((q, i) => {
        const prepared = prepareLexicalQuery(q, state.catalog.languages, this.analyzer);
        if (seenMatch.has(prepared.match) || prepared.match === "") return;
        seenMatch.add(prepared.match);
        lexicalQueries.push({ name: `bm25:expansion ${i + 1}`, query: prepared, text: q, weight: h.bm25Weight * h.expansionWeight });
      });
      for (const q of [...expansion.vectorQueries, ...(expansion.hyde ? [expansion.hyde] : [])]) {
        if (q.trim() !== "" && !vectorQueries.includes(q)) vectorQueries.push(q);
      }
    }
    for (const lq of lexicalQueries) {
      lists.push({ name: lq.name, weight: lq.weight, items: this.bm25Stage(state, lq.query, lq.text, h.candidates, opts, trace, lq.name) });
    }
    const vectorLists = await this.vectorStage(state, vectorQueries, h.candidates, opts, trace);
    vectorLists.forEach((items, i) => {
      lists.push({ name: i === 0 ? "vector" : `vector:expansion ${i}`, weight: h.vectorWeight * (i === 0 ? 1 : h.expansionWeight), items });
    });

    const fusionStart = now();
    const fused = reciprocalRankFusion(lists, h.rrfK);
    trace.push({
      stage: "fusion",
      input: { method: "rrf", k: h.rrfK, lists: lists.map((l) => ({ name: l.name, weight: l.weight, size: l.items.length })) },
      output: fused.slice(0, opts.traceDepth).map((c, i) => ({ docId: c.docId, score: c.score, rank: i + 1, detail: c.ranks })),
      start: fusionStart,
      end: now(),
    });
    const reranked = await this.rerankStage(state, text, fused, Math.max(rerankDepth, opts.limit), opts.traceDepth, trace);
    return this.respond(text, tier, state, reranked, lexical, opts.limit, trace, started);
  }

  /**
   * Answers a question from the index, citing sources as [n]. Retrieval first (a hybrid tier), then
   * an evidence check that decides, before any model is called, whether the sources can answer at
   * all; then the preset's language model, or the offline extractive answerer when there is none.
   * Never throws for a model failure: the result then has `error` and an empty answer.
   */
  async ask(question: string, options: AskOptions = {}): Promise<AskResult> {
    const started = now();
    checkOptions(options, ["preset", "limit", "tier", "collection", "language", "evidenceThreshold", "headers", "timeoutMs"], "ask");
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
    const model = this.languageModels[preset];
    const threshold = evidenceThreshold ?? (model ? EVIDENCE_THRESHOLD.model : EVIDENCE_THRESHOLD.extractive);
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`Expected "evidenceThreshold" to be between 0 and 1, got ${threshold}`);

    const retrieval = await this.query(question, { ...filters, limit, tier });
    const trace = [...retrieval.trace];
    const state = this.state();
    const heuristic = this.reranker instanceof HeuristicReranker ? this.reranker : new HeuristicReranker(this.analyzer);
    const scoring = this.rerankScoring(state);
    // Sources: for each retrieved document, the passage retrieval chose and the passage of that
    // document that covers the question best (when different) — the fact asked for often sits in
    // another section than the one that matched the query best.
    const sources: AskSource[] = [];
    for (const hit of retrieval.results) {
      const lang = hit.language ? baseLanguage(hit.language) : null;
      const passages = this.documentPassages(hit.collection, hit.docId);
      const scores = heuristic.score(
        question,
        passages.map((p) => ({ title: hit.title, text: passageBody(p.heading, p.text), language: lang })),
        scoring,
      );
      const bestSeq = passages[scores.reduce((b, f, i) => (f.score > scores[b]!.score ? i : b), 0)]?.seq;
      const chosenSeq = Number(hit.passageId.slice(hit.passageId.lastIndexOf("#") + 1));
      for (const seq of [...new Set([chosenSeq, bestSeq])]) {
        const p = passages.find((x) => x.seq === seq);
        if (!p) continue;
        sources.push({
          ref: sources.length + 1,
          docId: hit.docId,
          passageId: `${hit.docId}#${seq}`,
          title: hit.title,
          heading: p.heading,
          text: p.text,
          language: hit.language,
          score: hit.score,
        });
      }
    }
    const flagged = sources.flatMap((src) =>
      splitSentences(src.text)
        .filter(looksLikeInstruction)
        .map((sentence) => ({ ref: src.ref, sentence })),
    );

    // Evidence: how much of the question the best source covers (lexical, IDF-weighted).
    const evidenceStart = now();
    const coverage = heuristic
      .score(
        question,
        sources.map((src) => ({
          title: src.title,
          text: passageBody(src.heading, src.text),
          language: src.language ? baseLanguage(src.language) : null,
        })),
        scoring,
      )
      .map((f) => f.coverage);
    const best = coverage.reduce((b, c, i) => (c > (coverage[b] ?? -1) ? i : b), -1);
    const evidence = {
      coverage: best >= 0 ? coverage[best]! : 0,
      threshold,
      sufficient: best >= 0 && coverage[best]! >= threshold,
      bestRef: best >= 0 ? best + 1 : null,
    };
    trace.push({
      stage: "evidence",
      input: { question, method: "IDF-weighted share of the question's content terms in a source", threshold },
      output: sources.map((src, i) => ({ docId: src.docId, passageId: src.passageId, score: coverage[i]!, rank: src.ref })),
      start: evidenceStart,
      end: now(),
      note: evidence.sufficient
        ? `sufficient: source [${evidence.bestRef}] covers ${evidence.coverage.toFixed(2)} ≥ ${threshold}`
        : `insufficient: best coverage ${evidence.coverage.toFixed(2)} < ${threshold}; refused without calling the answerer`,
    });
    const base = {
      question,
      sources,
      evidence,
      flagged,
      preset: model ? preset : null,
      answerer: model ? `${model.provider}/${model.modelId}` : EXTRACTIVE_ANSWERER,
    };
    const finish = (answer: string, extra: Partial<AskResult> = {}): AskResult => {
      const refs = citedRefs(answer);
      const citations = refs
        .filter((r) => r >= 1 && r <= sources.length)
        .map((r) => ({ ref: r, docId: sources[r - 1]!.docId, passageId: sources[r - 1]!.passageId }));
      return {
        ...base,
        answer,
        refused: false,
        citations,
        invalidCitations: refs.filter((r) => r < 1 || r > sources.length),
        ...extra,
        trace,
        elapsedMs: now() - started,
      };
    };
    if (!evidence.sufficient) return finish(REFUSAL, { refused: true, refusal: "insufficient-evidence" });

    const genStart = now();
    if (!model) {
      const extractive = extractiveAnswer(
        question,
        sources.map((src) => ({
          ref: src.ref,
          title: src.title,
          text: src.text,
          language: src.language ? baseLanguage(src.language) : null,
        })),
        heuristic,
        scoring,
      );
      trace.push({
        stage: "generation",
        input: { answerer: EXTRACTIVE_ANSWERER, question, sources: sources.length },
        output: { sentences: extractive.sentences, skippedAsInstructions: extractive.flagged },
        start: genStart,
        end: now(),
        ...(extractive.answer === null ? { note: "no sentence covers enough of the question; refused" } : {}),
      });
      return extractive.answer === null ? finish(REFUSAL, { refused: true, refusal: "no-supporting-sentence" }) : finish(extractive.answer);
    }

    const system = readFileSync(ASK_PROMPT_PATH, "utf8");
    const prompt = askPrompt(question, sources);
    try {
      const { generateText } = await import("ai");
      const result = await generateText({
        model,
        system,
        prompt,
        temperature: 0,
        maxRetries: this.modelLimits.maxRetries,
        abortSignal: AbortSignal.timeout(timeoutMs),
        ...(headers ? { headers } : {}),
      });
      const answer = result.text.trim();
      trace.push({
        stage: "generation",
        input: { answerer: base.answerer, preset, prompt: "prompts/ask.md", question, sources: sources.length },
        output: { text: answer, finishReason: result.finishReason, usage: result.usage },
        start: genStart,
        end: now(),
      });
      return isRefusal(answer) ? finish(answer, { refused: true, refusal: "model", citations: [] }) : finish(answer);
    } catch (error) {
      const message = `answer model ${base.answerer} failed: ${oneLine(error)}`;
      trace.push({
        stage: "generation",
        input: { answerer: base.answerer, preset, question },
        output: { error: message },
        start: genStart,
        end: now(),
        note: message,
      });
      return finish("", { error: message });
    }
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
    this.db.close();
  }

  // ---- stages ----

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
      items = this.bm25.documents(lexical.match, depth, state.catalog, state.catalog.filter(opts));
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
    const notes: string[] = [];
    if (lexical.match === "") notes.push("no searchable terms in the query");
    if (lexical.truncated > 0) notes.push(`${lexical.truncated} terms beyond the first 64 were ignored`);
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

  /** One vector list per query, embedded in one call. */
  private async vectorStage(
    state: State,
    queries: string[],
    depth: number,
    opts: SearchOptionsResolved,
    trace: TraceStage[],
  ): Promise<DocCandidate[][]> {
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
      return queries.map(() => []);
    }
    const embedded = await embedTexts(
      this.embedder,
      texts.filter((_, i) => nonEmpty[i]),
    );
    const filter = state.catalog.filter(opts);
    const lists: DocCandidate[][] = [];
    let k = 0;
    for (let i = 0; i < queries.length; i++) {
      const listStart = i === 0 ? start : now();
      const items = nonEmpty[i] ? vectors.documents(embedded[k++]!, depth, state.catalog, filter) : [];
      lists.push(items);
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
    checkText(text);
    return this.expandWith(this.state(), text, options.headers);
  }

  private async expandWith(state: State, text: string, headers?: Record<string, string>): Promise<ExpansionResult> {
    try {
      return await this.expander.expand(text, { vocabulary: state.vocabulary, ...(headers ? { headers } : {}) });
    } catch (error) {
      return {
        expansion: { lexicalQueries: [text], vectorQueries: [text] },
        expander: this.expander.id,
        fallback: { reason: `expander failed: ${((error as Error)?.message ?? String(error)).split("\n")[0]}` },
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
        formula: `${w} × fused/max(fused) + ${1 - w} × rerank`,
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

  private rerankScoring(state: State): { termIdf: Record<string, number>; languages: string[]; maxIdf: number } {
    return { termIdf: lazyIdf(state.vocabulary, {}), languages: state.catalog.languages, maxIdf: state.vocabulary.idf("") };
  }

  private documentPassages(collection: string, docId: string): Array<{ seq: number; heading: string; text: string }> {
    return this.db
      .prepare(
        "SELECT p.seq, p.heading, p.text FROM passages p JOIN documents d ON d.id = p.document_id WHERE d.collection = ? AND d.path = ? ORDER BY p.seq",
      )
      .all(collection, docId) as Array<{ seq: number; heading: string; text: string }>;
  }

  private async rerankScores(state: State, text: string, documents: RerankDocument[]): Promise<number[]> {
    if (this.reranker instanceof HeuristicReranker) {
      return this.reranker.score(text, documents, this.rerankScoring(state)).map((f) => f.score);
    }
    try {
      const { rerank: aiRerank } = await import("ai");
      const { ranking } = await aiRerank({ model: this.reranker, documents, query: text, maxRetries: 2 });
      const scores = new Array<number>(documents.length).fill(0);
      for (const r of ranking) scores[r.originalIndex] = r.score;
      return scores;
    } catch (error) {
      throw new EngineError(
        "PROVIDER_ERROR",
        `reranking with ${rerankerId(this.reranker)} failed: ${((error as Error)?.message ?? String(error)).split("\n")[0]}`,
        { cause: error },
      );
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
      const catalog = new Catalog(this.db);
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
    limit: number,
    trace: TraceStage[],
    started: number,
  ): SearchResponse {
    const queryTokens = new Set(lexical.terms.flatMap((t) => t.alternatives.flat()));
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
  const vectorWeight = embedder instanceof HashedNgramEmbedder ? OFFLINE_VECTOR_WEIGHT : DEFAULT_HYBRID.vectorWeight;
  const hybrid = { ...DEFAULT_HYBRID, vectorWeight, ...options.hybrid };
  validateHybrid(hybrid);
  return { analyzer, chunker, hybrid };
}

interface SearchOptionsResolved {
  limit: number;
  traceDepth: number;
  collection?: string | undefined;
  language?: string | undefined;
}

function searchOptions(options: SearchOptions, where: string): SearchOptionsResolved {
  checkOptions(options, ["limit", "collection", "language", "traceDepth"], where);
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
  return { limit, traceDepth, collection: options.collection, language: options.language };
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
  positive("rrfK", h.rrfK, false);
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

/** The user message of an answer call: the question, then each source inside delimiters. */
export function askPrompt(question: string, sources: readonly AskSource[]): string {
  const neutralize = (text: string): string => text.replace(/<\/?source\b/gi, (m) => m.replace("<", "‹"));
  const blocks = sources.map(
    (s) =>
      `<source ref="${s.ref}" doc="${s.docId}" title="${neutralize(s.title).replace(/"/g, "'")}">\n${neutralize(passageBody(s.heading, s.text))}\n</source>`,
  );
  return `Question: ${question}\n\nSources:\n${blocks.join("\n")}`;
}

export { HashedNgramEmbedder };
export type { Tier };
