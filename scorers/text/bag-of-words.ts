/**
 * The bag-of-words reference row of a judge calibration: the simplest lexical score a judged
 * metric could have, computed on the same items as the judge methods so a reader sees at once
 * whether a judge beats it. Deliberately naive — no normalizer beyond NFKC and lower case, no
 * stemming, no function words dropped, no numbers or names weighted: what anyone would write first.
 *
 * A **word** is a run of letters, marks and digits (`\p{L}\p{M}\p{N}`), NFKC and lower case; each
 * distinct word of a text counts once. `bagOfWordsShare(text, evidence)` = the share of the text's
 * distinct words that occur anywhere in the evidence; 0 for a text without words.
 *
 * Per judged metric, the text and the evidence are the two things the metric relates:
 *
 * | metric | text | evidence |
 * | --- | --- | --- |
 * | faithfulness | the answer (citation markers removed) | the contexts |
 * | answer relevance | the question | the answer |
 * | context relevance | the question | the contexts |
 * | answer correctness | the reference answer | the answer |
 * | topic coverage | the expected topics | the answer |
 */
import { stripCitationMarkers } from "./citations.js";

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The distinct words of a text (module comment). */
export function bagOfWords(text: string): Set<string> {
  return new Set(text.normalize("NFKC").toLowerCase().match(WORD) ?? []);
}

/** The share of the text's distinct words found in the evidence; 0 when the text has none. */
export function bagOfWordsShare(text: string, evidence: readonly string[]): number {
  const words = bagOfWords(text);
  if (words.size === 0) return 0;
  const found = bagOfWords(evidence.join("\n"));
  let hits = 0;
  for (const w of words) if (found.has(w)) hits++;
  return hits / words.size;
}

/** What a judged metric relates, in plain text. */
export interface ReferenceItem {
  question: string;
  answer: string;
  contexts: readonly string[];
  reference?: string;
  topics?: readonly string[];
}

/** The bag-of-words score of one metric of an item (the table in the module comment); null when the item lacks what the metric relates (no context text for faithfulness and context relevance, no reference, no topics). */
export function bagOfWordsScore(metric: string, item: ReferenceItem): number | null {
  const answer = stripCitationMarkers(item.answer);
  // As the metrics themselves (scorers/observed.ts): no context text, nothing to read the answer against.
  const noContext = item.contexts.every((c) => c === "");
  switch (metric) {
    case "faithfulness":
      return noContext ? null : bagOfWordsShare(answer, item.contexts);
    case "answer-relevance":
      return bagOfWordsShare(item.question, [answer]);
    case "context-relevance":
      return noContext ? null : bagOfWordsShare(item.question, item.contexts);
    case "answer-correctness":
      return item.reference === undefined ? null : bagOfWordsShare(item.reference, [answer]);
    case "topic-coverage":
      return item.topics === undefined || item.topics.length === 0 ? null : bagOfWordsShare(item.topics.join("\n"), [answer]);
    default:
      return null;
  }
}
