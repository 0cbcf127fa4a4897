/**
 * Deterministic graders of one answer: `engine.ask()`'s `AskResult` against its fixture case
 * (`fixtures/ask-cases.json`, an `AskCase`). Pure per-case functions (`…Score(case, result)`)
 * and Evalite scorers built from them (input = the AskCase, output = the AskResult, expected
 * unused). No model is involved: every score's metadata says `method: "heuristic"`.
 *
 * | grader (Evalite name)            | applies to cases with  | score                                                                  |
 * | -------------------------------- | ---------------------- | ---------------------------------------------------------------------- |
 * | answer-includes ("Answer includes")   | `expectedSubstrings` | expected substrings found in the answer / expected substrings        |
 * | answer-excludes ("Answer excludes")   | `forbiddenSubstrings`| 1 when no forbidden substring occurs in the answer, else 0            |
 * | cites ("Cites required docs")         | `mustCite`           | mustCite docs cited (or a translation cited, see below) / mustCite docs |
 * | cites-only-surfaced ("Cites only surfaced") | every case     | 1 when every [n] in the answer points to a retrieved source, else 0   |
 * | no-citations ("No citations iff refused")   | every case     | refused: 1 when it carries no [n]; answered: 1 with ≥ 1 valid citation |
 * | refusal ("Refusal")                   | every case           | 1 when `refused` equals `expectedRefusal === true`, else 0            |
 * | topic-coverage ("Topic coverage")     | `expectedTopics`     | topics covered / topics (token overlap, below)                        |
 *
 * Matching of substrings (includes, excludes): both sides NFC + lower case (`normalizeForMatch`,
 * as the fixture lint), every run of white space (NBSP and narrow NBSP included) as one space,
 * typographic apostrophes as `'`, and citation markers (`[2]`, `[1, 3]`) removed from the answer
 * first, so `[10]` never passes for the fact "10". One rule beyond "contains": a substring that
 * starts or ends with a digit must not continue a longer number there, so "10" is not found in
 * "100" or "2010" and "49,50" not in "149,50" (a digit, or `.`/`,` followed by a digit, next to
 * it); "Abrechnungsmonat" is still found in "Abrechnungsmonats".
 *
 * Translations (cites): a translation of a mustCite doc holds the same facts
 * (`fixtures/translations.json`), so citing it counts as citing the doc, named in metadata
 * `viaTranslation`. `{ acceptTranslations: false }` turns that off; metadata states the policy.
 *
 * Topic coverage: a topic is covered when at least `TOPIC_SHARE` (0.5) of its content terms occur
 * in the answer (citation markers removed). Terms are the engine's analyzer's, as the index sees
 * them (stemmed, diacritics folded, compounds, CJK bigrams; stop words of the case's language
 * dropped), each term counted once, unweighted. Lexical: a paraphrase with other words is missed.
 *
 * Policies, the same for every grader:
 * - **Failed answer** (`result.error` set, the answerer failed): score 0 with `status: "failed"`
 *   and the error — never a pass, not even for answer-excludes, which an empty answer would pass.
 * - **Not applicable**: a grader only scores cases that carry what it checks (table above).
 *   Evalite needs a number for every row and averages all of them into one mean, so any made-up
 *   number (1 or 0) would move that mean. Instead the pure function and the scorer throw a
 *   `NotApplicableError` that names the case and the missing field, and the eval fails loudly.
 *   Eval files give each grader only the cases it applies to: `casesFor("answer-includes", cases)`
 *   or `GRADERS[id].appliesTo`, e.g. one eval per group of graders.
 * - **Refused answers** are graded as the text they are (the refusal sentence): it contains no
 *   expected fact (includes 0, topics ≈ 0), no forbidden one (excludes 1), no citation (cites 0).
 *   Whether refusing was right is the refusal grader's question. Metadata carries `refused`.
 *   Whether an answer refused is `isRefused(result)` (refusal-check.ts): the eval's recognition
 *   (`refusalCheck`, refusal.ts: markers per language, or the judge, for a free-text answer) when
 *   it made one, else the engine's `refused`; refusal and no-citations record who decided it.
 * - **Vacuous cases**, declared: an answer with no citation markers has none that points
 *   elsewhere, so cites-only-surfaced scores 1 with `vacuous: true` (missing citations are the
 *   no-citations grader's failure, not this one's).
 *
 * The token-overlap machinery at the end (`termOverlap`) is shared with the heuristic RAG triad
 * (`judge.ts`) and the diagnosis (`diagnosis.ts`).
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import type { AskResult } from "@hybrid-search/engine";
import { analyzeDocumentText, analyzeQuery, detectLanguage, matchingTerms, type QueryTerm } from "@hybrid-search/engine/analysis";
import { type AskCase, matchForm } from "./ask-case.js";

// Defined beside normalizeForMatch, so fixture loading (refusal markers) needs neither Evalite nor the engine.
export { matchForm } from "./ask-case.js";
import { isRefused, type RecognizedAnswer } from "./refusal-check.js";

// ---------------------------------------------------------------------------------------------
// Types and the grader table
// ---------------------------------------------------------------------------------------------

export type GraderId =
  | "answer-includes"
  | "answer-excludes"
  | "cites"
  | "cites-only-surfaced"
  | "no-citations"
  | "refusal"
  | "topic-coverage";

/** How a score was obtained. Deterministic graders are `heuristic`; see judge.ts for `llm-judge`. */
export type Method = "heuristic" | "llm-judge";

export interface GradeMetadata {
  grader: string;
  method: Method;
  /** `failed`: the answerer failed (`result.error`); the score is 0 and says nothing about quality. */
  status: "scored" | "failed";
  caseId: string;
  /** What was checked, in words. */
  definition: string;
  error?: string;
  [key: string]: unknown;
}

export interface Grade {
  /** In [0, 1]. */
  score: number;
  metadata: GradeMetadata;
}

export interface GraderInfo {
  /** The Evalite scorer's name. */
  name: string;
  definition: string;
  /** The case field the grader needs, or null when it applies to every case. */
  needs: keyof AskCase | null;
  appliesTo: (c: AskCase) => boolean;
}

const nonEmpty = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > 0;

/** Every grader, in report order. */
export const GRADERS: Readonly<Record<GraderId, GraderInfo>> = {
  "answer-includes": {
    name: "Answer includes",
    definition: "expected substrings found in the answer / expected substrings (NFC, case-insensitive, numbers not inside longer numbers)",
    needs: "expectedSubstrings",
    appliesTo: (c) => nonEmpty(c.expectedSubstrings),
  },
  "answer-excludes": {
    name: "Answer excludes",
    definition: "1 when no forbidden substring occurs in the answer, else 0",
    needs: "forbiddenSubstrings",
    appliesTo: (c) => nonEmpty(c.forbiddenSubstrings),
  },
  cites: {
    name: "Cites required docs",
    definition: "mustCite docs the answer cites (a translation counts unless turned off) / mustCite docs",
    needs: "mustCite",
    appliesTo: (c) => nonEmpty(c.mustCite),
  },
  "cites-only-surfaced": {
    name: "Cites only surfaced",
    definition: "1 when every [n] in the answer points to a retrieved source, else 0 (no [n] at all: 1, vacuous)",
    needs: null,
    appliesTo: () => true,
  },
  "no-citations": {
    name: "No citations iff refused",
    definition: "a refused answer carries no [n]; an answer that does not refuse carries at least one valid citation",
    needs: null,
    appliesTo: () => true,
  },
  refusal: {
    name: "Refusal",
    definition: "refuses exactly when the case has expectedRefusal: true",
    needs: null,
    appliesTo: () => true,
  },
  "topic-coverage": {
    name: "Topic coverage",
    definition: "expected topics covered / topics; covered when ≥ 50 % of the topic's content terms occur in the answer",
    needs: "expectedTopics",
    appliesTo: (c) => nonEmpty(c.expectedTopics),
  },
};

/** The cases a grader applies to: give an eval only these, so no row needs a made-up score. */
export function casesFor<T extends AskCase>(grader: GraderId, cases: readonly T[]): T[] {
  return cases.filter((c) => GRADERS[grader].appliesTo(c));
}

/** Thrown when a grader is asked to score a case it does not apply to (a wiring mistake). */
export class NotApplicableError extends Error {
  override readonly name = "NotApplicableError";
  constructor(
    readonly grader: string,
    readonly caseId: string,
    reason: string,
  ) {
    super(
      `${grader} does not apply to case ${caseId}: ${reason}. Give this grader only the cases it applies to (casesFor(${JSON.stringify(grader)}, cases) in scorers/answer.ts); a made-up score would move the eval's mean`,
    );
  }
}

function requireApplicable(id: GraderId, c: AskCase): void {
  const info = GRADERS[id];
  if (!info.appliesTo(c)) throw new NotApplicableError(id, c.id, `it has no ${String(info.needs)}`);
}

/** The score of a result whose answerer failed: 0, never a pass. Shared by every grader. */
export function failedGrade(grader: string, c: AskCase, result: AskResult, definition: string): Grade {
  return {
    score: 0,
    metadata: {
      grader,
      method: "heuristic",
      status: "failed",
      caseId: c.id,
      definition,
      error: result.error ?? "",
      rule: "the answerer failed: scored 0, never a pass",
    },
  };
}

/**
 * A grader from its rule: the policies of the header (not applicable → throw, failed answer → 0)
 * come first, then `rule` gives the score and the facts it checked.
 */
function gradeWith<O = unknown>(
  id: GraderId,
  rule: (c: AskCase, result: RecognizedAnswer, options: O) => [number, Record<string, unknown>],
) {
  return (c: AskCase, result: RecognizedAnswer, options?: O): Grade => {
    requireApplicable(id, c);
    if (result.error !== undefined) return failedGrade(id, c, result, GRADERS[id].definition);
    const [score, details] = rule(c, result, options as O);
    return {
      score,
      metadata: { grader: id, method: "heuristic", status: "scored", caseId: c.id, definition: GRADERS[id].definition, ...details },
    };
  };
}

// ---------------------------------------------------------------------------------------------
// Answer text
// ---------------------------------------------------------------------------------------------

const CITATION_MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** The [n] references of a text, in order of first appearance. */
export function citationRefs(text: string): number[] {
  const refs: number[] = [];
  for (const m of text.matchAll(CITATION_MARKER)) {
    for (const n of m[1]!.split(",")) {
      const ref = Number(n.trim());
      if (!refs.includes(ref)) refs.push(ref);
    }
  }
  return refs;
}

/** The text without its citation markers (`[2]`, `[1, 3]`), each replaced by a space. */
export function stripCitationMarkers(text: string): string {
  return text.replace(CITATION_MARKER, " ");
}

const DIGIT = /\p{Nd}/u;

/** Whether the number around `at` continues on the given side (a digit, or `.`/`,` then a digit). */
function numberContinues(text: string, at: number, step: 1 | -1): boolean {
  const next = text[at];
  if (next === undefined) return false;
  if (DIGIT.test(next)) return true;
  const after = text[at + step];
  return (next === "." || next === ",") && after !== undefined && DIGIT.test(after);
}

/**
 * Whether `haystack` contains `needle` under the matching rule in the header. Both are taken as
 * given, so callers compare `matchForm` texts.
 */
export function containsFact(haystack: string, needle: string): boolean {
  if (needle.length === 0) throw new RangeError("Expected a non-empty substring to look for");
  const startsWithDigit = DIGIT.test(needle[0]!);
  const endsWithDigit = DIGIT.test(needle[needle.length - 1]!);
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (startsWithDigit && numberContinues(haystack, at - 1, -1)) continue;
    if (endsWithDigit && numberContinues(haystack, at + needle.length, 1)) continue;
    return true;
  }
  return false;
}

const MATCHING =
  "NFC, lower case, white space folded, citation markers removed; a digit-edged substring must not sit inside a longer number";

/** Which of `substrings` the answer contains (citation markers removed first). */
function inAnswer(result: AskResult, substrings: readonly string[]): { found: string[]; missing: string[] } {
  const answer = matchForm(stripCitationMarkers(result.answer));
  const found = substrings.filter((s) => containsFact(answer, matchForm(s)));
  return { found, missing: substrings.filter((s) => !found.includes(s)) };
}

// ---------------------------------------------------------------------------------------------
// The graders, one case at a time
// ---------------------------------------------------------------------------------------------

export const answerIncludesScore = gradeWith("answer-includes", (c, result) => {
  const { found, missing } = inAnswer(result, c.expectedSubstrings!);
  return [found.length / c.expectedSubstrings!.length, { found, missing, refused: isRefused(result), matching: MATCHING }];
});

export const answerExcludesScore = gradeWith("answer-excludes", (c, result) => {
  const { found } = inAnswer(result, c.forbiddenSubstrings!);
  return [found.length === 0 ? 1 : 0, { found, checked: c.forbiddenSubstrings, refused: isRefused(result), matching: MATCHING }];
});

export interface CitesOptions {
  /** Whether citing a translation of a mustCite doc counts. @default true */
  acceptTranslations?: boolean;
  /**
   * Doc → its translations (e.g. the groups of fixtures/translations.json, which the eval passes).
   * @default none: only the listed docs count
   */
  translations?: ReadonlyMap<string, readonly string[]>;
}

/** The translations a policy allows to stand in for a doc. */
export function translationsUnder(options: CitesOptions): ReadonlyMap<string, readonly string[]> {
  return options.acceptTranslations === false ? new Map() : (options.translations ?? new Map());
}

export const citesScore = gradeWith<CitesOptions | undefined>("cites", (c, result, options = {}) => {
  const translations = translationsUnder(options);
  const cited = new Set(result.citations.map((x) => x.docId));
  const direct: string[] = [];
  const viaTranslation: Array<{ required: string; cited: string }> = [];
  const missing: string[] = [];
  for (const doc of c.mustCite!) {
    const translation = translations.get(doc)?.find((t) => cited.has(t));
    if (cited.has(doc)) direct.push(doc);
    else if (translation !== undefined) viaTranslation.push({ required: doc, cited: translation });
    else missing.push(doc);
  }
  return [
    (direct.length + viaTranslation.length) / c.mustCite!.length,
    {
      cited: [...cited],
      direct,
      viaTranslation,
      missing,
      refused: isRefused(result),
      translationPolicy:
        options.acceptTranslations === false || translations.size === 0
          ? "only the listed docs count"
          : "a citation of a translation of a mustCite doc counts (same facts)",
    },
  ];
});

export const citesOnlySurfacedScore = gradeWith("cites-only-surfaced", (_c, result) => {
  const byRef = new Map(result.sources.map((s) => [s.ref, s]));
  const unsurfaced: string[] = [];
  for (const cit of result.citations) {
    const source = byRef.get(cit.ref);
    if (!source) unsurfaced.push(`[${cit.ref}] ${cit.docId} (no source [${cit.ref}] was retrieved)`);
    else if (source.docId !== cit.docId || source.passageId !== cit.passageId)
      unsurfaced.push(`[${cit.ref}] ${cit.passageId} (source [${cit.ref}] is ${source.passageId})`);
  }
  for (const ref of result.invalidCitations) unsurfaced.push(`[${ref}] (no such source; ${result.sources.length} retrieved)`);
  const total = result.citations.length + result.invalidCitations.length;
  return [
    unsurfaced.length === 0 ? 1 : 0,
    {
      citations: total,
      unsurfaced,
      vacuous: total === 0,
      ...(total === 0 ? { note: "no citation markers: none points elsewhere (missing citations are no-citations' failure)" } : {}),
    },
  ];
});

export const noCitationsScore = gradeWith("no-citations", (_c, result) => {
  const markers = result.citations.length + result.invalidCitations.length;
  const ok = isRefused(result) ? markers === 0 : result.citations.length >= 1;
  return [
    ok ? 1 : 0,
    {
      refused: isRefused(result),
      citations: result.citations.length,
      invalidCitations: result.invalidCitations.length,
      rule: isRefused(result) ? "a refusal must carry no citation" : "an answer must carry at least one valid citation",
      ...refusalBasis(result),
    },
  ];
});

export const refusalScore = gradeWith("refusal", (c, result) => {
  const expected = c.expectedRefusal === true;
  return [
    isRefused(result) === expected ? 1 : 0,
    {
      expected: expected ? "refuse" : "answer",
      refused: isRefused(result),
      refusal: result.refusal ?? null,
      category: c.category,
      ...refusalBasis(result),
    },
  ];
});

/**
 * Who decided whether the answer refused, for the metadata of the graders that depend on it: the
 * judge (deciding an ambiguous free-text answer) makes the score a judged one (`method: "llm-judge"`).
 */
function refusalBasis(result: RecognizedAnswer): Record<string, unknown> {
  const recognition = result.refusalCheck;
  return recognition ? { recognition, method: recognition.method === "llm-judge" ? "llm-judge" : "heuristic" } : {};
}

/** Share of a topic's content terms that must occur in the answer for the topic to count as covered. */
export const TOPIC_SHARE = 0.5;

export const topicCoverageScore = gradeWith("topic-coverage", (c, result) => {
  const answer = analyzedText(stripCitationMarkers(result.answer), answerLanguage(result, c));
  const topics = c.expectedTopics!.map((topic) => {
    const o = termOverlap(topic, c.language, [answer]);
    return { topic, share: round(o.share), covered: o.terms.length > 0 && o.share >= TOPIC_SHARE, missing: o.missing };
  });
  const covered = topics.filter((t) => t.covered).length;
  return [
    covered / topics.length,
    {
      covered,
      topics,
      threshold: TOPIC_SHARE,
      refused: isRefused(result),
      terms: "engine analyzer (stemmed, folded), stop words dropped, unweighted",
    },
  ];
});

// ---------------------------------------------------------------------------------------------
// Evalite scorers
// ---------------------------------------------------------------------------------------------

/** A scorer over (input: AskCase, output: AskResult); `expected` is not read. */
export type AskScorer = Evalite.Scorer<AskCase, AskResult, unknown>;

function scorerFor(id: GraderId, score: (c: AskCase, result: AskResult) => Grade): AskScorer {
  return createScorer<AskCase, AskResult, unknown>({
    name: GRADERS[id].name,
    description: GRADERS[id].definition,
    scorer: ({ input, output }) => score(input, output),
  });
}

/**
 * Share of the case's expected substrings the answer contains.
 *
 * **When to use:** facts a correct answer must state literally (numbers, names, addresses).
 * **When NOT to use:** for wording that can vary; use topic coverage or the judge. Only for cases
 * with `expectedSubstrings` (`casesFor("answer-includes", cases)`); others throw.
 */
export const answerIncludes = (): AskScorer => scorerFor("answer-includes", answerIncludesScore);

/** 1 when the answer contains none of the case's forbidden substrings. Only for cases with `forbiddenSubstrings`. */
export const answerExcludes = (): AskScorer => scorerFor("answer-excludes", answerExcludesScore);

/** Share of the case's mustCite docs the answer cites. Only for cases with `mustCite`. */
export const cites = (options: CitesOptions = {}): AskScorer => scorerFor("cites", (c, r) => citesScore(c, r, options));

/** 1 when every citation marker points to a retrieved source. Every case. */
export const citesOnlySurfaced = (): AskScorer => scorerFor("cites-only-surfaced", citesOnlySurfacedScore);

/** Refusals carry no citations; answers carry at least one. Every case. */
export const noCitations = (): AskScorer => scorerFor("no-citations", noCitationsScore);

/** Refuses exactly when the case expects it. Every case. */
export const refusal = (): AskScorer => scorerFor("refusal", refusalScore);

/**
 * Share of the case's expected topics the answer covers, lexically.
 *
 * **When to use:** a cheap, deterministic completeness signal next to answer-includes.
 * **When NOT to use:** as a verdict on paraphrased or translated answers (lexical overlap misses
 * them); only for cases with `expectedTopics`.
 */
export const topicCoverage = (): AskScorer => scorerFor("topic-coverage", topicCoverageScore);

// ---------------------------------------------------------------------------------------------
// Token overlap (shared with judge.ts and diagnosis.ts)
// ---------------------------------------------------------------------------------------------

/** A text analyzed as the index would analyze a document in `language`. */
export interface AnalyzedText {
  language: string | undefined;
  positions: ReadonlyMap<string, readonly number[]>;
  extras: ReadonlySet<string>;
  tokens: readonly string[];
}

function baseLanguage(language: string | null | undefined): string | undefined {
  return language ? language.toLowerCase().split(/[-_]/)[0] : undefined;
}

export function analyzedText(text: string, language: string | null | undefined): AnalyzedText {
  const lang = baseLanguage(language);
  const { tokens, extras } = analyzeDocumentText(text, lang);
  const positions = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    const list = positions.get(t.term);
    if (list) list.push(i);
    else positions.set(t.term, [i]);
  });
  return { language: lang, positions, extras: new Set(extras), tokens: tokens.map((t) => t.term) };
}

function occursIn(term: QueryTerm, text: AnalyzedText): boolean {
  return term.alternatives.some((alt) => {
    if (alt.length === 1) return text.positions.has(alt[0]!) || text.extras.has(alt[0]!);
    return (text.positions.get(alt[0]!) ?? []).some((start) => alt.every((tok, j) => text.tokens[start + j] === tok));
  });
}

export interface Overlap {
  /** The text's content terms, as written (lower case). */
  terms: string[];
  found: string[];
  missing: string[];
  /** found / terms; 0 when the text has no terms. */
  share: number;
  /** Missing terms that contain a digit (a number the evidence does not state). */
  missingNumbers: string[];
}

/**
 * Which content terms of `text` (in `language`) occur in any of `evidence`. Terms are the engine's
 * query analysis: stems in the text's and the evidence's languages, compounds as joined form or
 * phrase, CJK bigrams; stop words of `language` dropped unless nothing else is left.
 */
export function termOverlap(text: string, language: string | null | undefined, evidence: readonly AnalyzedText[]): Overlap {
  const own = baseLanguage(language) ?? detectLanguage(text);
  const languages = [...new Set([own, ...evidence.map((e) => e.language)].filter((l): l is string => l !== undefined))];
  const terms = matchingTerms(analyzeQuery(text, { languages, queryLanguage: own }));
  const found: string[] = [];
  const missing: string[] = [];
  for (const term of terms) (evidence.some((e) => occursIn(term, e)) ? found : missing).push(term.surface);
  return {
    terms: terms.map((t) => t.surface),
    found,
    missing,
    share: terms.length === 0 ? 0 : found.length / terms.length,
    missingNumbers: missing.filter((t) => DIGIT.test(t)),
  };
}

/** The answer's language: detected from its text, else the case's (answers follow the question), else the question's. */
export function answerLanguage(result: AskResult, c: AskCase): string | undefined {
  return detectLanguage(stripCitationMarkers(result.answer)) ?? c.language ?? detectLanguage(c.question);
}

/**
 * A retrieved source as evidence text: title, heading and passage. Analyzed once per source: an
 * answer computed once per run is graded by several suites and graders (and its golden-set check),
 * and neither a source nor its analysis is ever changed.
 */
export function sourceText(source: AskResult["sources"][number]): AnalyzedText {
  let text = analyzedSources.get(source);
  if (text === undefined)
    analyzedSources.set(source, (text = analyzedText(`${source.title}\n${source.heading}\n${source.text}`, source.language)));
  return text;
}
const analyzedSources = new WeakMap<AskResult["sources"][number], AnalyzedText>();

export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
