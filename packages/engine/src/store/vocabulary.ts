/**
 * The index vocabulary (FTS5 `fts5vocab` over the passage index): document frequencies for IDF,
 * and near spellings for the expander. The full term list loads lazily, once per index version.
 */
import type { Statement } from "better-sqlite3";
import type { Vocabulary } from "../types.js";
import type { Db } from "./database.js";

export class IndexVocabulary implements Vocabulary {
  private readonly dfStatement: Statement<[string], number>;
  private byLength: Map<number, Array<[string, number]>> | undefined;

  private phraseStatement: Statement<[string], number> | undefined;

  constructor(
    private readonly db: Db,
    readonly languages: readonly string[],
    /** Number of passages, N in the IDF formula. */
    readonly passageCount: number,
  ) {
    this.dfStatement = db.prepare("SELECT doc FROM passages_vocab WHERE term = ?").pluck() as Statement<[string], number>;
  }

  documentFrequency(term: string): number {
    return this.dfStatement.get(term) ?? 0;
  }

  /** Whether some passage holds the term, or the phrase of several terms. */
  occurs(tokens: readonly string[]): boolean {
    if (tokens.some((t) => this.documentFrequency(t) === 0)) return false;
    if (tokens.length === 1) return true;
    this.phraseStatement ??= this.db.prepare("SELECT rowid FROM passages_fts WHERE passages_fts MATCH ? LIMIT 1").pluck() as Statement<
      [string],
      number
    >;
    return this.phraseStatement.get(`"${tokens.join(" ").replace(/"/g, '""')}"`) !== undefined;
  }

  /** BM25's IDF, ln(1 + (N − df + 0.5) / (df + 0.5)), the same shape FTS5 uses. */
  idf(term: string): number {
    const df = this.documentFrequency(term);
    const n = this.passageCount;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  similarTerms(term: string, maxEdits: number): string[] {
    if (!this.byLength) {
      this.byLength = new Map();
      for (const [t, df] of this.db.prepare("SELECT term, doc FROM passages_vocab").raw().iterate() as IterableIterator<[string, number]>) {
        const list = this.byLength.get(t.length);
        if (list) list.push([t, df]);
        else this.byLength.set(t.length, [[t, df]]);
      }
    }
    const found: Array<[string, number, number]> = [];
    for (let len = term.length - maxEdits; len <= term.length + maxEdits; len++) {
      for (const [candidate, df] of this.byLength.get(len) ?? []) {
        if (candidate === term) continue;
        const d = boundedDamerau(term, candidate, maxEdits);
        if (d <= maxEdits) found.push([candidate, d, df]);
      }
    }
    found.sort((a, b) => a[1] - b[1] || b[2] - a[2] || (a[0] < b[0] ? -1 : 1));
    return found.map((f) => f[0]);
  }
}

/** Optimal-string-alignment distance, or maxEdits + 1 as soon as it must exceed maxEdits. */
export function boundedDamerau(a: string, b: string, maxEdits: number): number {
  if (Math.abs(a.length - b.length) > maxEdits) return maxEdits + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > maxEdits) return maxEdits + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}
