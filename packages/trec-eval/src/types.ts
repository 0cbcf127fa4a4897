/**
 * Shared types of the IR metric engine. Every metric reads a `JudgedRanking` (built only by
 * `judged-ranking.ts`) and returns plain numbers; nothing here knows about files.
 */

/** Relevance code of a retrieved document that is absent from the topic's judgments. */
export const NOT_JUDGED = -1;
/** Relevance code of a retrieved document whose judgment is negative ("in the pool, unjudged"). */
export const UNJUDGED_IN_POOL = -2;

/**
 * The largest grade (in absolute value) a qrels line may hold, and so the largest -l and the
 * largest grade a gain parameter may name: C's 32-bit int range, which any trec_eval build reads.
 */
export const MAX_GRADE = 2 ** 31 - 1;

/** How many judged documents a topic has at one grade (grade ≥ 0, count ≥ 1). */
export interface LevelCount {
  /** The judged grade, an integer ≥ 0. @example 2 */
  readonly grade: number;
  /** Number of judged documents of the topic with exactly this grade, ≥ 1. */
  readonly count: number;
}

/** The judgments of one topic, prepared once and shared by every ranking scored against it. */
export interface TopicQrels {
  /** docId → grade. Negative grades mean "in the pool but not judged" (trec_eval convention). */
  readonly grades: ReadonlyMap<string, number>;
  /** Judged documents per grade ≥ 0, ascending by grade; grades with no document are absent. */
  readonly levels: readonly LevelCount[];
}

/**
 * One topic's ranking joined with its judgments: the only input a metric sees.
 * Built by `judgedRanking()`, which sorts (score desc, ties by docId bytes desc), truncates at
 * the depth limit and looks each document up in the judgments.
 */
export interface JudgedRanking {
  /**
   * Relevance code per rank (index 0 = rank 1): the judged grade (≥ 0), `NOT_JUDGED` (−1) for a
   * document absent from the judgments, or `UNJUDGED_IN_POOL` (−2) for a negative judgment.
   */
  readonly rels: Int32Array;
  /** Number of retrieved documents after depth truncation (= rels.length). */
  readonly numRet: number;
  /** Judged documents of the topic with grade ≥ relevanceLevel, retrieved or not. */
  readonly numRel: number;
  /** Retrieved documents with grade ≥ relevanceLevel. */
  readonly numRelRet: number;
  /** Retrieved documents absent from the judgments. */
  readonly numNotJudged: number;
  /** Retrieved documents with a negative judgment. */
  readonly numUnjudgedInPool: number;
  /** The topic's judged documents per grade ≥ 0 (see `TopicQrels.levels`). */
  readonly levels: readonly LevelCount[];
  /** Minimum grade that counts as relevant. @default 1 */
  readonly relevanceLevel: number;
}
