/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
 * Condorcet and individual Rank Learning Methods", SIGIR 2009):
 *
 *   fused(d) = Σ_lists  weight_list / (k + rank_list(d)),   rank 1-based, k = 60 by default.
 *
 * Only ranks matter, so BM25 scores and cosines need no normalization. A document absent from a
 * list contributes nothing from it. Ties follow the engine's order (score, then doc id descending).
 */
import type { FusedCandidate, RankedList } from "./fusion.js";
import { byScoreThenDocIdDesc } from "./order.js";

export type { FusedCandidate, RankedList };

export function reciprocalRankFusion(lists: readonly RankedList[], k: number): FusedCandidate[] {
  if (!(k >= 0) || !Number.isFinite(k)) throw new RangeError(`Expected "rrfK" to be a finite number ≥ 0, got ${k}`);
  const fused = new Map<number, FusedCandidate>();
  for (const list of lists) {
    list.items.forEach((item, i) => {
      const rank = i + 1;
      let entry = fused.get(item.docIndex);
      if (!entry) {
        entry = { docIndex: item.docIndex, docId: item.docId, score: 0, passages: [], ranks: {} };
        fused.set(item.docIndex, entry);
      }
      entry.score += list.weight / (k + rank);
      entry.ranks[list.name] = rank;
      if (!entry.passages.includes(item.passageRowId)) entry.passages.push(item.passageRowId);
    });
  }
  return [...fused.values()].sort(byScoreThenDocIdDesc);
}
