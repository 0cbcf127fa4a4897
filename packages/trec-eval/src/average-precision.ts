/**
 * Average precision (trec_eval `map`, `gm_map` per topic) and AP at cut-offs (`map_cut`).
 *
 * Formula: AP = (Σ over relevant retrieved docs d of P@rank(d)) / R, where R is the number of
 *   judged-relevant documents of the topic (retrieved or not). Relevant documents never
 *   retrieved contribute 0. map_cut@k sums only the relevant documents within the top k.
 * Relevant: grade ≥ relevanceLevel (default 1, `-l`).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than k results: map_cut@k uses the ranks that exist.
 * No relevant documents: 0. Averaging (MAP, geometric gm_map) is done in aggregate.ts.
 */
import { assertCutoffs } from "./relevant-at-cutoffs.js";
import type { JudgedRanking } from "./types.js";

/** Σ over relevant retrieved docs of P@rank(d) (AP's numerator, also yaap's S). */
export function precisionSumAtRelevant(judged: JudgedRanking): number {
  const { rels, relevanceLevel } = judged;
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rels.length; i++) {
    if (rels[i]! >= relevanceLevel) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
  }
  return sum;
}

export function averagePrecision(judged: JudgedRanking): number {
  const sum = precisionSumAtRelevant(judged);
  return sum > 0 ? sum / judged.numRel : 0;
}

export function averagePrecisionCut(judged: JudgedRanking, cutoffs: readonly number[]): number[] {
  assertCutoffs(cutoffs);
  if (judged.numRel === 0) return cutoffs.map(() => 0);
  const { rels, relevanceLevel } = judged;
  const out = new Array<number>(cutoffs.length);
  let relSoFar = 0;
  let sum = 0;
  let i = 0;
  for (let c = 0; c < cutoffs.length; c++) {
    const end = Math.min(cutoffs[c]!, rels.length);
    for (; i < end; i++) {
      if (rels[i]! >= relevanceLevel) {
        relSoFar++;
        sum += relSoFar / (i + 1);
      }
    }
    out[c] = sum / judged.numRel;
  }
  return out;
}
