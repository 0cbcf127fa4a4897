/**
 * Fraction of unjudged documents at cut-offs (trec_eval `unj`): a "red flag" for how well the
 * judgments cover a run.
 *
 * Formula: unj@k = |documents in top k absent from the judgments or with a negative judgment| / k.
 * Relevant: not used.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: still divides by k (missing ranks count as judged).
 * No relevant documents: computed as written.
 */
import { assertCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

export function unjudged(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  const { rels } = judged;
  const out = new Array<number>(cutoffs.length);
  let unjSoFar = 0;
  let i = 0;
  for (let c = 0; c < cutoffs.length; c++) {
    const k = cutoffs[c]!;
    const end = Math.min(k, rels.length);
    for (; i < end; i++) if (rels[i]! < 0) unjSoFar++;
    out[c] = unjSoFar / k;
  }
  return out;
}
