/**
 * trec_eval's experimental gain measures `G` (normalizedGain) and `binG` (binaryNormalizedGain).
 *
 * Formula: binG = (1/R) Σ over relevant retrieved docs of 1 / log2(2 + non-relevant docs ranked
 *   above it). G: each retrieved doc contributes gain / log2(2 + cost − gain so far), where cost
 *   accumulates the ideal gain at each rank (at least 1 per rank); the sum is normalized by the
 *   total ideal gain. Gains as for `ndcg` (linear = grade, overridable with `grade=gain`).
 * Relevant: binG uses grade ≥ relevanceLevel (-l); G uses gains.
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: not a cut-off measure.
 * No relevant documents: 0.
 */
import { IdealGains, gainOf, gainTable, type ParamPair } from "./gain-table.js";
import type { JudgedRanking } from "./types.js";

export function binaryNormalizedGain(judged: JudgedRanking): number {
  const { rels, relevanceLevel, numRel } = judged;
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rels.length; i++) {
    if (rels[i]! >= relevanceLevel) {
      relSoFar++;
      sum += 1 / Math.log2(3 + i - relSoFar);
    }
  }
  return relSoFar > 0 ? sum / numRel : 0;
}

export function normalizedGain(judged: JudgedRanking, gains: readonly ParamPair[] = []): number {
  const entries = gainTable(judged.levels, gains);
  const { rels, numRet } = judged;
  const minCost = 1;
  let resultsG = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  const ideal = new IdealGains(entries);
  let i = 0;
  for (; i < numRet && ideal.gain > 0; i++) {
    const g = gainOf(entries, rels[i]!);
    sumResults += g;
    ideal.advance();
    if (ideal.gain > 0) sumIdeal += ideal.gain;
    sumCost += Math.max(ideal.gain, minCost);
    if (g !== 0) resultsG += g / Math.log2(2 + sumCost - sumResults);
  }
  for (; i < numRet; i++) {
    const g = gainOf(entries, rels[i]!);
    sumResults += g;
    sumCost += minCost;
    if (g !== 0) resultsG += g / Math.log2(2 + sumCost - sumResults);
  }
  while (ideal.gain > 0) {
    ideal.advance();
    if (ideal.gain > 0) sumIdeal += ideal.gain;
  }
  return sumIdeal > 0 ? resultsG / sumIdeal : 0;
}
