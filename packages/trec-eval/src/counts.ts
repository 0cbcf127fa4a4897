/**
 * Per-topic counts (trec_eval `num_ret`, `num_rel`, `num_rel_ret`, `num_nonrel_judged_ret`).
 * Summaries are sums over topics, not averages; they print as integers.
 *
 * Formula: num_ret = retrieved (after -M); num_rel = judged with grade ≥ relevanceLevel;
 *   num_rel_ret = retrieved and relevant; num_nonrel_judged_ret = retrieved with a judged grade
 *   below relevanceLevel (documents absent from the judgments and negative judgments excluded).
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: irrelevant. Fewer than k results: not a cut-off measure.
 * No relevant documents: num_rel = 0, num_rel_ret = 0.
 * Summary of num_rel under -c (trec_eval's te_calc_avg_num_rel): not the sum of the per-topic
 *   values but a recount over every judged topic of the judgments with grade > 0, whatever -l;
 *   the two differ only when -l is not 1.
 */
import type { JudgedRanking, TopicQrels } from "./types.js";

export interface Counts {
  numRet: number;
  numRel: number;
  numRelRet: number;
  numNonrelJudgedRet: number;
}

export function counts(judged: JudgedRanking): Counts {
  const { numRet, numRel, numRelRet, numNotJudged, numUnjudgedInPool } = judged;
  return { numRet, numRel, numRelRet, numNonrelJudgedRet: numRet - numNotJudged - numUnjudgedInPool - numRelRet };
}

/** Judgments with a grade above 0 over all the topics: num_rel's `all` value under -c. */
export function positiveJudgments(topics: Iterable<TopicQrels>): number {
  let count = 0;
  for (const { levels } of topics) for (const { grade, count: n } of levels) if (grade > 0) count += n;
  return count;
}
