/**
 * The engine's one ordering rule, used by every stage: score descending, then document id
 * DESCENDING in UTF-8 byte order — the tie rule of trec_eval (`comp_sim_docno`), so a TREC run
 * written by the engine ranks identically when trec_eval re-sorts it.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order equals UTF-8 byte order except around surrogates; take the fast path when safe.
  if (!/[\ud800-\udfff\ue000-\uffff]/.test(a + b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

export function byScoreThenDocIdDesc(a: { score: number; docId: string }, b: { score: number; docId: string }): number {
  return b.score - a.score || compareUtf8(b.docId, a.docId);
}

/**
 * Keeps the best `k` items under `compare` (negative = a ranks before b) without sorting them all.
 * Items must carry a `score`; `wouldAccept` lets hot loops skip building objects that cannot enter.
 */
export class TopK<T extends { score: number }> {
  private readonly items: T[] = [];

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  wouldAccept(score: number): boolean {
    if (this.k <= 0) return false;
    // Equal scores may still enter through the tie rule.
    return this.items.length < this.k || score >= this.items[this.items.length - 1]!.score;
  }

  push(item: T): void {
    const items = this.items;
    if (this.k <= 0) return;
    if (items.length >= this.k && this.compare(item, items[items.length - 1]!) >= 0) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(items[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
    if (items.length > this.k) items.pop();
  }

  sorted(): T[] {
    return this.items.slice();
  }
}
