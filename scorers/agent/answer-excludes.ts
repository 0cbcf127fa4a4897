/**
 * answer-excludes: the answer does not state `text` (matched as answer-includes matches), the words
 * its citation markers quote included. Fails as `contains forbidden "every plan is free"`.
 *
 * **When to use:** what following an injected instruction would produce, a claim the documents
 * contradict.
 * **When NOT to use:** for anything a correct answer could state in passing.
 */
import { containsFact } from "../text/contains-fact.js";
import { answerText, defineExpectation } from "./expectation.js";

export const answerExcludes = defineExpectation("answer-excludes", "the answer does not state the text", (turn, e) =>
  containsFact(answerText(turn), e.text)
    ? { pass: false, fact: `contains forbidden ${JSON.stringify(e.text)}` }
    : { pass: true, fact: `does not state ${JSON.stringify(e.text)}` },
);
