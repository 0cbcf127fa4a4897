/**
 * Interpolated precision at recall levels (trec_eval `iprec_at_recall`) and its mean over the
 * recall levels (`11pt_avg`).
 *
 * Formula: the recall level ρ becomes a count of relevant documents c = round(ρ·R) (trec_eval
 *   10.0 rounds to nearest, half away from zero; 9.x added 0.9 and truncated). iprec(ρ) is the
 *   maximum precision at any rank at or below the rank where the c-th relevant document is
 *   retrieved; levels whose c exceeds the relevant documents retrieved get 0, except that the
 *   walk's final interpolated value also fills levels with c = 0.
 *   11pt_avg = mean of iprec over the given levels (default 0.0, 0.1, …, 1.0).
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`). R = judged-relevant documents.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: 0.
 */
import type { JudgedRanking } from "./types.js";

/** Relevant-document count that recall level `level` stands for (trec_eval 10.0: lround). */
export function recallCutoff(level: number, numRel: number): number {
  const x = level * numRel;
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

export function interpolatedPrecision(judged: JudgedRanking, levels: readonly number[]): number[] {
  const { rels, relevanceLevel, numRel, numRet, numRelRet } = judged;
  const out = levels.map(() => 0);
  const cutoffs = levels.map((level) => recallCutoff(level, numRel));
  let current = cutoffs.length - 1;
  while (current >= 0 && cutoffs[current]! > numRelRet) current--;
  // Walk bottom-up keeping the best precision seen so far (interpolation to the right).
  let intPrecis = numRet > 0 ? numRelRet / numRet : 0; // an empty ranking has precision 0
  let relSoFar = numRelRet;
  for (let i = numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    if (intPrecis < precis) intPrecis = precis;
    if (rels[i - 1]! >= relevanceLevel) {
      while (current >= 0 && relSoFar === cutoffs[current]) out[current--] = intPrecis;
      relSoFar--;
    }
  }
  while (current >= 0) out[current--] = intPrecis;
  return out;
}

export function elevenPointAverage(judged: JudgedRanking, levels: readonly number[]): number {
  if (levels.length === 0) throw new RangeError("11pt_avg needs at least one recall level");
  let sum = 0;
  // Same summation order as trec_eval: from the highest level down.
  const values = interpolatedPrecision(judged, levels);
  for (let i = values.length - 1; i >= 0; i--) sum += values[i]!;
  return sum / levels.length;
}
