/**
 * Shared walk for the cut-off metrics (P, recall, success, relative_P): how many relevant
 * documents sit in the top k, for each k. A cut-off beyond the end of the ranking sees the whole
 * ranking (missing ranks count as non-relevant, as in trec_eval).
 */
import type { JudgedRanking } from "./types.js";

/** Throws unless `cutoffs` are integers ≥ 1 in strictly ascending order (what the spec parser yields). */
export function assertCutoffs(cutoffs: readonly number[], what = "cutoffs"): void {
  for (let i = 0; i < cutoffs.length; i++) {
    const k = cutoffs[i]!;
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`${what} must be integers >= 1, got ${k}`);
    if (i > 0 && k <= cutoffs[i - 1]!)
      throw new RangeError(`${what} must be strictly ascending without duplicates, got ${cutoffs.join(",")}`);
  }
}

/** Number of relevant documents (grade ≥ judged.relevanceLevel) within the top k, for each cut-off k. */
export function relevantAtCutoffs(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  const { rels, relevanceLevel } = judged;
  const out = new Array<number>(cutoffs.length);
  let relSoFar = 0;
  let rank = 0;
  for (let c = 0; c < cutoffs.length; c++) {
    const end = Math.min(cutoffs[c]!, rels.length);
    for (; rank < end; rank++) if (rels[rank]! >= relevanceLevel) relSoFar++;
    out[c] = relSoFar;
  }
  return out;
}
