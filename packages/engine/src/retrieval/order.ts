/**
 * The engine's one ordering rule, used by every stage: score descending, then document id
 * DESCENDING in UTF-8 byte order — the tie rule of trec_eval (`comp_sim_docno`), so a TREC run
 * written by the engine ranks identically when trec_eval re-sorts it.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // UTF-16 and UTF-8 orders agree except that surrogates (astral code points) sort above
      // U+E000–U+FFFF in UTF-8: shift them past that range before comparing.
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
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
