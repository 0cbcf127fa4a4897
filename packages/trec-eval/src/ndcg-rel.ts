/**
 * nDCG averaged over the relevant documents (trec_eval `ndcg_rel`, experimental).
 *
 * Formula: for every retrieved document with positive gain, nDCG at its rank; each ideal
 *   positive-gain document that was not retrieved contributes the final DCG / IDCG; the mean is
 *   over the number of positive-gain documents in the ideal ranking. Gains as for `ndcg`
 *   (linear = grade, overridable with `grade=gain` parameters).
 * Relevant: positive gain; relevanceLevel (-l) does not apply.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: 0.
 */
import { IdealGains, discount, gainOf, gainTable, type ParamPair } from "./gain-table.js";
import type { JudgedRanking } from "./types.js";

export function ndcgRel(judged: JudgedRanking, gains: readonly ParamPair[] = []): number {
  const entries = gainTable(judged.levels, gains);
  const { rels, numRet } = judged;
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  const ideal = new IdealGains(entries);
  let i = 0;
  for (; i < numRet && ideal.gain > 0; i++) {
    const g = gainOf(entries, rels[i]!);
    if (g !== 0) dcg += g / discount(i);
    ideal.advance();
    if (ideal.gain > 0) {
      numRel++;
      idcg += ideal.gain / discount(i);
    }
    if (g > 0) {
      sum += dcg / idcg;
      numRelRet++;
    }
  }
  for (; i < numRet; i++) {
    const g = gainOf(entries, rels[i]!);
    if (g !== 0) dcg += g / discount(i);
    if (g > 0) {
      sum += dcg / idcg;
      numRelRet++;
    }
  }
  for (; ideal.gain > 0; i++) {
    ideal.advance();
    if (ideal.gain > 0) {
      numRel++;
      idcg += ideal.gain / discount(i);
    }
  }
  sum += ((numRel - numRelRet) * dcg) / idcg;
  return sum > 0 ? sum / numRel : 0;
}
