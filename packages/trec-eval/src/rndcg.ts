/**
 * nDCG averaged at the R-levels (trec_eval `Rndcg`, experimental).
 *
 * Formula: the ideal ranking changes gain at the boundaries between grade groups (e.g. 5 docs of
 *   grade 3, 3 of grade 2, 10 of grade 1, 50 of grade 0 give boundaries at 5, 8, 18, 68); Rndcg is
 *   the mean of nDCG taken at each boundary, plus one more at the end of the run when the run is
 *   longer than the positive-gain part of the ideal ranking. Gains as for `ndcg`.
 * Relevant: R (grade ≥ relevanceLevel) only decides whether the topic scores at all.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: 0.
 */
import { IdealGains, discount, gainOf, gainTable, type ParamPair } from "./gain-table.js";
import type { JudgedRanking } from "./types.js";

export function rndcg(judged: JudgedRanking, gains: readonly ParamPair[] = []): number {
  const entries = gainTable(judged.levels, gains);
  if (judged.numRel === 0) return 0;
  const { rels, numRet } = judged;
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let changes = 0;
  const ideal = new IdealGains(entries);
  let oldIdealGain = ideal.gain;
  /** Next ideal position; at a change of ideal gain, nDCG so far joins the average. */
  const nextIdeal = (): void => {
    ideal.advance();
    if (oldIdealGain !== ideal.gain) {
      if (idcg > 0) {
        sum += dcg / idcg;
        changes++;
      }
      oldIdealGain = ideal.gain;
    }
  };
  let i = 0;
  for (; i < numRet && ideal.gain > 0; i++) {
    const g = gainOf(entries, rels[i]!);
    nextIdeal();
    if (g !== 0) dcg += g / discount(i);
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  if (i < numRet) {
    for (; i < numRet; i++) {
      const g = gainOf(entries, rels[i]!);
      if (g !== 0) dcg += g / discount(i);
    }
    if (idcg > 0) {
      sum += dcg / idcg;
      changes++;
    }
  }
  for (; ideal.gain > 0; i++) {
    nextIdeal();
    if (ideal.gain > 0) idcg += ideal.gain / discount(i);
  }
  return sum / changes;
}
