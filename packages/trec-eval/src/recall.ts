/**
 * Recall at cut-offs (trec_eval `recall`).
 *
 * Formula: recall@k = |relevant in top k| / R, where R is the number of judged-relevant documents
 *   of the topic (retrieved or not), not the number retrieved.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: the whole ranking is counted (missing ranks are non-relevant).
 * No relevant documents: 0.
 */
import { assertCutoffs, relevantAtCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

export function recall(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  if (judged.numRel === 0) return cutoffs.map(() => 0);
  return relevantAtCutoffs(judged, cutoffs).map((hits) => hits / judged.numRel);
}
