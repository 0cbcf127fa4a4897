/**
 * "The answer states the fact": whether a text contains a short expected string (a fact of
 * answer-includes, a forbidden phrase of answer-excludes, a refusal phrase, a temporal value), on
 * the grading form of both (normalize.ts).
 *
 * The fact's grading form must occur in the text's grading form, and:
 * - **it starts a word**: the character before it is not a letter, mark or digit (`app` is not
 *   found in `happ`; it is in `dall'app`, `Free-app` or `(app`); except where the fact or the text
 *   there is CJK, Thai, Lao, Khmer or Myanmar, scripts written without spaces between words;
 * - **its last word may continue** (light inflection): `Abrechnungsmonat` is found in
 *   `Abrechnungsmonats`, `lecteur` in `lecteurs`; every earlier word must match whole, since the
 *   fact's own space or punctuation follows it;
 * - **a number is whole**: a fact that starts or ends with a digit does not continue a longer
 *   number there (a digit, or `.`/`,` and a digit): `10` is not in `100`, `2010` or `E-4010`'s
 *   `4010`, `49,50` not in `149,50`, `3.2` not in `3.2.1`.
 * A plain space between digit groups is read both ways (normalize.ts, `spaceGroups`): the fact is
 * found when it occurs under either reading, the same reading on both sides.
 */
import { gradingForm } from "./normalize.js";

/** A test of facts against one text, its grading forms computed once. */
export type FactTest = (fact: string) => boolean;

/** Whether `text` contains `fact` (rules above). Throws RangeError for a fact whose grading form is empty. */
export function containsFact(text: string, fact: string): boolean {
  return factsIn(text)(fact);
}

/** A test of many facts against one text. */
export function factsIn(text: string): FactTest {
  const plain = gradingForm(text);
  const spaced = gradingForm(text, { spaceGroups: true });
  return (fact) => {
    const form = gradingForm(fact);
    if (form.length === 0) throw new RangeError(`Expected a fact with letters, digits or signs, got ${JSON.stringify(fact)}`);
    if (occurs(plain, form)) return true;
    const spacedFact = gradingForm(fact, { spaceGroups: true });
    return (spaced !== plain || spacedFact !== form) && occurs(spaced, spacedFact);
  };
}

const WORD = /[\p{L}\p{M}\p{N}]/u;
const DIGIT = /\p{Nd}/u;
/** Scripts written without spaces between words: no word boundary can be asked for there. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー々〆〤]/u;

/** Whether `fact` occurs in `text` (both grading forms) under the boundary rules. */
function occurs(text: string, fact: string): boolean {
  const first = String.fromCodePoint(fact.codePointAt(0)!);
  const last = lastChar(fact);
  for (let at = text.indexOf(fact); at >= 0; at = text.indexOf(fact, at + 1)) {
    if (startsInside(text, at, first)) continue;
    if (DIGIT.test(last) && numberGoesOn(text, at + fact.length)) continue;
    return true;
  }
  return false;
}

/** Whether the match at `at`, starting with `first`, begins inside a word or a number. */
function startsInside(text: string, at: number, first: string): boolean {
  if (at === 0) return false;
  const before = lastChar(text.slice(0, at));
  if (DIGIT.test(first)) {
    if (DIGIT.test(before)) return true;
    const further = lastChar(text.slice(0, at - before.length));
    return (before === "." || before === ",") && further !== "" && DIGIT.test(further);
  }
  if (!WORD.test(first) || !WORD.test(before)) return false;
  return !UNSPACED.test(first) && !UNSPACED.test(before);
}

/** Whether the number ending before `at` goes on: a digit, or `.`/`,` followed by a digit. */
function numberGoesOn(text: string, at: number): boolean {
  const next = text[at];
  if (next === undefined) return false;
  if (DIGIT.test(next)) return true;
  const after = text[at + 1];
  return (next === "." || next === ",") && after !== undefined && DIGIT.test(after);
}

/** The last code point of a string ("" when empty), whole even when it is a surrogate pair. */
function lastChar(text: string): string {
  if (text.length === 0) return "";
  const code = text.charCodeAt(text.length - 1);
  return code >= 0xdc00 && code <= 0xdfff && text.length >= 2 ? text.slice(-2) : text.slice(-1);
}

/** Which of `facts` the text contains, and which it does not, each as given. */
export function findFacts(text: string, facts: readonly string[]): { found: string[]; missing: string[] } {
  const test = factsIn(text);
  const found = facts.filter(test);
  return { found, missing: facts.filter((f) => !found.includes(f)) };
}

/** How facts are matched, for the metadata of the scores that match them. */
export const FACT_MATCHING =
  "grading form (case, diacritics, compatibility forms, numbers, punctuation and white space folded), citation markers removed; a fact starts a word, its last word may continue, numbers are whole";
