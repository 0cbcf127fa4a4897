/**
 * Yet Another Average Precision (trec_eval `yaap`, Robertson, ECIR 2012).
 *
 * Formula: log((1 + S) / (1 + R − S)) where S = Σ over relevant retrieved docs of P@rank(d)
 *   (the AP numerator) and R = judged-relevant documents of the topic. Not bounded to [0, 1].
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: log(1) = 0 when nothing relevant exists.
 */
import { precisionSumAtRelevant } from "./average-precision.js";
import type { JudgedRanking } from "./types.js";

export function yaap(judged: JudgedRanking): number {
  const sum = precisionSumAtRelevant(judged);
  return Math.log((1 + sum) / (1 + judged.numRel - sum));
}
