/**
 * Fusion of ranked lists into one candidate list, by a convex combination of normalized scores
 * (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023):
 *
 *   fused(d) = Σ_lists weight_list · norm_list(d) / Σ_lists weight_list
 *
 * where norm_list maps the list's scores onto [0, 1] by min–max over the list (its best document
 * 1, its last 0) and a document absent from a list gets 0 from it. Unlike reciprocal rank fusion,
 * the combination keeps score gaps: near-equal scores at the top of a list (a weak retriever's
 * cosines) move their documents little, and a clear BM25 winner stays a winner. A list
 * with no documents takes no part (its weight is not counted). Ties follow the engine's order
 * (score, then doc id descending).
 */
import type { DocCandidate } from "./bm25.js";
import { byScoreThenDocIdDesc } from "./order.js";

export interface RankedList {
  /** Name shown in the trace (`bm25`, `vector`, `bm25:expansion 2`…). */
  name: string;
  weight: number;
  items: readonly DocCandidate[];
}

export interface FusedCandidate {
  docIndex: number;
  docId: string;
  score: number;
  /** Passage rowids that stood for this document in any list, best-ranked list first. */
  passages: number[];
  /** Rank of the document in each list it appeared in. */
  ranks: Record<string, number>;
}

/** Min–max normalized scores of a list, in list order: best 1, worst 0 (all 1 when they are equal). */
export function minMaxNormalized(items: readonly DocCandidate[]): number[] {
  if (items.length === 0) return [];
  let max = -Infinity;
  let min = Infinity;
  for (const item of items) {
    if (item.score > max) max = item.score;
    if (item.score < min) min = item.score;
  }
  const span = max - min;
  return items.map((item) => (span > 0 ? (item.score - min) / span : 1));
}

export function convexFusion(lists: readonly RankedList[]): FusedCandidate[] {
  const fused = new Map<number, FusedCandidate>();
  const total = lists.reduce((sum, list) => sum + (list.items.length > 0 ? list.weight : 0), 0);
  if (total <= 0) return [];
  for (const list of lists) {
    const normalized = minMaxNormalized(list.items);
    list.items.forEach((item, i) => {
      let entry = fused.get(item.docIndex);
      if (!entry) {
        entry = { docIndex: item.docIndex, docId: item.docId, score: 0, passages: [], ranks: {} };
        fused.set(item.docIndex, entry);
      }
      entry.score += (list.weight * normalized[i]!) / total;
      entry.ranks[list.name] = i + 1;
      if (!entry.passages.includes(item.passageRowId)) entry.passages.push(item.passageRowId);
    });
  }
  return [...fused.values()].sort(byScoreThenDocIdDesc);
}

/** Weights of one retriever's lists when some come from expanded queries. */
export interface FamilyWeights {
  /** The original query's list. */
  original: number;
  /** Each expanded query's list. */
  variant: number;
}

/**
 * An expanded query is a guess at the user's words: the lists of one retriever's `variants`
 * expanded queries together weigh `expansionWeight` times its original list, however many there
 * are, and the retriever keeps the total `weight` it has without them — so expansion never shifts
 * the balance between BM25 and vectors, and four guesses do not outvote the query.
 */
export function familyWeights(weight: number, variants: number, expansionWeight: number): FamilyWeights {
  if (variants === 0) return { original: weight, variant: 0 };
  const original = weight / (1 + expansionWeight);
  return { original, variant: (original * expansionWeight) / variants };
}
