/**
 * answer-includes-any ("Answer includes one of"): 1 when the answer states at least one of the
 * case's `expectedSubstringsAny`, else 0, naming what it found; matched as answer-includes matches
 * (grading form, a fact starts a word, numbers whole, citation markers removed first).
 *
 * This is a golden Q&A set's any-of mode: where a question can be answered in more than one
 * wording ("BM25" or "Okapi BM25" or "best matching 25"), the set lists the alternatives and an
 * answer that names any one of them holds. A case may carry both: every `expectedSubstrings` and
 * at least one `expectedSubstringsAny` (the question verdict holds both, verdict.ts).
 *
 * **When to use:** alternative wordings of one required fact.
 * **When NOT to use:** for facts that must all be stated (`expectedSubstrings`, answer-includes);
 * only for cases with `expectedSubstringsAny` (`casesFor("answer-includes-any", cases)`).
 */
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { FACT_MATCHING, findFacts } from "../text/contains-fact.js";
import { type AskScorer, defineGrader, nonEmpty, scorerFor } from "./grade.js";

export const answerIncludesAnyGrader = defineGrader(
  "answer-includes-any",
  {
    name: "Answer includes one of",
    definition:
      "1 when the answer states at least one of the expected alternatives, else 0 (grading form: case, diacritics, numbers and punctuation folded; a fact starts a word, numbers whole)",
    needs: "expectedSubstringsAny",
    appliesTo: (c) => nonEmpty(c.expectedSubstringsAny),
  },
  (c, result) => {
    const { found, missing } = findFacts(stripCitationMarkers(result.answer), c.expectedSubstringsAny!);
    return [found.length > 0 ? 1 : 0, { found, missing, refused: isRefused(result), matching: FACT_MATCHING }];
  },
);

export const answerIncludesAnyScore = answerIncludesAnyGrader.score;

/** "Answer includes one of": 1 when the answer states at least one of the case's alternatives. */
export const answerIncludesAny = (): AskScorer => scorerFor(answerIncludesAnyGrader, answerIncludesAnyScore);
