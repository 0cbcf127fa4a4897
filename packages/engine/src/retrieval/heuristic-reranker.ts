/**
 * The offline default reranker: a deterministic relevance estimate from four features of a
 * passage against the query, each in [0, 1]:
 *
 * - coverage  (weight 0.50): IDF-weighted share of the query's content terms found in the passage
 *   (its title included); a term counts when any of its alternatives — a stem in some language, a
 *   joined identifier, or the phrase of an identifier's parts — occurs;
 * - phrase    (weight 0.15): the longest run of consecutive query terms that occurs as a
 *   contiguous phrase, as a share of the query (1 when the whole query occurs verbatim);
 * - proximity (weight 0.15): matched terms ÷ the span (in tokens) of the tightest window that holds
 *   them all; for a one-term query, equal to coverage;
 * - title     (weight 0.20): IDF-weighted share of the query's content terms found in the title.
 *
 * score = 0.50·coverage + 0.15·phrase + 0.15·proximity + 0.20·title.
 *
 * It knows nothing of meaning or of other languages: a passage in another language than the query
 * scores near 0 and keeps its place only through fusion (see `HybridConfig.fusionWeight`).
 * IDF comes from the index through `providerOptions.offline.termIdf`; a term without an entry
 * counts as rare (IDF = `maxIdf`).
 *
 * It implements the AI SDK's RerankingModelV3, so any AI SDK reranking model can replace it.
 */
import type { JSONObject, RerankingModelV3, RerankingModelV3CallOptions } from "@ai-sdk/provider";
import {
  analyzeDocumentText,
  analyzeQuery,
  matchingTerms,
  type AnalyzerConfig,
  type QueryTerm,
  DEFAULT_ANALYZER,
} from "../text/analyze.js";
import { detectLanguage } from "../text/language.js";
import { OFFLINE_PROVIDER } from "../types.js";

export const RERANK_WEIGHTS = { coverage: 0.5, phrase: 0.15, proximity: 0.15, title: 0.2 } as const;

export interface RerankDocument extends JSONObject {
  title: string;
  text: string;
  /** Base language of the document, for stemming; null when unknown. */
  language: string | null;
}

/**
 * The index's statistics, which reach the reranker as `providerOptions.offline` of the AI SDK
 * reranking call (and are passed directly where the engine scores coverage itself).
 */
export interface OfflineRerankOptions extends JSONObject {
  /** IDF per index term; a term without an entry counts as rare (`maxIdf`). */
  termIdf?: Record<string, number>;
  /** @default 10 */
  maxIdf?: number;
  /** Languages whose stems a query term may take. @default the documents' languages */
  languages?: string[];
}

export interface RerankFeatures {
  coverage: number;
  phrase: number;
  proximity: number;
  title: number;
  score: number;
}

interface DocView {
  positions: Map<string, number[]>;
  extras: Set<string>;
  tokens: string[];
}

function view(text: string, language: string | null, analyzer: AnalyzerConfig): DocView {
  const { tokens, extras } = analyzeDocumentText(text, language ?? undefined, analyzer);
  const positions = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    const list = positions.get(t.term);
    if (list) list.push(i);
    else positions.set(t.term, [i]);
  });
  return { positions, extras: new Set(extras), tokens: tokens.map((t) => t.term) };
}

/** Positions (token index of the first token) where the term occurs; extras count as position -1. */
function occurrences(term: QueryTerm, doc: DocView): number[] {
  const found: number[] = [];
  for (const alt of term.alternatives) {
    if (alt.length === 1) {
      const p = doc.positions.get(alt[0]!);
      if (p) found.push(...p);
      else if (doc.extras.has(alt[0]!)) found.push(-1);
      continue;
    }
    for (const start of doc.positions.get(alt[0]!) ?? []) {
      if (alt.every((tok, j) => doc.tokens[start + j] === tok)) found.push(start);
    }
  }
  return found;
}

export class HeuristicReranker implements RerankingModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = "heuristic-rerank-v1";

  constructor(private readonly analyzer: AnalyzerConfig = DEFAULT_ANALYZER) {}

  async doRerank(options: RerankingModelV3CallOptions): Promise<{ ranking: Array<{ index: number; relevanceScore: number }> }> {
    const offline = (options.providerOptions?.[OFFLINE_PROVIDER] ?? {}) as OfflineRerankOptions;
    const docs: RerankDocument[] =
      options.documents.type === "text"
        ? options.documents.values.map((text) => ({ title: "", text, language: null }))
        : (options.documents.values as RerankDocument[]);
    const scored = this.score(options.query, docs, offline).map((f, index) => ({ index, relevanceScore: f.score }));
    scored.sort((a, b) => b.relevanceScore - a.relevanceScore || a.index - b.index);
    return { ranking: options.topN !== undefined ? scored.slice(0, options.topN) : scored };
  }

  /** Features and score for every document, in input order. */
  score(query: string, docs: readonly RerankDocument[], options: OfflineRerankOptions = {}): RerankFeatures[] {
    const languages = options.languages ?? [...new Set(docs.flatMap((d) => (d.language ? [d.language] : [])))];
    const terms = matchingTerms(analyzeQuery(query, { languages, queryLanguage: detectLanguage(query), config: this.analyzer }));
    const maxIdf = options.maxIdf ?? 10;
    const idf = terms.map((t) => {
      let best = 0;
      // A phrase is as specific as its rarest token.
      for (const alt of t.alternatives) best = Math.max(best, ...alt.map((tok) => options.termIdf?.[tok] ?? 0));
      return best > 0 ? best : maxIdf;
    });
    const idfTotal = idf.reduce((a, b) => a + b, 0);
    return docs.map((doc) => {
      if (terms.length === 0 || idfTotal === 0) return { coverage: 0, phrase: 0, proximity: 0, title: 0, score: 0 };
      const body = view(`${doc.title}\n${doc.text}`, doc.language, this.analyzer);
      const title = view(doc.title, doc.language, this.analyzer);
      let covered = 0;
      let titled = 0;
      const hitPositions: number[][] = [];
      terms.forEach((t, i) => {
        const occ = occurrences(t, body);
        if (occ.length > 0) {
          covered += idf[i]!;
          hitPositions.push(occ.filter((p) => p >= 0));
        }
        if (occurrences(t, title).length > 0) titled += idf[i]!;
      });
      const coverage = covered / idfTotal;
      const titleShare = titled / idfTotal;
      const phrase = terms.length < 2 ? coverage : longestRun(terms, body) / terms.length;
      const proximity = terms.length < 2 ? coverage : windowScore(hitPositions);
      const score =
        RERANK_WEIGHTS.coverage * coverage +
        RERANK_WEIGHTS.phrase * phrase +
        RERANK_WEIGHTS.proximity * proximity +
        RERANK_WEIGHTS.title * titleShare;
      return { coverage, phrase, proximity, title: titleShare, score };
    });
  }
}

/** Longest run of consecutive query terms found as adjacent tokens (each term counted by its first token). */
function longestRun(terms: readonly QueryTerm[], doc: DocView): number {
  let best = 0;
  for (let i = 0; i < terms.length; i++) {
    let starts = occurrences(terms[i]!, doc).filter((p) => p >= 0);
    let run = starts.length > 0 ? 1 : 0;
    let width = new Map(starts.map((s) => [s, spanOf(terms[i]!, doc, s)]));
    for (let j = i + 1; j < terms.length && starts.length > 0; j++) {
      const next = new Set(occurrences(terms[j]!, doc).filter((p) => p >= 0));
      const continued = starts.filter((s) => next.has(s + width.get(s)!));
      if (continued.length === 0) break;
      width = new Map(continued.map((s) => [s, width.get(s)! + spanOf(terms[j]!, doc, s + width.get(s)!)]));
      starts = continued;
      run++;
    }
    best = Math.max(best, run);
  }
  return best;
}

/** Number of tokens the term covers when it starts at `at`. */
function spanOf(term: QueryTerm, doc: DocView, at: number): number {
  let span = 1;
  for (const alt of term.alternatives) {
    if (alt.length > 1 && alt.every((tok, j) => doc.tokens[at + j] === tok)) span = Math.max(span, alt.length);
  }
  return span;
}

/** Matched terms ÷ span of the smallest window holding one occurrence of each matched term. */
function windowScore(hitPositions: number[][]): number {
  const lists = hitPositions.filter((p) => p.length > 0);
  if (lists.length === 0) return 0;
  if (lists.length === 1) return 1;
  const events = lists.flatMap((p, term) => p.map((pos) => ({ pos, term }))).sort((a, b) => a.pos - b.pos);
  const counts = new Map<number, number>();
  let have = 0;
  let best = Infinity;
  let left = 0;
  for (const e of events) {
    counts.set(e.term, (counts.get(e.term) ?? 0) + 1);
    if (counts.get(e.term) === 1) have++;
    while (have === lists.length) {
      const l = events[left]!;
      best = Math.min(best, e.pos - l.pos + 1);
      counts.set(l.term, counts.get(l.term)! - 1);
      if (counts.get(l.term) === 0) have--;
      left++;
    }
  }
  return Math.min(1, lists.length / best);
}
