/**
 * Rank-biased precision (trec_eval `rbp`) and its residual (`rbp_resid`; Moffat & Zobel,
 * TOIS 2008).
 *
 * Formula: RBP = (1 − p) Σ_i gain_i · p^(i−1), persistence p default 0.9 (`rbp.p=0.95`). Gains as
 *   for `ndcg` (grade, overridable with `grade=gain`), rescaled to [0, 1] by (g − min)/(max − min)
 *   over the gain table when any gain lies outside [0, 1]. rbp_resid = p^n + (1 − p) Σ over
 *   retrieved docs without a judgment (absent or negative) of p^(i−1): how much RBP could still
 *   rise if every such document were fully relevant (0 when all retrieved docs are judged).
 * Relevant: gains; relevanceLevel (-l) does not apply.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: the sum stops at the end of the run.
 * No relevant documents: RBP = 0.
 */
import { gainOf, gainTable, type ParamPair } from "./gain-table.js";
import type { JudgedRanking } from "./types.js";

/** Persistence from the parameters: the last `p=…` pair, default 0.9. */
export function persistence(params: readonly ParamPair[]): number {
  let p = 0.9;
  for (const { name, value } of params) if (name === "p") p = value;
  return p;
}

export function rbp(judged: JudgedRanking, params: readonly ParamPair[] = []): number {
  const p = persistence(params);
  const entries = gainTable(judged.levels, params);
  let min = Infinity;
  let max = -Infinity;
  for (const e of entries) {
    if (e.gain < min) min = e.gain;
    if (e.gain > max) max = e.gain;
  }
  if (min < 0 || max > 1) for (const e of entries) e.gain = (e.gain - min) / (max - min);
  const { rels, numRet } = judged;
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < numRet; i++) {
    const g = gainOf(entries, rels[i]!);
    if (g !== 0) sum += g * weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

export function rbpResid(judged: JudgedRanking, params: readonly ParamPair[] = []): number {
  const p = persistence(params);
  const { rels, numRet } = judged;
  let unjudgedSoFar = 0;
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < numRet; i++) {
    if (rels[i]! < 0) {
      unjudgedSoFar++;
      sum += weight;
    }
    weight *= p;
  }
  return unjudgedSoFar > 0 ? weight + (1 - p) * sum : 0;
}
