/**
 * Yes/no answers and yes/no questions, as the lexical heuristics read them: a one-word answer
 * ("No.", "Ja", "Oui, …") states nothing of its own — what it affirms or denies is the question's
 * content — so the heuristics judge it by that content, not by whether the word "no" occurs in a
 * source.
 *
 * - **A yes/no answer** starts with a yes or no word of a language grading knows (`yes`, `no`,
 *   `ja`, `nein`, `oui`, `non`, `si`, `sì`, `sí`, `nee`, `sim`, `não`), alone or followed by `.`
 *   `,` `!` `;` `:` or `—`; `rest` is what follows it (empty for a bare "No.").
 * - **A yes/no question** starts with a verb, as yes/no questions do in English, German, Dutch
 *   and (with "est-ce que" or an inverted pronoun, `peut-on`) French, or with the Italian,
 *   Spanish and Portuguese forms that open one (`è`, `posso`, `si può`, `hay`, `é possível`).
 *   Lexical and incomplete: an Italian yes/no question is often a statement with a question mark,
 *   which this does not see.
 */
import { stripCitationMarkers } from "./citations.js";

const YES = new Set(["yes", "ja", "oui", "si", "sì", "sí", "sim", "yep"]);
const NO = new Set(["no", "nein", "non", "nee", "não", "nope"]);

export interface YesNo {
  polarity: "yes" | "no";
  /** What the answer says after its yes or no, citation markers removed ("" for a bare one). */
  rest: string;
}

/** The answer's yes or no and what follows it; null when it does not start with one. */
export function yesNoAnswer(answer: string): YesNo | null {
  const text = stripCitationMarkers(answer).replace(/\s+/g, " ").trim();
  // The word alone, or followed by punctuation: "No one …", "Non è …", "Si la …" start sentences, they do not answer.
  const m = /^[\p{Ps}"'«“„*_]*(\p{L}+)[*_]*(?:$|\s*[.,!;:—–]+\s*)/u.exec(text);
  if (!m) return null;
  const word = m[1]!.toLowerCase();
  const polarity = YES.has(word) ? "yes" : NO.has(word) ? "no" : null;
  return polarity === null ? null : { polarity, rest: text.slice(m[0].length).trim() };
}

const FIRST_VERBS = new Set(
  [
    // en
    "is are was were am do does did can could will would shall should may might must has have had",
    // de
    "ist sind war waren bin bist kann kannst können konnte wird werden wurde hat haben hatte muss müssen darf dürfen soll sollen gibt gab geht bleibt funktioniert brauche brauchen",
    // nl
    "is zijn was kan kunnen wordt worden heeft hebben moet mag",
    // it
    "è sono posso può possono puoi esiste esistono c'è ci si devo deve viene",
    // es
    "es son puedo puede pueden hay existe tiene tengo",
    // pt
    "é são posso pode podem há existe tem",
    // fr
    "est-ce",
  ]
    .join(" ")
    .split(" "),
);

/** Whether the question asks for a yes or a no (module comment). */
export function isYesNoQuestion(question: string): boolean {
  const text = question.replace(/^[\p{Ps}"'«“„\s]+/u, "").toLowerCase();
  const first = /^[\p{L}\p{M}'’-]+/u.exec(text)?.[0].replace(/’/g, "'") ?? "";
  if (FIRST_VERBS.has(first)) return true;
  // French inversion: "peut-on", "puis-je", "faut-il", "y a-t-il".
  return /^[\p{L}'-]+-(?:t-)?(?:il|elle|on|je|tu|nous|vous|ils|elles)\b/u.test(text) || text.startsWith("y a-t-il");
}
