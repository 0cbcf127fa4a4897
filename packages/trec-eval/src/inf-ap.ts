/**
 * Inferred average precision (trec_eval `infAP`; Yilmaz & Aslam, CIKM 2006).
 *
 * Formula: for each judged-relevant retrieved document at 0-based position j (j > 0):
 *   1/(j+1) + (j/(j+1)) · ((r−1 + n + u) / j) · ((r−1 + ε) / (r−1 + n + 2ε)),
 *   with r = relevant so far (including this one), n = judged non-relevant above it,
 *   u = negative-judgment ("pooled but unjudged") documents above it, ε = 0.00001; a relevant
 *   document at rank 1 contributes 1. The sum is divided by R. Documents absent from the
 *   judgments are skipped.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: 0. With complete judgments infAP equals AP.
 */
import type { JudgedRanking } from "./types.js";
import { NOT_JUDGED, UNJUDGED_IN_POOL } from "./types.js";

const INFAP_EPSILON = 0.00001;

export function infAp(judged: JudgedRanking): number {
  const { rels, relevanceLevel, numRel } = judged;
  let nonrelSoFar = 0;
  let relSoFar = 0;
  let unjudgedSoFar = 0;
  let sum = 0;
  for (let j = 0; j < rels.length; j++) {
    const rel = rels[j]!;
    if (rel === NOT_JUDGED) continue;
    if (rel === UNJUDGED_IN_POOL) {
      unjudgedSoFar++;
      continue;
    }
    if (rel >= 0 && rel < relevanceLevel) {
      nonrelSoFar++;
      continue;
    }
    relSoFar++;
    if (j === 0) {
      sum += 1;
    } else {
      const fj = j;
      sum +=
        1 / (fj + 1) +
        (fj / (fj + 1)) *
          ((relSoFar - 1 + nonrelSoFar + unjudgedSoFar) / fj) *
          ((relSoFar - 1 + INFAP_EPSILON) / (relSoFar - 1 + nonrelSoFar + 2 * INFAP_EPSILON));
    }
  }
  return numRel > 0 ? sum / numRel : sum;
}
