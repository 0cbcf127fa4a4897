/**
 * What every drafted answer case is held to, whoever drafted it (the offline rules or a model),
 * before it is kept, and again once the draft folder is written and read back:
 *
 * - it expects at least one fact, and cites the document(s) it was drawn from;
 * - every expected fact occurs, as written, in the quote (or, for a multi-document case, in one
 *   of its quotes), and every quote occurs, as written, in the text of the document it names;
 * - the question does not state any expected fact (matched as the graders match a fact in an
 *   answer, scorers/text/contains-fact.ts): a question that quotes its answer tests nothing.
 *
 * And across drafts: two questions whose words are nearly the same (Jaccard ≥ 0.8 over their
 * grading-form words) are one question; the later one is dropped, as is a draft whose question an
 * existing case of the dataset already asks (same grading form).
 */
import { containsFact } from "../../scorers/text/contains-fact.js";
import { gradingForm } from "../../scorers/text/normalize.js";

/** An answer draft's evidence: the documents it cites, each with its quote. */
export interface DraftEvidence {
  question: string;
  expected: readonly string[];
  sources: ReadonlyArray<{ docId: string; quote: string }>;
}

/** Why a draft fails the checks (one line), or null when it holds. `text(docId)`: the document's text, or undefined when there is none. */
export function draftProblem(draft: DraftEvidence, text: (docId: string) => string | undefined): string | null {
  if (draft.expected.length === 0) return "expects no fact";
  if (draft.sources.length === 0) return "cites no document";
  for (const { docId, quote } of draft.sources) {
    const body = text(docId);
    if (body === undefined) return `cites ${JSON.stringify(docId)}, which is not a document of the corpus`;
    if (quote.trim() === "") return `its quote from ${docId} is empty`;
    if (!body.includes(quote)) return `its quote is not in ${docId} as written: ${JSON.stringify(clip(quote))}`;
  }
  for (const fact of draft.expected) {
    if (fact.trim() === "" || gradingForm(fact) === "") return `expects an empty fact ${JSON.stringify(fact)}`;
    if (!draft.sources.some((s) => s.quote.includes(fact))) return `expects ${JSON.stringify(fact)}, which is in none of its quotes`;
    if (containsFact(draft.question, fact)) return `its question states its answer ${JSON.stringify(fact)}`;
  }
  if (gradingForm(draft.question).length < 8) return "its question is too short to ask anything";
  return null;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The words of a question in grading form: what near-duplicates are compared by. */
export function questionWords(question: string): Set<string> {
  return new Set(gradingForm(question).match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Jaccard similarity of two word sets. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

export const NEAR_DUPLICATE = 0.8;

/**
 * Near-duplicate detection over the questions kept so far: a word index, so that a new question is
 * compared only with the kept questions that share a word with it.
 */
export class QuestionSet {
  private readonly kept: Array<Set<string>> = [];
  private readonly byWord = new Map<string, number[]>();
  private readonly exact = new Set<string>();

  /** Whether `question` is asked already, exactly (same grading form) or nearly (Jaccard ≥ 0.8). */
  matches(question: string): boolean {
    if (this.exact.has(gradingForm(question))) return true;
    const words = questionWords(question);
    const seen = new Set<number>();
    for (const w of words)
      for (const i of this.byWord.get(w) ?? []) {
        if (seen.has(i)) continue;
        seen.add(i);
        if (jaccard(words, this.kept[i]!) >= NEAR_DUPLICATE) return true;
      }
    return false;
  }

  /** Adds `question` unless it is asked already, exactly or nearly; returns whether it was added. */
  add(question: string): boolean {
    if (this.matches(question)) return false;
    const words = questionWords(question);
    this.exact.add(gradingForm(question));
    const index = this.kept.push(words) - 1;
    for (const w of words) {
      let list = this.byWord.get(w);
      if (list === undefined) this.byWord.set(w, (list = []));
      list.push(index);
    }
    return true;
  }
}
