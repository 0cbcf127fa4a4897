/**
 * Pseudo-relevance feedback for the thorough tier, from the first pass's top documents.
 *
 * Lexical: RM3 (Lavrenko & Croft, "Relevance-Based Language Models", SIGIR 2001; Abdul-Jaleel et
 * al., "UMass at TREC 2004"), with the parameters Anserini's BM25+RM3 baseline uses (10 feedback
 * documents, 10 feedback terms, original query weight 0.5; Lin, "The Neural Hype and Comparisons
 * Against Weak Baselines", SIGIR Forum 2019).
 *
 * 1. The relevance model P(w|R) ∝ Σ_D P(w|D) · P(D|Q) over the first pass's top documents: P(w|D)
 *    is the term's share of the document's best passage (index terms, function words left out),
 *    P(D|Q) the document's first-pass score over the sum of the feedback documents' scores.
 * 2. The expanded query P'(w|Q) = λ · P_ml(w|Q) + (1 − λ) · P(w|R): each original query term
 *    weighs 1/|Q|, the `terms` most probable feedback terms join it.
 * 3. FTS5's `bm25()` has no per-term weights but sums over every phrase of the MATCH expression,
 *    a repeated one included, so a term's weight becomes how often it is repeated: weight ÷ the
 *    largest weight, times `MAX_REPEATS`, rounded, at least once.
 *
 * Vectors: Rocchio (Rocchio 1971; Manning, Raghavan & Schütze, "Introduction to Information
 * Retrieval", §9.1.1): q' = α·q + β·mean(d) over the same documents' best passages, α = 1 and
 * β = 0.75, the book's values, without a non-relevant term (pseudo-feedback knows none).
 *
 * Both assume the top documents are about the query. In a collection of several languages they
 * are also about the query's language: a cross-language relevant document ranked tenth drops out
 * when feedback adds more of the query's language. So feedback runs only when the query's language
 * is known and every feedback document is in it (`languageMismatch`).
 */
import { analyzeDocumentText, type AnalyzerConfig, type QueryTerm } from "../text/analyze.js";
import { stopwordsFor } from "../text/stopwords.js";

export interface FeedbackConfig {
  /** Documents of the first pass the relevance model is estimated from. */
  docs: number;
  /** Feedback terms added to the query. */
  terms: number;
  /** λ, the weight of the original query in the expanded one. */
  originalWeight: number;
}

export interface FeedbackDocument {
  /** The document's best passage (heading trail and text). */
  text: string;
  /** Base language of the document, for analysis and function words. */
  language: string | undefined;
  /** First-pass score, > 0. */
  score: number;
}

export interface WeightedTerm {
  /** Alternatives of the term, as in `QueryTerm` (a phrase when more than one token). */
  alternatives: string[][];
  weight: number;
  /** Times the term appears in the MATCH expression. */
  repeats: number;
  /** From the feedback documents, not the query. */
  feedback: boolean;
}

/** The largest number of times one term is repeated in the expanded MATCH expression. */
export const MAX_REPEATS = 4;

/** P(w|R) over the feedback documents: index terms (not function words, not single characters) → probability. */
export function relevanceModel(docs: readonly FeedbackDocument[], analyzer: AnalyzerConfig): Map<string, number> {
  const model = new Map<string, number>();
  const total = docs.reduce((sum, d) => sum + Math.max(d.score, 0), 0);
  if (total <= 0) return model;
  for (const doc of docs) {
    const stops = stopwordsFor(doc.language);
    const counts = new Map<string, number>();
    let length = 0;
    for (const token of analyzeDocumentText(doc.text, doc.language, analyzer).tokens) {
      length++;
      if (token.term.length < 2 || stops.has(doc.text.slice(token.start, token.end).toLowerCase())) continue;
      counts.set(token.term, (counts.get(token.term) ?? 0) + 1);
    }
    const docWeight = Math.max(doc.score, 0) / total;
    for (const [term, tf] of counts) model.set(term, (model.get(term) ?? 0) + docWeight * (tf / length));
  }
  return model;
}

/** The RM3 query: the original terms and the `terms` best feedback terms, weighted and repeated. */
export function expandedQuery(original: readonly QueryTerm[], model: ReadonlyMap<string, number>, config: FeedbackConfig): WeightedTerm[] {
  if (original.length === 0) return [];
  const lambda = config.originalWeight;
  const own = new Set(original.flatMap((t) => t.alternatives.flat()));
  const out: WeightedTerm[] = original.map((t) => {
    // The relevance model's mass for a query term: its best single-token alternative.
    let pr = 0;
    for (const alt of t.alternatives) if (alt.length === 1) pr = Math.max(pr, model.get(alt[0]!) ?? 0);
    return { alternatives: t.alternatives, weight: lambda / original.length + (1 - lambda) * pr, repeats: 1, feedback: false };
  });
  const candidates = [...model.entries()]
    .filter(([term]) => !own.has(term))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, config.terms);
  for (const [term, p] of candidates) out.push({ alternatives: [[term]], weight: (1 - lambda) * p, repeats: 1, feedback: true });
  const max = Math.max(...out.map((t) => t.weight));
  for (const t of out) t.repeats = max > 0 ? Math.max(1, Math.round((MAX_REPEATS * t.weight) / max)) : 1;
  return out;
}

/**
 * Why the first pass is no evidence for feedback, or undefined when it is: the query's language
 * is unknown, or some feedback document (base language, `de` for `de-CH`) is in another language
 * or in none.
 */
export function languageMismatch(queryLanguage: string | undefined, docLanguages: ReadonlyArray<string | undefined>): string | undefined {
  if (queryLanguage === undefined) return "the query's language is unknown";
  const others = docLanguages.filter((l) => l !== queryLanguage).length;
  if (others === 0) return undefined;
  return `${others} of the first pass's ${docLanguages.length} top documents are not in the query's language (${queryLanguage})`;
}

/** Rocchio's query: the unit query vector plus β times the mean of the (unit) feedback vectors. */
export function rocchioVector(query: Float32Array, feedback: readonly Float32Array[], beta: number): Float32Array {
  const out = new Float32Array(query.length);
  let norm = 0;
  for (const v of query) norm += v * v;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < query.length; i++) out[i] = query[i]! * inv;
  if (feedback.length === 0 || beta === 0) return out;
  const scale = beta / feedback.length;
  for (const v of feedback) for (let i = 0; i < out.length; i++) out[i]! += scale * v[i]!;
  return out;
}
