/**
 * The single place where a ranking is ordered, truncated and joined with judgments
 * (trec_eval's form_res_rels). Metrics never see raw scores, files or document ids.
 *
 * Order: score descending; equal scores are ordered by document id DESCENDING in UTF-8 byte
 * order (trec_eval compares docnos with strcmp). The rank column of a run file plays no part.
 * Truncation: after ordering, only the first `maxDepth` documents are kept (trec_eval -M).
 * Join: a document absent from the topic's judgments gets `NOT_JUDGED`; a negative judgment
 * gets `UNJUDGED_IN_POOL`; otherwise its grade. Relevant means grade ≥ relevanceLevel.
 * A document id that appears twice in one ranking is an error (`DuplicateDocumentError`).
 */
import { quote } from "./formats/format-error.js";
import { NOT_JUDGED, UNJUDGED_IN_POOL, type JudgedRanking, type LevelCount, type TopicQrels } from "./types.js";

/** A ranking that is already in rank order (e.g. the engine's output); it is not re-sorted. */
export interface RankedDocs {
  readonly docIds: readonly string[];
}

/** A scored run for one topic, in any order; it is sorted by score here. */
export interface ScoredDocs {
  readonly docIds: readonly string[];
  readonly scores: ArrayLike<number>;
  /** How many entries of docIds/scores are used (buffers may be longer). @default docIds.length */
  readonly count?: number;
}

export interface JudgeOptions {
  /** Minimum grade that counts as relevant (trec_eval -l). @default 1 */
  readonly relevanceLevel?: number;
  /** Keep only the first N documents after ordering (trec_eval -M). @default Infinity */
  readonly maxDepth?: number;
}

/** Thrown when one document id appears twice in a topic's ranking; indexes are input positions. */
export class DuplicateDocumentError extends Error {
  override readonly name = "DuplicateDocumentError";
  constructor(
    readonly docId: string,
    readonly firstIndex: number,
    readonly secondIndex: number,
  ) {
    super(`document "${quote(docId)}" appears twice in one ranking (positions ${firstIndex + 1} and ${secondIndex + 1})`);
  }
}

/**
 * UTF-8 byte order of two ids, as trec_eval's `strcmp` on docnos. UTF-16 code-unit order equals
 * code-point order (and so UTF-8 byte order) except where a surrogate meets U+E000–U+FFFF: at the
 * first differing unit, compare whole code points. A differing low surrogate follows an equal high
 * one, so comparing the low surrogates alone is still code-point order.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  return a.codePointAt(i)! - b.codePointAt(i)!;
}

/** Rank order of a scored run: indexes sorted by score desc, ties by docId desc (UTF-8 bytes). */
export function rankByScore(docIds: readonly string[], scores: ArrayLike<number>, count: number): Int32Array {
  const order = new Int32Array(count);
  let sorted = true;
  for (let i = 0; i < count; i++) {
    order[i] = i;
    if (i > 0 && sorted) {
      const prev = scores[i - 1]!;
      const cur = scores[i]!;
      if (prev < cur || (prev === cur && compareUtf8(docIds[i - 1]!, docIds[i]!) < 0)) sorted = false;
    }
  }
  if (sorted) return order; // Runs written in rank order (the usual case) need no sort.
  return order.sort((a, b) => {
    const sa = scores[a]!;
    const sb = scores[b]!;
    if (sa !== sb) return sa > sb ? -1 : 1;
    return compareUtf8(docIds[b]!, docIds[a]!);
  });
}

/** Prepares one topic's judgments: docId → grade plus the per-grade counts metrics need. */
export function topicQrels(grades: ReadonlyMap<string, number> | Readonly<Record<string, number>>): TopicQrels {
  const map = grades instanceof Map ? (grades as ReadonlyMap<string, number>) : new Map(Object.entries(grades));
  const counts = new Map<number, number>();
  for (const [docId, grade] of map) {
    if (!Number.isInteger(grade)) throw new TypeError(`grade of "${docId}" must be an integer, got ${grade}`);
    if (grade >= 0) counts.set(grade, (counts.get(grade) ?? 0) + 1);
  }
  const levels: LevelCount[] = [...counts].map(([grade, count]) => ({ grade, count })).sort((a, b) => a.grade - b.grade);
  return { grades: map, levels };
}

const reusableSeen = new Set<string>();

/**
 * Joins a ranking with one topic's judgments. A `ScoredDocs` input is first put in rank order
 * (score desc, ties by docId desc); a `RankedDocs` input is taken in the order given.
 */
export function judgedRanking(docs: RankedDocs | ScoredDocs, qrels: TopicQrels, options: JudgeOptions = {}): JudgedRanking {
  const relevanceLevel = options.relevanceLevel ?? 1;
  const maxDepth = options.maxDepth ?? Infinity;
  if (!Number.isInteger(relevanceLevel) || relevanceLevel < 0) {
    throw new RangeError(`relevanceLevel must be an integer >= 0, got ${relevanceLevel}`);
  }
  if (!(maxDepth >= 1)) throw new RangeError(`maxDepth must be >= 1, got ${maxDepth}`);
  const { docIds } = docs;
  const count = "scores" in docs ? (docs.count ?? docIds.length) : docIds.length;
  const order = "scores" in docs ? rankByScore(docIds, docs.scores, count) : null;

  const seen = reusableSeen;
  seen.clear();
  for (let i = 0; i < count; i++) {
    const id = docIds[i]!;
    if (seen.has(id)) {
      seen.clear();
      throw new DuplicateDocumentError(id, docIds.indexOf(id), i);
    }
    seen.add(id);
  }
  seen.clear();

  const numRet = Math.min(count, maxDepth);
  const rels = new Int32Array(numRet);
  const grades = qrels.grades;
  let numRelRet = 0;
  let numNotJudged = 0;
  let numUnjudgedInPool = 0;
  for (let rank = 0; rank < numRet; rank++) {
    const grade = grades.get(docIds[order === null ? rank : order[rank]!]!);
    if (grade === undefined) {
      rels[rank] = NOT_JUDGED;
      numNotJudged++;
    } else if (grade < 0) {
      rels[rank] = UNJUDGED_IN_POOL;
      numUnjudgedInPool++;
    } else {
      rels[rank] = grade;
      if (grade >= relevanceLevel) numRelRet++;
    }
  }
  return withCounts(rels, qrels.levels, relevanceLevel, { numRelRet, numNotJudged, numUnjudgedInPool });
}

/**
 * The ranking trec_eval scores for a judged topic that has no results when -c is given: one
 * retrieved document that is not in the judgments (trec_eval 10.0 ranks a dummy docno).
 */
export function placeholderRanking(qrels: TopicQrels, relevanceLevel = 1): JudgedRanking {
  return withCounts(Int32Array.of(NOT_JUDGED), qrels.levels, relevanceLevel, { numRelRet: 0, numNotJudged: 1, numUnjudgedInPool: 0 });
}

function withCounts(
  rels: Int32Array,
  levels: readonly LevelCount[],
  relevanceLevel: number,
  counts: { numRelRet: number; numNotJudged: number; numUnjudgedInPool: number },
): JudgedRanking {
  let numRel = 0;
  for (const { grade, count } of levels) if (grade >= relevanceLevel) numRel += count;
  return { rels, numRet: rels.length, numRel, ...counts, levels, relevanceLevel };
}
