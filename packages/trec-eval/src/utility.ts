/**
 * Set utility (trec_eval `utility`): a weighted contingency table of the retrieved set.
 *
 * Formula: p1·a + p2·b + p3·c + p4·d with a = relevant retrieved, b = non-relevant retrieved,
 *   c = relevant not retrieved, d = non-relevant not retrieved = N_coll + a − |retrieved| − R
 *   (N_coll from -N, default 0). Default coefficients 1, −1, 0, 0. Not bounded to [0, 1].
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: irrelevant (set measure).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: computed as written (typically −|retrieved|).
 */
import type { JudgedRanking } from "./types.js";

export function utility(judged: JudgedRanking, coefficients: readonly number[], numDocsInCollection = 0): number {
  if (coefficients.length !== 4) throw new RangeError(`utility takes exactly 4 coefficients, got ${coefficients.length}`);
  const [p1, p2, p3, p4] = coefficients as [number, number, number, number];
  const { numRelRet, numRet, numRel } = judged;
  return p1 * numRelRet + p2 * (numRet - numRelRet) + p3 * (numRel - numRelRet) + p4 * (numDocsInCollection + numRelRet - numRet - numRel);
}
