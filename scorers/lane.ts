/**
 * Scorers of the lexical and CJK lanes, on top of the trec_eval-exact ones in retrieval.ts.
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { ndcgAtKScore, recallAtKScore, reciprocalRankScore, type RetrievalExpected, type RetrievalRanking } from "./retrieval.js";

/**
 * Answer first: 1 when the first result is the document the case is about (its highest grade,
 * 3 in the lexical matrix), 0 otherwise, including an empty result list. It is trec_eval's
 * recip_rank cut at 1 with relevance level = the best grade judged.
 *
 * **When to use:** lexical regression cases where exactly one document must win (an identifier,
 * a title over a passing mention, a path over a body).
 * **When NOT to use:** queries with several equally good answers (use nDCG@k or Recall@k).
 */
export function answerFirst<TInput = unknown>(): Evalite.Scorer<TInput, RetrievalRanking, RetrievalExpected> {
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: "Answer first",
    description: "1 when the top result is the best-graded document",
    scorer: ({ output, expected }) => {
      const best = Math.max(0, ...Object.values(expected.judgments));
      const { score, metadata } = reciprocalRankScore(output, { ...expected, relevanceLevel: Math.max(1, best) }, { k: 1 });
      return { score, metadata: { ...metadata, bestGrade: best, top: output.results[0]?.docId ?? null } };
    },
  });
}

/**
 * Has results: 1 when the engine returned at least one document, else 0. Its mean over a set of
 * queries is 1 − the zero-result rate (report the rate itself next to it: lower is better).
 *
 * **When to use:** a language or query class the engine may not tokenize at all (a CJK run kept
 * as one token matches nothing).
 * **When NOT to use:** as a quality measure: any noise scores 1.
 */
export function hasResults<TInput = unknown>(): Evalite.Scorer<TInput, RetrievalRanking, RetrievalExpected> {
  return createScorer<TInput, RetrievalRanking, RetrievalExpected>({
    name: "Has results",
    description: "1 when at least one document came back (mean = 1 − zero-result rate)",
    scorer: ({ output }) => ({ score: output.results.length > 0 ? 1 : 0, metadata: { retrieved: output.results.length } }),
  });
}

/** One slice of a lane (a language) over its queries: means of the per-query metrics. */
export interface LaneSummary {
  label: string;
  queries: number;
  recallAt10: number;
  ndcgAt10: number;
  /** MRR@10: 1/rank of the first relevant document within the top 10 (the lane's rankings are 10 deep). */
  mrrAt10: number;
  /** Share of queries with no result at all: lower is better. */
  zeroResultRate: number;
}

/** Means of Recall@10, nDCG@10, MRR@10 and the zero-result rate over `rows` (rankings best first). */
export function laneSummary(
  label: string,
  rows: ReadonlyArray<{ ranking: readonly string[]; judgments: Readonly<Record<string, number>> }>,
): LaneSummary {
  const sum = { recallAt10: 0, ndcgAt10: 0, mrrAt10: 0, zero: 0 };
  for (const row of rows) {
    const output = { results: row.ranking.map((docId) => ({ docId })) };
    const expected = { judgments: row.judgments };
    sum.recallAt10 += recallAtKScore(output, expected, 10).score;
    sum.ndcgAt10 += ndcgAtKScore(output, expected, 10).score;
    sum.mrrAt10 += reciprocalRankScore(output, expected, { k: 10 }).score;
    if (row.ranking.length === 0) sum.zero++;
  }
  const n = rows.length;
  const mean = (x: number): number => (n === 0 ? 0 : x / n);
  return {
    label,
    queries: n,
    recallAt10: mean(sum.recallAt10),
    ndcgAt10: mean(sum.ndcgAt10),
    mrrAt10: mean(sum.mrrAt10),
    zeroResultRate: mean(sum.zero),
  };
}

export function formatLaneSummary(s: LaneSummary): string {
  const f = (x: number): string => x.toFixed(3);
  return `${s.label}: Recall@10 ${f(s.recallAt10)}, nDCG@10 ${f(s.ndcgAt10)}, MRR@10 ${f(s.mrrAt10)}, zero-result rate ${f(s.zeroResultRate)} (${s.queries} queries)`;
}
