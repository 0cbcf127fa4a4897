/**
 * trec_eval's gain table for the gain-based measures (`ndcg`, `dcg`, `ideal_dcg`, `ndcg_rel`,
 * `Rndcg`, `G`, `rbp`): every judged grade 0 … max gets gain = grade, overridden by
 * `grade=gain` parameters (e.g. `ndcg.1=3,2=9,4=4.5`); parameters whose name is not an integer
 * are ignored here (rbp's `p=0.95`).
 *
 * Entries are sorted by gain ascending with trec_eval's comparator, which truncates the gain
 * difference to an integer (so gains less than 1 apart compare equal), run through glibc's
 * merge sort: the ideal ranking of fractional custom gains then matches trec_eval's exactly.
 */
import type { LevelCount } from "./types.js";

/** A `name=value` measure parameter, e.g. `2=9` or `p=0.95`. */
export interface ParamPair {
  readonly name: string;
  readonly value: number;
}

export interface GainEntry {
  /** Judged grade this gain applies to. */
  readonly grade: number;
  /** Gain of a document with that grade. */
  gain: number;
  /** Judged documents of the topic with that grade (0 for parameters naming absent grades). */
  count: number;
}

const MAX_DENSE_GRADE = 10_000_000;

/** A judged grade beyond what the dense gain table holds: the qrels' problem, reported on the topic's line. */
export class GradeTooLargeError extends RangeError {
  override readonly name = "GradeTooLargeError";
}

export function gainTable(levels: readonly LevelCount[], pairs: readonly ParamPair[] = []): GainEntry[] {
  const entries: GainEntry[] = [];
  for (const { name, value } of pairs) {
    if (/^[+-]?\d+$/.test(name)) entries.push({ grade: Number.parseInt(name, 10), gain: value, count: 0 });
  }
  const numGrades = levels.length === 0 ? 0 : levels[levels.length - 1]!.grade + 1;
  if (numGrades > MAX_DENSE_GRADE)
    throw new GradeTooLargeError(`judged grade ${numGrades - 1} is too large for gain-based measures (max ${MAX_DENSE_GRADE})`);
  let next = 0;
  for (let grade = 0; grade < numGrades; grade++) {
    let count = 0;
    if (next < levels.length && levels[next]!.grade === grade) count = levels[next++]!.count;
    const given = entries.find((e) => e.grade === grade);
    if (given) given.count = count;
    else entries.push({ grade, gain: grade, count });
  }
  glibcMergeSort(entries, (a, b) => Math.trunc(a.gain - b.gain));
  return entries;
}

/**
 * Walks the ideal ranking of a gain table: the highest-gain entry first, `count` documents per
 * entry, down to the first gain ≤ 0 (trec_eval's cur_level / num_at_level loop). `gain` is the
 * ideal gain at the current position; `advance()` moves to the next position.
 */
export class IdealGains {
  private level: number;
  private atLevel = 0;
  gain: number;
  constructor(private readonly entries: readonly GainEntry[]) {
    this.level = entries.length - 1;
    this.gain = this.level >= 0 ? entries[this.level]!.gain : 0;
  }
  advance(): void {
    this.atLevel++;
    while (this.level >= 0 && this.atLevel > this.entries[this.level]!.count) {
      this.atLevel = 1;
      this.level--;
      this.gain = this.level >= 0 ? this.entries[this.level]!.gain : 0;
    }
  }
}

/** Gain of a grade: the first entry (in sorted order) for it, else 0. */
export function gainOf(entries: readonly GainEntry[], grade: number): number {
  for (const e of entries) if (e.grade === grade) return e.gain;
  return 0;
}

/** glibc's qsort merge step (msort_with_tmp): halves of n/2 and n − n/2, left wins ties. */
function glibcMergeSort<T>(items: T[], cmp: (a: T, b: T) => number): void {
  const tmp = new Array<T>(items.length);
  const sort = (lo: number, n: number): void => {
    if (n <= 1) return;
    let n1 = n >>> 1;
    let n2 = n - n1;
    sort(lo, n1);
    sort(lo + n1, n2);
    let i = lo;
    let j = lo + n1;
    let k = 0;
    while (n1 > 0 && n2 > 0) {
      if (cmp(items[i]!, items[j]!) <= 0) {
        tmp[k++] = items[i++]!;
        n1--;
      } else {
        tmp[k++] = items[j++]!;
        n2--;
      }
    }
    while (n1-- > 0) tmp[k++] = items[i++]!;
    for (let t = 0; t < k; t++) items[lo + t] = tmp[t]!;
  };
  sort(0, items.length);
}

const log2Cache: number[] = [];
/** log2(i + 2): the DCG discount of 0-based position i, cached. */
export function discount(i: number): number {
  let d = log2Cache[i];
  if (d === undefined) {
    for (let j = log2Cache.length; j <= i; j++) log2Cache[j] = Math.log2(j + 2);
    d = log2Cache[i]!;
  }
  return d;
}
