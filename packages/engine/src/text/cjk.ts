/**
 * CJK runs (Han, kana, Hangul) as index terms. FTS5's own tokenizers keep a run of Han characters
 * as one token, so the analyzer turns each run into terms itself, by one of four strategies
 * (measured on the CJK lane, docs/engine.md):
 *
 * - `bigram`: overlapping character bigrams (`取消订阅` → `取消 消订 订阅`); a lone character
 *   stays itself. Query runs become their bigrams.
 * - `unigram+bigram`: the bigrams, plus every character as an extra term; queries look for both.
 * - `segmenter`: dictionary words from `Intl.Segmenter` (ICU: dictionary-based for Chinese and
 *   Japanese; a Korean space-separated word, particles included, stays one word).
 * - `trigram`: overlapping trigrams, plus the run's last bigram and last character, so that every
 *   substring of one or two characters is the prefix of some term: a query run of three or more
 *   characters becomes its trigrams, a shorter one a prefix query (`"订阅"*`).
 *
 * Before any of them, a run is normalized per grapheme with NFKC, so decomposed kana and Hangul
 * (NFD, as macOS file names store them), half-width katakana (`ｻﾌﾞｽｸ`) and compatibility
 * ideographs (U+F900 block) become the characters their composed forms are indexed as; every
 * character keeps the source offsets of the grapheme it came from.
 */

export const CJK_STRATEGIES = ["bigram", "unigram+bigram", "segmenter", "trigram"] as const;
export type CjkStrategy = (typeof CJK_STRATEGIES)[number];

/** A normalized character of a run with the offsets (relative to the run) of its source grapheme. */
export interface CjkUnit {
  ch: string;
  start: number;
  end: number;
}

export interface CjkTerm {
  term: string;
  /** Offsets relative to the run. */
  start: number;
  end: number;
}

/** A query run's terms: each an array of alternative phrases (token sequences). */
export interface CjkQueryTerm {
  surface: string;
  alternatives: string[][];
  /** Match any index term that starts with the (single) alternative's token. */
  prefix?: boolean;
}

const graphemes = new Intl.Segmenter("und", { granularity: "grapheme" });
/** Code points that NFKC changes inside a CJK run: combining voicing marks, conjoining jamo, half-width forms, compatibility ideographs. */
const UNSTABLE = /[\u1100-\u11FF\u3099\u309A\uA960-\uA97F\uD7B0-\uD7FF\uF900-\uFAFF\uFF61-\uFFDC]/;

/** A combining mark left alone (a voicing mark without its kana): not a character of its own. */
const MARK = /^\p{M}$/u;

/** The run's characters after per-grapheme NFKC, each with its source offsets; stray marks are dropped. */
export function cjkUnits(run: string): CjkUnit[] {
  const units: CjkUnit[] = [];
  if (!UNSTABLE.test(run)) {
    let at = 0;
    for (const ch of run) {
      units.push({ ch, start: at, end: at + ch.length });
      at += ch.length;
    }
    return units;
  }
  for (const { segment, index } of graphemes.segment(run)) {
    for (const ch of segment.normalize("NFKC")) if (!MARK.test(ch)) units.push({ ch, start: index, end: index + segment.length });
  }
  return units;
}

function span(units: readonly CjkUnit[], from: number, length: number): CjkTerm {
  let term = "";
  for (let i = from; i < from + length; i++) term += units[i]!.ch;
  return { term, start: units[from]!.start, end: units[from + length - 1]!.end };
}

/** Overlapping n-grams of the units (the whole run when it is shorter than n). */
function grams(units: readonly CjkUnit[], n: number): CjkTerm[] {
  if (units.length <= n) return units.length === 0 ? [] : [span(units, 0, units.length)];
  const out: CjkTerm[] = [];
  for (let i = 0; i + n <= units.length; i++) out.push(span(units, i, n));
  return out;
}

const segmenters = new Map<string, Intl.Segmenter>();

/** Dictionary words of a normalized run, by script: Hangul → ko, any kana → ja, else zh. */
function words(units: readonly CjkUnit[]): CjkTerm[] {
  const text = units.map((u) => u.ch).join("");
  const locale = /\p{Script=Hangul}/u.test(text) ? "ko" : /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? "ja" : "zh";
  let segmenter = segmenters.get(locale);
  if (!segmenter) segmenters.set(locale, (segmenter = new Intl.Segmenter(locale, { granularity: "word" })));
  // Offsets in `text` → unit index (every unit is one code point of `text`).
  const unitAt: number[] = [];
  units.forEach((u, i) => {
    for (let k = 0; k < u.ch.length; k++) unitAt.push(i);
  });
  const out: CjkTerm[] = [];
  for (const { segment, index, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    const first = unitAt[index]!;
    const last = unitAt[index + segment.length - 1]!;
    out.push({ term: segment, start: units[first]!.start, end: units[last]!.end });
  }
  return out;
}

/**
 * Document side: positional terms of a run (phrases match against these) and extras (appended
 * after the positional stream, like joined compounds).
 */
export function cjkDocumentTerms(run: string, strategy: CjkStrategy): { tokens: CjkTerm[]; extras: string[] } {
  const units = cjkUnits(run);
  switch (strategy) {
    case "bigram":
      return { tokens: grams(units, 2), extras: [] };
    case "unigram+bigram":
      return { tokens: grams(units, 2), extras: units.length > 1 ? units.map((u) => u.ch) : [] };
    case "segmenter":
      return { tokens: words(units), extras: [] };
    case "trigram": {
      const extras: string[] = [];
      if (units.length >= 3) extras.push(span(units, units.length - 2, 2).term);
      if (units.length >= 2) extras.push(units[units.length - 1]!.ch);
      return { tokens: grams(units, 3), extras };
    }
  }
}

/** Query side: the terms a query run becomes (OR-ed by the caller). */
export function cjkQueryTerms(run: string, strategy: CjkStrategy): CjkQueryTerm[] {
  const units = cjkUnits(run);
  const single = (t: CjkTerm): CjkQueryTerm => ({ surface: t.term, alternatives: [[t.term]] });
  switch (strategy) {
    case "bigram":
      return grams(units, 2).map(single);
    case "unigram+bigram":
      return [
        ...grams(units, 2).map(single),
        ...(units.length > 1 ? units.map((u) => single({ term: u.ch, start: u.start, end: u.end })) : []),
      ];
    case "segmenter":
      return words(units).map(single);
    case "trigram":
      if (units.length >= 3) return grams(units, 3).map(single);
      return grams(units, units.length).map((t) => ({ ...single(t), prefix: true }));
  }
}
