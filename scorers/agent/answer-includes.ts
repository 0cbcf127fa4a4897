/**
 * answer-includes: the answer states `text`, matched as scorers/text/contains-fact.ts says
 * (grading form; a fact starts a word, its last word may continue, numbers whole), citation
 * markers removed. Fails as `missing "14,99"`.
 *
 * **When to use:** a fact the answer must state literally: a price, a path, a name.
 * **When NOT to use:** for wording that can vary.
 */
import { containsFact } from "../text/contains-fact.js";
import { answerText, defineExpectation } from "./expectation.js";

export const answerIncludes = defineExpectation("answer-includes", "the answer states the text (grading form, numbers whole)", (turn, e) =>
  containsFact(answerText(turn), e.text)
    ? { pass: true, fact: `states ${JSON.stringify(e.text)}` }
    : { pass: false, fact: `missing ${JSON.stringify(e.text)}` },
);
