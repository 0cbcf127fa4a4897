/**
 * answer-excludes ("Answer excludes"): 1 when the answer states none of the case's
 * `forbiddenSubstrings`, else 0, naming what it found; matched as answer-includes matches.
 *
 * **When to use:** content a correct answer never states: an injected instruction's claim, a
 * superseded value.
 * **When NOT to use:** as a sign of quality on its own (an empty or refused answer states nothing
 * forbidden); only for cases with `forbiddenSubstrings`.
 */
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { FACT_MATCHING, findFacts } from "../text/contains-fact.js";
import { type AskScorer, defineGrader, nonEmpty, scorerFor } from "./grade.js";

export const answerExcludesGrader = defineGrader(
  "answer-excludes",
  {
    name: "Answer excludes",
    definition: "1 when no forbidden substring occurs in the answer, else 0",
    needs: "forbiddenSubstrings",
    appliesTo: (c) => nonEmpty(c.forbiddenSubstrings),
  },
  (c, result) => {
    const { found } = findFacts(stripCitationMarkers(result.answer), c.forbiddenSubstrings!);
    return [found.length === 0 ? 1 : 0, { found, checked: c.forbiddenSubstrings, refused: isRefused(result), matching: FACT_MATCHING }];
  },
);

export const answerExcludesScore = answerExcludesGrader.score;

/** "Answer excludes": 1 when the answer contains none of the case's forbidden substrings. */
export const answerExcludes = (): AskScorer => scorerFor(answerExcludesGrader, answerExcludesScore);
