/**
 * nDCG at cut-offs (trec_eval `ndcg_cut`) and its exponential-gain variant (`ndcg_exp_cut`, ours).
 *
 * Formula: nDCG@k = DCG@k / IDCG@k; DCG@k = Σ_{i=1..min(k,n)} gain(rel_i) / log2(i + 1); the
 *   ideal ranking holds every judged document of the topic with positive gain, by gain desc.
 *   Linear gain (trec_eval): gain = judged grade. Exponential: gain = 2^grade − 1. A custom map
 *   grade → gain keeps gain = grade for grades it does not name (as trec_eval's `ndcg.1=3`).
 * Relevant: only documents with positive gain count; relevanceLevel (-l) does not change nDCG.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: DCG stops at the end of the ranking; IDCG still uses k ideal ranks.
 * No relevant documents: 0 (IDCG = 0).
 */
import { discount } from "./gain-table.js";
import { assertCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

/** Gain of a judged grade: trec_eval's linear gain, 2^grade − 1, or a map (absent grades: linear). */
export type Gain = "linear" | "exponential" | Readonly<Record<number, number>>;

export function gainFunction(gain: Gain): (grade: number) => number {
  if (gain === "linear") return (grade) => grade;
  if (gain === "exponential") return (grade) => 2 ** grade - 1;
  for (const [grade, value] of Object.entries(gain)) {
    if (!/^\d+$/.test(grade)) throw new RangeError(`gain map keys must be grades >= 0, got "${grade}"`);
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`gain for grade ${grade} must be a finite number >= 0, got ${value}`);
  }
  return (grade) => gain[grade] ?? grade;
}

/** DCG and IDCG at each cut-off (ascending integers ≥ 1). */
export function dcgAtCutoffs(judged: JudgedRanking, cutoffs: readonly number[], gain: Gain = "linear"): { dcg: number[]; idcg: number[] } {
  assertCutoffs(cutoffs);
  const gainOf = gainFunction(gain);
  const { rels, numRet } = judged;
  const dcg = new Array<number>(cutoffs.length);
  let sum = 0;
  let c = 0;
  for (let i = 0; i < numRet && c < cutoffs.length; i++) {
    while (c < cutoffs.length && i === cutoffs[c]) dcg[c++] = sum;
    if (c === cutoffs.length) break;
    const rel = rels[i]!;
    if (rel >= 0) {
      const g = gainOf(rel);
      if (g > 0) sum += g / discount(i);
    }
  }
  while (c < cutoffs.length) dcg[c++] = sum;

  // Ideal ranking: judged grades by gain, highest first (stable for equal gains).
  const ideal = judged.levels
    .map(({ grade, count }) => ({ g: gainOf(grade), count }))
    .filter(({ g }) => g > 0)
    .reverse()
    .sort((a, b) => b.g - a.g);
  const idcg = new Array<number>(cutoffs.length);
  let isum = 0;
  let pos = 0;
  c = 0;
  outer: for (const { g, count } of ideal) {
    for (let n = 0; n < count; n++, pos++) {
      while (c < cutoffs.length && pos === cutoffs[c]) idcg[c++] = isum;
      if (c === cutoffs.length) break outer;
      isum += g / discount(pos);
    }
  }
  while (c < cutoffs.length) idcg[c++] = isum;
  return { dcg, idcg };
}

export function ndcgCut(judged: JudgedRanking, cutoffs: readonly number[], gain: Gain = "linear"): number[] {
  const { dcg, idcg } = dcgAtCutoffs(judged, cutoffs, gain);
  return dcg.map((d, c) => (idcg[c]! > 0 ? d / idcg[c]! : 0));
}
