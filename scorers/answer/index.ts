/**
 * The answer graders: deterministic grades of one answer (`engine.ask()`'s `AskResult`) against
 * its fixture case (`AskCase`), one file per grader, listed here in report order. No model is
 * involved: every score's metadata says `method: "heuristic"` (except where a judge decided
 * whether a free-text answer refused). Policies shared by all: grade.ts.
 *
 * | grader (Evalite name)                       | applies to cases with  | score                                                                  |
 * | ------------------------------------------- | ---------------------- | ---------------------------------------------------------------------- |
 * | answer-includes ("Answer includes")         | `expectedSubstrings`   | expected substrings the answer states / expected substrings            |
 * | answer-includes-any ("Answer includes one of") | `expectedSubstringsAny` | 1 when the answer states at least one of the alternatives, else 0  |
 * | answer-excludes ("Answer excludes")         | `forbiddenSubstrings`  | 1 when no forbidden substring occurs in the answer, else 0            |
 * | cites ("Cites required docs")               | `mustCite`             | mustCite docs cited (or a translation) / mustCite docs                |
 * | cites-only-surfaced ("Cites only surfaced") | every case             | 1 when every [n] in the answer points to a retrieved source, else 0   |
 * | no-citations ("No citations iff refused")   | every case             | refused: 1 when it carries no [n]; answered: 1 with ≥ 1 valid citation |
 * | refusal ("Refusal")                         | every case             | 1 when the answer refuses exactly when the case expects it, else 0    |
 * | topic-coverage ("Topic coverage")           | `expectedTopics`       | topics covered / topics (token overlap)                               |
 *
 * A new grader: one file beside these (its `defineGrader`, its score, its Evalite scorer, JSDoc
 * with When to use / When NOT to use, a test beside it), its id in `GraderId` (grade.ts) and one
 * entry below.
 */
import type { AskCase } from "../ask-case.js";
import { answerExcludesGrader } from "./answer-excludes.js";
import { answerIncludesGrader } from "./answer-includes.js";
import { answerIncludesAnyGrader } from "./answer-includes-any.js";
import { type CitesOptions, citesGrader } from "./cites.js";
import { citesOnlySurfacedGrader } from "./cites-only-surfaced.js";
import type { Grader, GraderId } from "./grade.js";
import { noCitationsGrader } from "./no-citations.js";
import { refusalGrader } from "./refusal.js";
import { topicCoverageGrader } from "./topic-coverage.js";

/** Every grader, in report order. `cites` reads its translation policy from the options; the others take none. */
export const GRADERS: Readonly<Record<GraderId, Grader<CitesOptions>>> = {
  "answer-includes": answerIncludesGrader,
  "answer-includes-any": answerIncludesAnyGrader,
  "answer-excludes": answerExcludesGrader,
  cites: citesGrader,
  "cites-only-surfaced": citesOnlySurfacedGrader,
  "no-citations": noCitationsGrader,
  refusal: refusalGrader,
  "topic-coverage": topicCoverageGrader,
};

/** The cases a grader applies to: give an eval only these, so no row needs a made-up score. */
export function casesFor<T extends AskCase>(grader: GraderId, cases: readonly T[]): T[] {
  return cases.filter((c) => GRADERS[grader].appliesTo(c));
}

export { answerExcludes, answerExcludesScore } from "./answer-excludes.js";
export { answerIncludes, answerIncludesScore } from "./answer-includes.js";
export { answerIncludesAny, answerIncludesAnyScore } from "./answer-includes-any.js";
export { type CitesOptions, cites, citesScore, translationsUnder } from "./cites.js";
export { citesOnlySurfaced, citesOnlySurfacedScore } from "./cites-only-surfaced.js";
export {
  type AskScorer,
  failedGrade,
  type Grade,
  type GradeMetadata,
  type Grader,
  type GraderId,
  type GraderInfo,
  type Method,
  NotApplicableError,
  round,
} from "./grade.js";
export { noCitations, noCitationsScore } from "./no-citations.js";
export { refusal, refusalScore } from "./refusal.js";
export { TOPIC_SHARE, topicCoverage, topicCoverageScore } from "./topic-coverage.js";
