/**
 * R-precision (trec_eval `Rprec`) and precision at multiples of R (`Rprec_mult`).
 *
 * Formula: Rprec = |relevant in top R| / R, R = judged-relevant documents of the topic.
 *   Rprec_mult.m: precision at cut-off c = trunc(m·R + 0.9) (trec_eval's rounding); when c is
 *   beyond the ranking, |relevant retrieved| / c.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than R results: Rprec looks at the ranks that exist but still divides by R.
 * No relevant documents: 0.
 */
import type { JudgedRanking } from "./types.js";

export function rPrecision(judged: JudgedRanking): number {
  const { rels, relevanceLevel, numRel } = judged;
  const look = Math.min(rels.length, numRel);
  if (look === 0) return 0;
  let relSoFar = 0;
  for (let i = 0; i < look; i++) if (rels[i]! >= relevanceLevel) relSoFar++;
  return relSoFar / numRel;
}

/** Precision at cut-offs that are multiples of R; `multiples` ascending (trec_eval sorts them). */
export function rPrecisionMult(judged: JudgedRanking, multiples: readonly number[]): number[] {
  const { rels, relevanceLevel, numRel, numRet, numRelRet } = judged;
  const out = multiples.map(() => 0);
  const cutoffs = multiples.map((m) => Math.trunc(m * numRel + 0.9));
  let current = cutoffs.length - 1;
  while (current >= 0 && cutoffs[current]! > numRet) {
    out[current] = numRelRet / cutoffs[current]!;
    current--;
  }
  // Walk the ranking bottom-up, as trec_eval does, so precision at each cut-off is exact.
  let relSoFar = numRelRet;
  for (let i = numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    while (current >= 0 && i === cutoffs[current]) out[current--] = precis;
    if (rels[i - 1]! >= relevanceLevel) relSoFar--;
  }
  return out;
}
