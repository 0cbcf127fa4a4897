/**
 * What the answer graders grade: one question with its expectations (a record of
 * `fixtures/ask-cases.json`, or of a user's own answer cases), and the text forms the fixture lints
 * compare in.
 * Loading and validating the records is helpers/fixture-files.ts's job; the graders only read them.
 */
import { gradingForm } from "./text/normalize.js";

/** Languages the fixture corpus is written in. */
export type Language = "en" | "de" | "fr" | "it";

export const ASK_CATEGORIES = ["answerable", "multi-document", "adversarial", "off-corpus", "injection"] as const;
export type AskCategory = (typeof ASK_CATEGORIES)[number];

/**
 * One question and its expectations. The fixture corpus's cases carry every field (its schema);
 * a user's dataset may leave out `language`, `category` and `note` (helpers/datasets/).
 */
export interface AskCase {
  id: string;
  question: string;
  /** The question's language (BCP 47), when the dataset says; graders detect it otherwise. */
  language?: string;
  /** The fixture categories (`AskCategory`), or a user dataset's own; it slices the floors. */
  category?: string;
  /** Facts a correct answer states (matched by text/contains-fact.ts: grading form, numbers whole). */
  expectedSubstrings?: string[];
  /** Content a correct answer never contains. */
  forbiddenSubstrings?: string[];
  /** Topics a complete answer covers. */
  expectedTopics?: string[];
  /** Documents (ids) a correct answer cites. */
  mustCite?: string[];
  /** True when the corpus does not hold the answer: the answerer must refuse. */
  expectedRefusal?: boolean;
  /** A reference answer (a golden set's expected answer): reference text for the judge and the golden-set warning, never matched as a fact. */
  referenceAnswer?: string;
  note?: string;
}

/** NFC and lower case only: the looser form in which fixture lints look for a fact in a document (the graders match with text/contains-fact.ts). */
export function normalizeForMatch(text: string): string {
  return text.normalize("NFC").toLowerCase();
}

/** The grading form (text/normalize.ts), in which phrases are matched: two phrases with one form are the same phrase. */
export function matchForm(text: string): string {
  return gradingForm(text);
}

/** Letters and digits only, NFKC, lower case: how spellings of an identifier compare (`DEC-0054` = `dec 0054`). */
export function lettersAndDigits(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}
