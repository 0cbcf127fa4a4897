/**
 * Precision at cut-offs (trec_eval `P`) and relative precision (`relative_P`).
 *
 * Formula: P@k = |relevant in top k| / k. relative_P@k = |relevant in top k| / min(k, R).
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`). R = judged-relevant documents of the topic.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: P still divides by k (missing ranks are non-relevant: 4 relevant in 15
 *   retrieved gives P@20 = 0.2).
 * No relevant documents: P@k = 0; relative_P = 0 (trec_eval skips the topic's computation, value 0).
 */
import { assertCutoffs, relevantAtCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

export function precision(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  return relevantAtCutoffs(judged, cutoffs).map((hits, c) => hits / cutoffs[c]!);
}

export function relativePrecision(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  if (judged.numRel === 0) return cutoffs.map(() => 0);
  return relevantAtCutoffs(judged, cutoffs).map((hits, c) => hits / Math.min(cutoffs[c]!, judged.numRel));
}
