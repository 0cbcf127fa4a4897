/**
 * Token overlap: which content terms of a text (a question, a topic, a claim, an expected answer)
 * occur in evidence (an answer, a source). The lexical heuristics of topic coverage, the RAG triad
 * and the diagnosis all read it; docs/evals.md ("How answer text is matched") states the rules.
 *
 * Both sides are read in the grading form (normalize.ts) with diacritics kept until a word is
 * stemmed, then folded. A text's **terms**, each counted once and unweighted:
 * - a **word**: a run of letters (and marks);
 * - a **number**: in its one reading (`49,50` = `49.50`, `1,000` = `1000`);
 * - a **compound**: words and numbers joined by `-` `_` `.` `/` `@` `+` `\` without a space
 *   (`Free-Tarif`, `max_parallel_uploads`, `vertrag@tessera.example`, `E-4012`);
 * - a **CJK bigram**: each pair of neighbouring characters of a Han, kana or Hangul run (a run of
 *   one character is that character), so no dictionary is needed;
 * - the function words of the text's language (language.ts) are dropped, unless nothing else is
 *   left.
 *
 * Evidence words are stemmed in the evidence's own language (Snowball, language.ts), as written. A
 * word of the text **occurs** in evidence when the evidence has the same word (diacritics folded),
 * or the same letters as a joined compound (`email` and `e-mail`), or a word whose stem equals the
 * text word's stem in the text's language or in the evidence's language. Across languages that
 * finds cognates (`costa` in "costs", `temps` in "tempo") and false friends alike (`vero` in
 * "vers"): lexical overlap, not meaning. A compound occurs when its parts occur in a row (whatever
 * joins them there: `Free Tarif`, `free-tarif`) or joined as one word (`freetarif`). A number or
 * a CJK bigram occurs when the evidence has it.
 */
import type { ObservedAnswer, ObservedSource } from "../observed.js";
import { baseLanguage, GRADED_LANGUAGES, isFunctionWord, likeliestLanguage, stemOf } from "./language.js";
import { foldDiacritics, gradingForm } from "./normalize.js";

interface Token {
  /** Grading form with diacritics: what a stemmer reads. */
  raw: string;
  /** Diacritics folded: what equality compares. */
  folded: string;
  kind: "word" | "number" | "cjk";
}

/** Letters, marks and digits, joined by connectors without a space. */
const CHUNK = /[\p{L}\p{M}\p{N}]+(?:[-_./@+\\][\p{L}\p{M}\p{N}]+)*/gu;
/** The parts of a chunk: a number with its decimals, or a run between connectors. */
const PART = /\p{Nd}+(?:\.\p{Nd}+)+(?![\p{L}\p{M}])|[^-_./@+\\]+/gu;
const CJK_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆〤\u3099\u309A]+)/u;

/** A chunk as tokens: its non-CJK parts (a compound when two or more), then its CJK bigrams. */
function chunkTokens(chunk: string): { parts: Token[]; bigrams: Token[] } {
  const parts: Token[] = [];
  const bigrams: Token[] = [];
  for (const part of chunk.match(PART) ?? []) {
    for (const segment of part.split(CJK_RUN)) {
      if (segment === "") continue;
      if (CJK_RUN.test(segment)) {
        const chars = [...segment];
        const grams = chars.length === 1 ? chars : chars.slice(1).map((ch, i) => chars[i]! + ch);
        for (const gram of grams) bigrams.push({ raw: gram, folded: gram, kind: "cjk" });
      } else {
        parts.push({ raw: segment, folded: foldDiacritics(segment), kind: /^\p{Nd}/u.test(segment) ? "number" : "word" });
      }
    }
  }
  return { parts, bigrams };
}

function chunksOf(text: string): string[] {
  return gradingForm(text, { diacritics: false }).match(CHUNK) ?? [];
}

/** Evidence: a text's tokens in order, its joined compounds, and its words' stems in its language (computed on first use). */
export class AnalyzedText {
  readonly tokens: readonly Token[];
  readonly folded: ReadonlySet<string>;
  readonly joined: ReadonlySet<string>;
  private stemSet: ReadonlySet<string> | undefined;

  constructor(
    text: string,
    /** The text's language (base tag), if known. */
    readonly language: string | undefined,
  ) {
    const tokens: Token[] = [];
    const joined = new Set<string>();
    for (const chunk of chunksOf(text)) {
      const { parts, bigrams } = chunkTokens(chunk);
      tokens.push(...parts, ...bigrams);
      if (parts.length >= 2) joined.add(parts.map((p) => p.folded).join(""));
    }
    this.tokens = tokens;
    this.folded = new Set(tokens.map((t) => t.folded));
    this.joined = joined;
  }

  /** The stems of the text's words in its own language, diacritics folded (the words themselves when the language is unknown). */
  get stems(): ReadonlySet<string> {
    this.stemSet ??= new Set(this.tokens.filter((t) => t.kind === "word").map((t) => this.stemOf(t)));
    return this.stemSet;
  }

  stemOf(token: Token): string {
    return this.language === undefined ? token.folded : stemKey(token.raw, this.language);
  }
}

/** `text` as evidence in `language` (a tag such as `de` or `de-CH`). */
export function analyzedText(text: string, language: string | null | undefined): AnalyzedText {
  return new AnalyzedText(text, baseLanguage(language));
}

function stemKey(raw: string, language: string): string {
  return foldDiacritics(stemOf(raw, language));
}

interface Term {
  /** As the text has it (grading form, diacritics kept). */
  surface: string;
  kind: "word" | "number" | "compound" | "cjk";
  /** The word, number or bigram; a compound's parts. */
  parts: readonly Token[];
  /** A function word of the text's language. */
  function: boolean;
}

/** The content terms of `text` in `language`: each once; function words dropped unless nothing else is left. */
function contentTerms(text: string, language: string | undefined): Term[] {
  const terms: Term[] = [];
  const seen = new Set<string>();
  const add = (term: Term): void => {
    const key = `${term.kind}:${term.parts.map((p) => p.folded).join(" ")}`;
    if (seen.has(key)) return;
    seen.add(key);
    terms.push(term);
  };
  for (const chunk of chunksOf(text)) {
    const { parts, bigrams } = chunkTokens(chunk);
    if (parts.length >= 2) add({ surface: chunk, kind: "compound", parts, function: false });
    else if (parts.length === 1) {
      const [only] = parts as [Token];
      add({ surface: only.raw, kind: only.kind, parts, function: only.kind === "word" && isFunctionWord(only.raw, language) });
    }
    for (const gram of bigrams) add({ surface: gram.raw, kind: "cjk", parts: [gram], function: false });
  }
  const content = terms.filter((t) => !t.function);
  return content.length > 0 ? content : terms;
}

/** The keys a word of the text may take in evidence: itself, and its stems in the text's and the evidence's language. */
function wordKeys(word: Token, textLanguage: string | undefined, evidence: AnalyzedText): string[] {
  const languages = [...new Set([textLanguage, evidence.language])].filter((l): l is string => l !== undefined);
  return [word.folded, ...languages.map((l) => stemKey(word.raw, l))];
}

/** Whether one part of a compound matches one evidence token: the same, or (words) a stem of the part equals the token's stem. */
function partMatches(part: Token, token: Token, textLanguage: string | undefined, evidence: AnalyzedText): boolean {
  if (part.folded === token.folded) return true;
  if (part.kind !== "word" || token.kind !== "word") return false;
  const stem = evidence.stemOf(token);
  return wordKeys(part, textLanguage, evidence).includes(stem);
}

function occursIn(term: Term, evidence: AnalyzedText, textLanguage: string | undefined): boolean {
  if (term.kind === "word") {
    const [word] = term.parts as [Token];
    if (evidence.folded.has(word.folded) || evidence.joined.has(word.folded)) return true;
    return wordKeys(word, textLanguage, evidence).some((key) => evidence.stems.has(key));
  }
  if (term.kind !== "compound") return evidence.folded.has(term.parts[0]!.folded);
  const joined = term.parts.map((p) => p.folded).join("");
  if (evidence.folded.has(joined) || evidence.joined.has(joined)) return true;
  const { tokens } = evidence;
  for (let i = 0; i + term.parts.length <= tokens.length; i++) {
    if (term.parts.every((part, j) => partMatches(part, tokens[i + j]!, textLanguage, evidence))) return true;
  }
  return false;
}

export interface Overlap {
  /** The text's content terms, as written (grading form). */
  terms: string[];
  found: string[];
  missing: string[];
  /** found / terms; 0 when the text has no terms. */
  share: number;
  /** Missing terms that contain a digit (a number the evidence does not state). */
  missingNumbers: string[];
}

/** Which content terms of `text` (in `language`) occur in any of `evidence` (rules in the header). */
export function termOverlap(text: string, language: string | null | undefined, evidence: readonly AnalyzedText[]): Overlap {
  const own = baseLanguage(language);
  return overlapOf(contentTerms(text, own), own, evidence);
}

function overlapOf(terms: readonly Term[], own: string | undefined, evidence: readonly AnalyzedText[]): Overlap {
  const found: string[] = [];
  const missing: string[] = [];
  for (const term of terms) (evidence.some((e) => occursIn(term, e, own)) ? found : missing).push(term.surface);
  return {
    terms: terms.map((t) => t.surface),
    found,
    missing,
    share: terms.length === 0 ? 0 : found.length / terms.length,
    missingNumbers: missing.filter((t) => /\p{Nd}/u.test(t)),
  };
}

/** How much a number or a name weighs against a word in `weightedOverlap`. */
export const KEY_WEIGHT = 3;

export interface WeightedOverlap extends Overlap {
  /** The terms that are numbers or names (found or not), as `terms` writes them. */
  keys: string[];
  /** Keys the evidence does not have: a changed figure, another entity. */
  missingKeys: string[];
  /** Found weight / total weight: a word weighs 1, a number or a name `KEY_WEIGHT`; 0 without terms. */
  support: number;
}

/**
 * `termOverlap` with the terms that carry a claim's facts weighted: **numbers** (a term with a
 * digit: `10`, `E-4012`, `v3.2.1`) and **names** weigh `KEY_WEIGHT` (3) each, other words 1. A
 * name is read from how the text writes it: a word of two or more capitals (`DDC`, `GDPR`), or a
 * capitalised word where no sentence starts, in a language that does not capitalise its nouns
 * (every language grading knows but German; an unknown language too). So a changed figure or
 * entity costs what three ordinary words do, not one in twenty. `except`: terms that occur there
 * are left out (unless that leaves none), e.g. a question's terms that an answer only restates.
 */
export function weightedOverlap(
  text: string,
  language: string | null | undefined,
  evidence: readonly AnalyzedText[],
  options: { except?: readonly AnalyzedText[] } = {},
): WeightedOverlap {
  const own = baseLanguage(language);
  let terms = contentTerms(text, own);
  const except = options.except ?? [];
  if (except.length > 0) {
    const kept = terms.filter((t) => !except.some((e) => occursIn(t, e, own)));
    if (kept.length > 0) terms = kept;
  }
  const overlap = overlapOf(terms, own, evidence);
  const names = nameForms(text, own);
  const isKey = (term: string): boolean => /\p{Nd}/u.test(term) || names.has(term);
  const weight = (term: string): number => (isKey(term) ? KEY_WEIGHT : 1);
  const total = overlap.terms.reduce((sum, t) => sum + weight(t), 0);
  const found = overlap.found.reduce((sum, t) => sum + weight(t), 0);
  return {
    ...overlap,
    keys: overlap.terms.filter(isKey),
    missingKeys: overlap.missing.filter(isKey),
    support: total === 0 ? 0 : found / total,
  };
}

/** Languages that capitalise every noun: a capital there does not mark a name. */
const CAPITALISED_NOUNS: ReadonlySet<string> = new Set(["de", "lb"]);

/** The grading forms of the words a text writes as names (`weightedOverlap`). */
function nameForms(text: string, language: string | undefined): Set<string> {
  const names = new Set<string>();
  const capitalsMarkNames = language === undefined || !CAPITALISED_NOUNS.has(language);
  for (const m of text.matchAll(CHUNK_AS_WRITTEN)) {
    const chunk = m[0];
    const acronym = /^\p{Lu}{2,}$/u.test(chunk.replace(/[-_./@+\\]/g, ""));
    const capitalised = /^\p{Lu}/u.test(chunk) && !startsSentence(text, m.index!);
    if (acronym || (capitalsMarkNames && capitalised)) names.add(gradingForm(chunk, { diacritics: false }));
  }
  return names;
}

/** A chunk (see `CHUNK`) in the text as written, before case folding. */
const CHUNK_AS_WRITTEN = /[\p{L}\p{M}\p{N}]+(?:[-_./@+\\][\p{L}\p{M}\p{N}]+)*/gu;

/** Whether a sentence starts at `at`: only white space, quotes, brackets or list marks since the text's start or the last `.` `!` `?` `:` or line break. */
function startsSentence(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const ch = text[i]!;
    if (/[.!?:\n。！？]/u.test(ch)) return true;
    if (!/[\s"'“”„«»‹›()[\]*#>_`\-–—•]/u.test(ch) && !/\d/.test(ch)) return false;
  }
  return true;
}

/**
 * The answer's language: of the case's language (when the dataset states one) and its sources'
 * languages, the one whose function words the answer uses most (a tie, or none: the case's).
 * Answers follow the question, but an extractive answer quotes its sources, which may be in
 * another language.
 */
export function answerLanguage(result: ObservedAnswer, caseLanguage: string | undefined): string | undefined {
  const words = new AnalyzedText(result.answer, undefined).tokens.filter((t) => t.kind === "word").map((t) => t.raw);
  const candidates = [caseLanguage, ...(result.sources ?? []).map((s) => baseLanguage(s.language))].filter(
    (l): l is string => l !== undefined,
  );
  return likeliestLanguage(words, candidates) ?? caseLanguage;
}

/**
 * A retrieved source as evidence: title, heading and passage, in the source's language. Analyzed
 * once per source: an answer computed once per run is graded by several suites and graders, and
 * neither a source nor its analysis is ever changed.
 */
export function sourceText(source: ObservedSource): AnalyzedText {
  let text = analyzedSources.get(source);
  if (text === undefined)
    // A part the target did not give is left out (never read as the word "undefined").
    analyzedSources.set(
      source,
      (text = analyzedText([source.title, source.heading, source.text].filter(Boolean).join("\n"), source.language)),
    );
  return text;
}
const analyzedSources = new WeakMap<ObservedSource, AnalyzedText>();

/**
 * The language of a text that states none: of the languages grading knows (language.ts), the one
 * whose function words it uses most; undefined when it uses none (then words are matched as
 * written, unstemmed).
 */
export function guessLanguage(text: string): string | undefined {
  const words = new AnalyzedText(text, undefined).tokens.filter((t) => t.kind === "word").map((t) => t.raw);
  const language = likeliestLanguage(words, ["", ...GRADED_LANGUAGES]);
  return language === "" ? undefined : language;
}
