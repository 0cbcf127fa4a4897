/**
 * Binary preference (trec_eval `bpref`, also the per-topic value of `gm_bpref`;
 * Buckley & Voorhees, SIGIR 2004).
 *
 * Formula: bpref = (1/R) Σ over relevant retrieved docs r of (1 − min(n_r, R) / min(N, R)), where
 *   n_r = judged non-relevant documents ranked above r, N = judged non-relevant documents of the
 *   topic (grades 0 … relevanceLevel−1), R = judged-relevant documents. A relevant document with
 *   no judged non-relevant document above it contributes 1. Documents absent from the judgments
 *   and negative judgments are skipped entirely.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: 0.
 */
import type { JudgedRanking } from "./types.js";
import { NOT_JUDGED, UNJUDGED_IN_POOL } from "./types.js";

export function bpref(judged: JudgedRanking): number {
  const { rels, relevanceLevel, numRel, levels } = judged;
  let numNonrel = 0;
  for (const { grade, count } of levels) if (grade < relevanceLevel) numNonrel += count;
  let nonrelSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rels.length; i++) {
    const rel = rels[i]!;
    if (rel === NOT_JUDGED || rel === UNJUDGED_IN_POOL) continue;
    if (rel >= 0 && rel < relevanceLevel) {
      nonrelSoFar++;
    } else if (nonrelSoFar > 0) {
      sum += 1 - Math.min(nonrelSoFar, numRel) / Math.min(numNonrel, numRel);
    } else {
      sum += 1;
    }
  }
  return numRel > 0 ? sum / numRel : sum;
}
