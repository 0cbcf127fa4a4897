/**
 * Success at cut-offs (trec_eval `success`): 1 if a relevant document is in the top k, else 0.
 *
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: the whole ranking is looked at.
 * No relevant documents: 0 (never counted as a success).
 */
import { assertCutoffs, relevantAtCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

export function success(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  return relevantAtCutoffs(judged, cutoffs).map((hits) => (hits > 0 ? 1 : 0));
}
