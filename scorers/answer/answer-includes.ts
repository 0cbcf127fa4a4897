/**
 * answer-includes ("Answer includes"): the share of the case's `expectedSubstrings` the answer
 * states, matched as scorers/text/contains-fact.ts says (grading form, a fact starts a word, its
 * last word may continue, numbers whole), citation markers removed first so `[10]` never passes
 * for the fact "10".
 *
 * **When to use:** facts a correct answer must state literally (numbers, names, addresses,
 * identifiers).
 * **When NOT to use:** for wording that can vary (use topic coverage or the judge); only for
 * cases with `expectedSubstrings` (`casesFor("answer-includes", cases)`); others throw.
 */
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { FACT_MATCHING, findFacts } from "../text/contains-fact.js";
import { type AskScorer, defineGrader, nonEmpty, scorerFor } from "./grade.js";

export const answerIncludesGrader = defineGrader(
  "answer-includes",
  {
    name: "Answer includes",
    definition:
      "expected substrings found in the answer / expected substrings (grading form: case, diacritics, numbers and punctuation folded; a fact starts a word, numbers whole)",
    needs: "expectedSubstrings",
    appliesTo: (c) => nonEmpty(c.expectedSubstrings),
  },
  (c, result) => {
    const { found, missing } = findFacts(stripCitationMarkers(result.answer), c.expectedSubstrings!);
    return [found.length / c.expectedSubstrings!.length, { found, missing, refused: isRefused(result), matching: FACT_MATCHING }];
  },
);

export const answerIncludesScore = answerIncludesGrader.score;

/** "Answer includes": share of the case's expected substrings the answer states. */
export const answerIncludes = (): AskScorer => scorerFor(answerIncludesGrader, answerIncludesScore);
