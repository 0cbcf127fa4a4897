/**
 * Unranked set measures over everything retrieved (trec_eval `set_P`, `set_relative_P`,
 * `set_recall`, `set_map`, `set_F`).
 *
 * Formula: with a = relevant retrieved, n = |retrieved| (after -M), R = judged-relevant:
 *   set_P = a/n; set_relative_P = a/min(n, R); set_recall = a/R; set_map = a²/(n·R);
 *   set_F = (β+1)·P·R′/(β·P + R′) with P = set_P, R′ = set_recall, β default 1.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: irrelevant (set measures).
 * Fewer than k results: not a cut-off measure (compare P.50 with -M 50 set_P: no padding here).
 * No relevant documents: all 0.
 */
import type { JudgedRanking } from "./types.js";

export interface SetMeasures {
  setP: number;
  setRelativeP: number;
  setRecall: number;
  setMap: number;
  setF: number;
}

export function setMeasures(judged: JudgedRanking, beta = 1): SetMeasures {
  const { numRelRet: a, numRet: n, numRel: r } = judged;
  let setF = 0;
  if (a > 0) {
    const p = a / n;
    const rec = a / r;
    setF = ((beta + 1) * p * rec) / (beta * p + rec);
  }
  return {
    setP: n > 0 ? a / n : 0,
    setRelativeP: n > 0 && r > 0 ? a / Math.min(n, r) : 0,
    setRecall: r > 0 ? a / r : 0,
    setMap: n > 0 && r > 0 ? (a * a) / (n * r) : 0,
    setF,
  };
}
