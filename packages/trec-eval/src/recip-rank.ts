/**
 * Reciprocal rank (trec_eval `recip_rank`) and its cut-off variant (`recip_rank_cut`, ours).
 *
 * Formula: 1 / rank of the first relevant document. `recipRank` looks at the WHOLE ranking, as
 *   trec_eval does (no implicit cut-off at 10); `recipRankCut` gives 0 when the first relevant
 *   document is below rank k (MRR@k). Averaged over topics this is MRR.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: only the ranks that exist are looked at.
 * No relevant documents (or none retrieved): 0.
 */
import { assertCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

/** 1-based rank of the first relevant document, or 0 when none is retrieved. */
function firstRelevantRank(judged: JudgedRanking): number {
  const { rels, relevanceLevel } = judged;
  for (let i = 0; i < rels.length; i++) if (rels[i]! >= relevanceLevel) return i + 1;
  return 0;
}

export function recipRank(judged: JudgedRanking): number {
  const rank = firstRelevantRank(judged);
  return rank === 0 ? 0 : 1 / rank;
}

export function recipRankCut(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  const rank = firstRelevantRank(judged);
  return cutoffs.map((k) => (rank !== 0 && rank <= k ? 1 / rank : 0));
}
