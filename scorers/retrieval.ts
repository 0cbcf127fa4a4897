/**
 * Evalite scorers for ranked retrieval, built on the trec_eval-exact metrics of @hybrid-search/trec-eval.
 *
 * Contract shared by every scorer here:
 *  - `output.results` is the engine's ranking, best first. It is taken IN THE ORDER GIVEN: the
 *    engine has already ordered it and broken ties, so scores (if present) are not re-sorted.
 *    (trec_eval would re-sort a run file by score, ties by docId descending; to get exactly its
 *    numbers, write the run with `formatTrecRun` and use `pnpm trec-eval`.)
 *  - `expected.judgments` maps docId → graded relevance (0..3 in our fixtures); documents not in
 *    it are unjudged and count as non-relevant. Relevant means grade ≥ relevanceLevel (default 1;
 *    `expected.relevanceLevel` overrides the scorer's option for one row).
 *  - `expected.relevant`, when present, is the row's relevant set listed apart from its graded
 *    judgments (a fixtures layout's relevantDocs): Recall@k, P@k, MRR and AP count it, as binary
 *    qrels (each listed document relevant, every other judged document not); nDCG@k counts the
 *    graded judgments. Absent, every measure counts the judgments (grade ≥ relevanceLevel).
 *  - The score is in [0, 1]. Metadata carries k, hits, relevantTotal (and dcg/idcg for nDCG), the
 *    convention used and, when the row has a relevant set apart, which set the measure counted
 *    (`relevantFrom`), so a number can be checked by hand.
 *  - A query with no relevant document scores 0, as trec_eval scores it, with metadata
 *    `noRelevant: true` and the policy named — never 1, never silently a pass. With
 *    `onNoRelevant: "throw"` such a row fails instead (use it when every fixture must be judged).
 *  - A docId repeated in `output.results` throws: the ranking is broken.
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { type JudgedRanking, judgedRanking, topicQrels } from "@hybrid-search/trec-eval";
import {
  averagePrecision as apOf,
  dcgAtCutoffs,
  type Gain,
  gainFunction,
  precision,
  recall,
  recipRank,
  recipRankCut,
  relevantAtCutoffs,
} from "@hybrid-search/trec-eval/measures";

export type { Gain } from "@hybrid-search/trec-eval/measures";

/** What the engine task returns: hits best first. */
export interface RetrievalRanking {
  readonly results: ReadonlyArray<{ readonly docId: string; readonly score?: number }>;
}

/** What a fixture row expects: graded judgments for the query. */
export interface RetrievalExpected {
  /** docId → grade (integer, 0 = judged non-relevant; negative = unjudged). @example { "doc-7": 3 } */
  readonly judgments: Readonly<Record<string, number>>;
  /** Minimum grade that counts as relevant for this row (overrides the scorer option). */
  readonly relevanceLevel?: number;
  /**
   * The row's relevant set, when the dataset lists it apart from the graded judgments and it
   * differs from the documents judged ≥ 1 (helpers/datasets/model.ts, `relevant`): the binary
   * measures (Recall@k, P@k, MRR, AP) count these documents, nDCG@k the judgments.
   */
  readonly relevant?: readonly string[];
}

export interface RetrievalScorerOptions {
  /** Minimum grade that counts as relevant (trec_eval -l). @default 1 */
  readonly relevanceLevel?: number;
  /** What a query without relevant documents does: score 0 (trec_eval) or throw. @default "zero" */
  readonly onNoRelevant?: "zero" | "throw";
}

export interface RetrievalMetadata {
  /** Cut-off, or null for whole-list measures. */
  readonly k: number | null;
  /** Relevant documents retrieved (within k when there is a cut-off). */
  readonly hits: number;
  /** Judged documents with grade ≥ relevanceLevel. */
  readonly relevantTotal: number;
  /** Documents in the ranking. */
  readonly retrieved: number;
  readonly relevanceLevel: number;
  /** The definition used, in words. */
  readonly convention: string;
  readonly dcg?: number;
  readonly idcg?: number;
  /**
   * Which of the row's two sets the measure counted, present only when the row lists a relevant
   * set apart from its graded judgments: `relevant set` (binary) or `graded judgments`.
   */
  readonly relevantFrom?: "relevant set" | "graded judgments";
  /** Present (true) only when the query has no relevant document. */
  readonly noRelevant?: true;
  /** The no-relevant policy that produced the score, when noRelevant. */
  readonly policy?: string;
}

export interface RetrievalScore {
  /** In [0, 1]. */
  readonly score: number;
  readonly metadata: RetrievalMetadata;
}

const NO_RELEVANT_POLICY = "score 0 (trec_eval: a judged query without relevant documents scores 0, never 1)";

function assertK(k: number, scorer: string): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`${scorer}: k must be an integer >= 1, got ${k}`);
}

/**
 * Joins the engine's ranking (kept in its order) with the row's judgments: the graded judgments
 * (`"graded"`, nDCG@k), or the qrels of the binary measures (`"binary"`): the row's relevant set
 * when it lists one apart (each listed document grade relevanceLevel, every other judged document
 * 0), else the graded judgments themselves.
 */
export function judgeRetrieval(
  output: RetrievalRanking,
  expected: RetrievalExpected,
  options: RetrievalScorerOptions = {},
  use: "binary" | "graded" = "binary",
): JudgedRanking {
  if (!output || !Array.isArray(output.results)) throw new TypeError("output.results must be an array of { docId, score? } in rank order");
  if (!expected || typeof expected.judgments !== "object" || expected.judgments === null) {
    throw new TypeError("expected.judgments must be an object mapping docId to grade");
  }
  if (expected.relevant !== undefined && !Array.isArray(expected.relevant))
    throw new TypeError("expected.relevant must be an array of docIds");
  const relevanceLevel = expected.relevanceLevel ?? options.relevanceLevel ?? 1;
  const qrels =
    use === "binary" && expected.relevant ? binaryQrels(expected.judgments, expected.relevant, relevanceLevel) : expected.judgments;
  return judgedRanking({ docIds: output.results.map((r) => r.docId) }, topicQrels(qrels), { relevanceLevel });
}

/** Qrels of a relevant set: each listed document relevant (grade `level`, at least 1), every other judged document judged 0. */
function binaryQrels(judgments: Readonly<Record<string, number>>, relevant: readonly string[], level: number): Record<string, number> {
  const listed = new Set(relevant);
  return Object.fromEntries([
    ...Object.keys(judgments)
      .filter((doc) => !listed.has(doc))
      .map((doc) => [doc, 0] as const),
    ...[...listed].map((doc) => [doc, Math.max(1, level)] as const),
  ]);
}

/** The row's relevant set: its `relevant` list when it has one, else the documents judged ≥ `level`. */
export function relevantDocsOf(expected: RetrievalExpected, level = 1): string[] {
  return expected.relevant
    ? [...new Set(expected.relevant)]
    : Object.keys(expected.judgments).filter((doc) => expected.judgments[doc]! >= level);
}

/** The `relevantFrom` metadata of a measure that counts `use`, when the row lists a relevant set apart (else nothing). */
function relevantFrom(expected: RetrievalExpected, use: "binary" | "graded"): { relevantFrom?: RetrievalMetadata["relevantFrom"] } {
  if (!expected.relevant) return {};
  return { relevantFrom: use === "binary" ? "relevant set" : "graded judgments" };
}

/** The words a binary measure's convention adds when the row's relevant set is listed apart. */
const onRelevantSet = (expected: RetrievalExpected): string =>
  expected.relevant ? " [relevant set listed apart from the graded judgments (relevantDocs): binary]" : "";

function finish(
  judged: JudgedRanking,
  score: number,
  k: number | null,
  hits: number,
  convention: string,
  options: RetrievalScorerOptions,
  noRelevant: boolean,
  extra: { dcg?: number; idcg?: number; relevantFrom?: RetrievalMetadata["relevantFrom"] } = {},
): RetrievalScore {
  const metadata: RetrievalMetadata = {
    k,
    hits,
    relevantTotal: judged.numRel,
    retrieved: judged.numRet,
    relevanceLevel: judged.relevanceLevel,
    convention,
    ...extra,
  };
  if (!noRelevant) return { score, metadata };
  if (options.onNoRelevant === "throw") {
    throw new Error(
      `query has no judged document with grade >= ${judged.relevanceLevel}; judge it or drop the row (onNoRelevant: "throw")`,
    );
  }
  return { score: 0, metadata: { ...metadata, noRelevant: true, policy: NO_RELEVANT_POLICY } };
}

// ---------------------------------------------------------------- per-query functions

export function recallAtKScore(
  output: RetrievalRanking,
  expected: RetrievalExpected,
  k: number,
  options: RetrievalScorerOptions = {},
): RetrievalScore {
  assertK(k, "recallAtK");
  const judged = judgeRetrieval(output, expected, options);
  const [hits] = relevantAtCutoffs(judged, [k]);
  return finish(
    judged,
    recall(judged, [k])[0]!,
    k,
    hits!,
    `trec_eval recall_k: relevant in top k / all judged-relevant docs (grade >= level)${onRelevantSet(expected)}`,
    options,
    judged.numRel === 0,
    relevantFrom(expected, "binary"),
  );
}

export function precisionAtKScore(
  output: RetrievalRanking,
  expected: RetrievalExpected,
  k: number,
  options: RetrievalScorerOptions = {},
): RetrievalScore {
  assertK(k, "precisionAtK");
  const judged = judgeRetrieval(output, expected, options);
  const [hits] = relevantAtCutoffs(judged, [k]);
  return finish(
    judged,
    precision(judged, [k])[0]!,
    k,
    hits!,
    `trec_eval P_k: relevant in top k / k (fewer than k results: missing ranks are non-relevant)${onRelevantSet(expected)}`,
    options,
    judged.numRel === 0,
    relevantFrom(expected, "binary"),
  );
}

const GAIN_WORDS = (gain: Gain): string =>
  gain === "linear"
    ? "linear gain=grade"
    : gain === "exponential"
      ? "exponential gain=2^grade-1"
      : `custom gain map ${JSON.stringify(gain)} (other grades: gain=grade)`;

export function ndcgAtKScore(
  output: RetrievalRanking,
  expected: RetrievalExpected,
  k: number,
  options: RetrievalScorerOptions & { readonly gain?: Gain } = {},
): RetrievalScore {
  assertK(k, "ndcgAtK");
  const gain = options.gain ?? "linear";
  const judged = judgeRetrieval(output, expected, options, "graded");
  const { dcg, idcg } = dcgAtCutoffs(judged, [k], gain);
  const [hits] = relevantAtCutoffs(judged, [k]);
  const convention = `${gain === "linear" ? "trec_eval ndcg_cut" : "nDCG@k (ndcg_cut with other gains)"}: ${GAIN_WORDS(gain)}, log2(rank+1) discount, ideal from all judged-positive docs${expected.relevant ? " [graded judgments, not the relevant set listed apart (relevantDocs)]" : ""}`;
  const score = idcg[0]! > 0 ? dcg[0]! / idcg[0]! : 0;
  return finish(judged, score, k, hits!, convention, options, idcg[0]! === 0, {
    dcg: dcg[0]!,
    idcg: idcg[0]!,
    ...relevantFrom(expected, "graded"),
  });
}

export function reciprocalRankScore(
  output: RetrievalRanking,
  expected: RetrievalExpected,
  options: RetrievalScorerOptions & { readonly k?: number } = {},
): RetrievalScore {
  const judged = judgeRetrieval(output, expected, options);
  if (options.k !== undefined) {
    assertK(options.k, "mrr");
    const score = recipRankCut(judged, [options.k])[0]!;
    return finish(
      judged,
      score,
      options.k,
      score > 0 ? 1 : 0,
      `recip_rank_cut: 1/rank of the first relevant doc if within the top k, else 0${onRelevantSet(expected)}`,
      options,
      judged.numRel === 0,
      relevantFrom(expected, "binary"),
    );
  }
  const score = recipRank(judged);
  return finish(
    judged,
    score,
    null,
    score > 0 ? 1 : 0,
    `trec_eval recip_rank: 1/rank of the first relevant doc over the whole list (no cut-off)${onRelevantSet(expected)}`,
    options,
    judged.numRel === 0,
    relevantFrom(expected, "binary"),
  );
}

export function averagePrecisionScore(
  output: RetrievalRanking,
  expected: RetrievalExpected,
  options: RetrievalScorerOptions = {},
): RetrievalScore {
  const judged = judgeRetrieval(output, expected, options);
  return finish(
    judged,
    apOf(judged),
    null,
    judged.numRelRet,
    `trec_eval map (per query): sum of P@rank at relevant retrieved docs / all judged-relevant docs${onRelevantSet(expected)}`,
    options,
    judged.numRel === 0,
    relevantFrom(expected, "binary"),
  );
}

// ---------------------------------------------------------------- Evalite scorers

/** Which documents the binary measures count, in the words of their descriptions. */
const BINARY_SET = "relevant: the row's relevantDocs when its dataset lists them apart from the graded judgments, else judged ≥ level";

type RetrievalScorer<TInput> = Evalite.Scorer<TInput, RetrievalRanking, RetrievalExpected>;

/**
 * Recall@k: the share of all judged-relevant documents that appear in the top k.
 *
 * **When to use:** the engine feeds a reranker or an LLM that reads the top k: did the
 * evidence make it in at all?
 * **When NOT to use:** to judge ordering inside the top k (use nDCG@k), or with k larger than
 * what the engine returns (recall then only measures the engine's result count).
 */
export function recallAtK<TInput = unknown>(k: number, options: RetrievalScorerOptions = {}): RetrievalScorer<TInput> {
  assertK(k, "recallAtK");
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: `Recall@${k}`,
    description: `trec_eval recall_${k}: relevant in top ${k} / all relevant (${BINARY_SET})`,
    scorer: ({ output, expected }) => recallAtKScore(output, expected, k, options),
  });
}

/**
 * Precision@k: relevant documents in the top k, divided by k (even when fewer than k came back).
 *
 * **When to use:** users see exactly k results and every wrong one costs attention.
 * **When NOT to use:** queries with fewer than k relevant documents cannot reach 1 (prefer
 * recall or nDCG there); it ignores order inside the top k.
 */
export function precisionAtK<TInput = unknown>(k: number, options: RetrievalScorerOptions = {}): RetrievalScorer<TInput> {
  assertK(k, "precisionAtK");
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: `P@${k}`,
    description: `trec_eval P_${k}: relevant in top ${k} / ${k} (${BINARY_SET})`,
    scorer: ({ output, expected }) => precisionAtKScore(output, expected, k, options),
  });
}

/**
 * nDCG@k: graded, position-discounted gain relative to the ideal ordering of all judged docs.
 * `gain: "linear"` (default) is trec_eval's ndcg_cut (gain = grade); `"exponential"` uses
 * 2^grade − 1 (weights highly relevant docs more); a map sets gains per grade.
 *
 * **When to use:** the main ranking-quality number for graded judgments.
 * **When NOT to use:** binary judgments where only "found it or not" matters (use Recall@k or MRR@k);
 * never compare linear-gain and exponential-gain numbers with each other.
 */
export function ndcgAtK<TInput = unknown>(
  k: number,
  options: RetrievalScorerOptions & { readonly gain?: Gain } = {},
): RetrievalScorer<TInput> {
  assertK(k, "ndcgAtK");
  const gain = options.gain ?? "linear";
  gainFunction(gain); // a bad gain map fails here, when the eval is defined
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: `nDCG@${k}${gain === "linear" ? "" : gain === "exponential" ? " (exp)" : " (custom gain)"}`,
    description: `nDCG@${k}, ${GAIN_WORDS(gain)} (graded judgments, never a relevant set listed apart)`,
    scorer: ({ output, expected }) => ndcgAtKScore(output, expected, k, { ...options, gain }),
  });
}

/**
 * Reciprocal rank of the first relevant document (its mean over rows is MRR). Over the whole
 * list like trec_eval's recip_rank, or MRR@k with `{ k }`.
 *
 * **When to use:** navigational or single-answer queries where the first hit is what counts.
 * **When NOT to use:** queries with several relevant documents (it ignores all but the first).
 */
export function mrr<TInput = unknown>(options: RetrievalScorerOptions & { readonly k?: number } = {}): RetrievalScorer<TInput> {
  if (options.k !== undefined) assertK(options.k, "mrr");
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: options.k === undefined ? "MRR" : `MRR@${options.k}`,
    description:
      options.k === undefined
        ? `trec_eval recip_rank: 1/rank of first relevant, whole list (${BINARY_SET})`
        : `1/rank of first relevant within top ${options.k} (${BINARY_SET})`,
    scorer: ({ output, expected }) => reciprocalRankScore(output, expected, options),
  });
}

/**
 * Average precision (its mean over rows is MAP): precision at each relevant document's rank,
 * averaged over ALL judged-relevant documents (missed ones count 0).
 *
 * **When to use:** recall-oriented comparisons of whole rankings with binary relevance.
 * **When NOT to use:** graded judgments where grade 3 should beat grade 1 (use nDCG), or
 * when only the top few results are ever shown.
 */
export function averagePrecision<TInput = unknown>(options: RetrievalScorerOptions = {}): RetrievalScorer<TInput> {
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: "AP",
    description: `trec_eval map per query: mean of P@rank over all relevant docs (${BINARY_SET})`,
    scorer: ({ output, expected }) => averagePrecisionScore(output, expected, options),
  });
}
