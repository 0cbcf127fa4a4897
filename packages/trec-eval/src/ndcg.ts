/**
 * nDCG over the whole ranking (trec_eval `ndcg`, with `dcg` and `ideal_dcg`; Järvelin &
 * Kekäläinen, TOIS 2002), and its exponential-gain variant `ndcgExp` (ours, `ndcg_exp`).
 *
 * Formula: DCG = Σ_i gain(rel_i) / log2(i + 1) over ranks i = 1…n; nDCG = DCG / IDCG, where the
 *   ideal ranking holds every judged document of the topic sorted by gain (positive gains only).
 *   Linear gain: gain = the judged grade (trec_eval's default, NOT 2^rel − 1), overridable per
 *   grade (`ndcg.1=3,2=9`); exponential variant: gain = 2^grade − 1.
 * Relevant: gains come from grades; relevanceLevel (-l) does not change nDCG.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: whole-list measure; the ideal ranking may be longer than the run.
 * No relevant documents: 0 (IDCG = 0).
 */
import { IdealGains, discount, gainOf, gainTable, type ParamPair } from "./gain-table.js";
import { dcgAtCutoffs } from "./ndcg-cut.js";
import type { JudgedRanking } from "./types.js";

export interface DcgParts {
  ndcg: number;
  dcg: number;
  idcg: number;
}

export function ndcg(judged: JudgedRanking, gains: readonly ParamPair[] = []): DcgParts {
  const entries = gainTable(judged.levels, gains);
  const { rels, numRet } = judged;
  let dcg = 0;
  let idcg = 0;
  const ideal = new IdealGains(entries);
  let i = 0;
  for (; i < numRet && ideal.gain > 0; i++) {
    const g = gainOf(entries, rels[i]!);
    if (g !== 0) dcg += g / discount(i);
    ideal.advance();
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  for (; i < numRet; i++) {
    const g = gainOf(entries, rels[i]!);
    if (g !== 0) dcg += g / discount(i);
  }
  for (; ideal.gain > 0; i++) {
    ideal.advance();
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  return { ndcg: idcg > 0 ? dcg / idcg : 0, dcg, idcg };
}

/** nDCG over the whole ranking with gain 2^grade − 1. */
export function ndcgExp(judged: JudgedRanking): number {
  let judgedCount = 0;
  for (const { count } of judged.levels) judgedCount += count;
  const depth = Math.max(judged.numRet, judgedCount, 1);
  const { dcg, idcg } = dcgAtCutoffs(judged, [depth], "exponential");
  return idcg[0]! > 0 ? dcg[0]! / idcg[0]! : 0;
}
