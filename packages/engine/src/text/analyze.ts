/**
 * The analyzer: the one place that turns text into index terms, for documents and for queries
 * alike, so both sides always agree.
 *
 * A *chunk* is a run of letters/digits, possibly joined by connector characters
 * (`real-time`, `DEC-0054`, `config.yaml`, `support@tessera.example`). A chunk splits into
 * *parts* at connectors, at camelCase humps, at letter↔digit boundaries and at script changes.
 *
 * Document side, per chunk:
 * - every part becomes a positional token: NFKC, lower case, stemmed for the document's
 *   language (parts with digits are never stemmed), then Latin diacritics folded
 *   (`Kündigungen` → `kundig`, so `Kundigung` finds it);
 * - a chunk of two or more parts also yields the *joined* form (`dec0054`, `configyaml`,
 *   `realtime`) so an identifier matches however it is written;
 * - German words with umlauts also yield their transliterated stem (`kuendig`), so a query typed
 *   without umlauts (`Kuendigung`) matches;
 * - CJK runs become terms by the configured strategy (text/cjk.ts): overlapping character bigrams
 *   by default, chosen on the CJK lane (docs/engine.md); every run is NFKC-normalized per grapheme
 *   first, so NFD kana/Hangul and half-width katakana index like their composed forms.
 * Joined and transliterated forms are *extras*: they are appended after the positional stream so
 * they never break phrase adjacency.
 *
 * Query side: the same parts; each word becomes a term whose alternatives are its stems in each
 * candidate language; a compound becomes a term matching either its joined form or the phrase of
 * its parts. No user text ever reaches FTS5 syntax: see `buildMatchExpression`.
 */
import { stem, STEMMABLE_LANGUAGES } from "./stem.js";
import { CJK_STRATEGIES, cjkDocumentTerms, cjkQueryTerms, type CjkStrategy } from "./cjk.js";
import { CJK_RUN_CHAR, CONNECTORS, foldDiacritics, transliterateGerman } from "./script.js";
import { stopwordsFor } from "./stopwords.js";
import { CHUNK_CHAR_CLASS, ChunkMemo, ChunkScanner } from "./chunks.js";

export interface AnalyzerConfig {
  /**
   * Languages whose words are stemmed (Snowball). Others are only folded.
   * @default every language with a stemmer
   */
  stemLanguages: readonly string[];
  /** How CJK runs become terms (text/cjk.ts). @default "bigram" */
  cjk: CjkStrategy;
}

export const DEFAULT_ANALYZER: AnalyzerConfig = {
  stemLanguages: STEMMABLE_LANGUAGES,
  cjk: "bigram",
};

/**
 * The analyzer for `options` (defaults for what is missing). Throws TypeError/RangeError naming a
 * misspelled key or a bad value, e.g. `{ cjk: "unigram" }`.
 */
export function resolveAnalyzer(options: Partial<AnalyzerConfig> = {}): AnalyzerConfig {
  if (options === null || typeof options !== "object") throw new TypeError(`Expected "analyzer" to be an object`);
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(DEFAULT_ANALYZER, key))
      throw new TypeError(`Unknown analyzer option "${key}" (known: ${Object.keys(DEFAULT_ANALYZER).join(", ")})`);
  }
  const config = { ...DEFAULT_ANALYZER, ...options };
  if (!CJK_STRATEGIES.includes(config.cjk)) {
    throw new RangeError(`Expected analyzer "cjk" to be one of ${CJK_STRATEGIES.join(", ")}, got ${JSON.stringify(config.cjk)}`);
  }
  if (!Array.isArray(config.stemLanguages) || config.stemLanguages.some((l) => typeof l !== "string")) {
    throw new TypeError(`Expected analyzer "stemLanguages" to be an array of language codes`);
  }
  return config;
}

/** Stable id recorded in the index; a change forces a rebuild of the full-text index. */
export function analyzerId(config: AnalyzerConfig): string {
  const stemmed = [...config.stemLanguages].sort().join(",") || "none";
  // v3: JSONL ids are no longer indexed (the path column holds folder paths only); the version
  // change rebuilds the full-text rows of an older index on its next `index` run.
  return `analyzer-v3(fold,split,join,translit-de,stem=${stemmed},cjk=${config.cjk})`;
}

const ESC = CONNECTORS.replace(/[\\\-\]^]/g, "\\$&");
/** A chunk: letters/digits joined by connectors (`real-time`, `DEC-0054`). Global: use with matchAll, or reset lastIndex. */
export const CHUNK_RE = new RegExp(`[${CHUNK_CHAR_CLASS}]+(?:[${ESC}]{1,3}[${CHUNK_CHAR_CLASS}]+)*`, "gu");
/** One or more connector characters. */
export const CONNECTOR_RE = new RegExp(`[${ESC}]+`, "u");
const CJK_RUN_RE = new RegExp(`(${CJK_RUN_CHAR.source.slice(0, -1)}]+)`, "u");
const HUMP_RE = /\p{Lu}+(?=\p{Lu}[\p{Ll}\p{M}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{Lt}\p{M}]+|\p{Lu}+\p{M}*|\p{N}+/gu;
const MAX_JOINED_LENGTH = 64;
/** Longest index term: a longer word is cut to this length, on both sides. */
export const MAX_TOKEN_LENGTH = 64;

interface Part {
  text: string;
  start: number;
  end: number;
  cjk: boolean;
}

/** Splits a chunk (at `offset` in the source) into parts, keeping offsets into the source. */
function splitChunk(chunk: string, offset: number, out: Part[]): void {
  let pos = 0;
  for (const piece of chunk.split(CONNECTOR_RE)) {
    const at = chunk.indexOf(piece, pos);
    pos = at + piece.length;
    let segPos = 0;
    for (const seg of piece.split(CJK_RUN_RE)) {
      if (seg === "") continue;
      const segAt = piece.indexOf(seg, segPos);
      segPos = segAt + seg.length;
      const base = offset + at + segAt;
      if (CJK_RUN_CHAR.test(seg[0]!)) {
        out.push({ text: seg, start: base, end: base + seg.length, cjk: true });
        continue;
      }
      HUMP_RE.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = HUMP_RE.exec(seg)) !== null) {
        out.push({ text: m[0], start: base + m.index, end: base + m.index + m[0].length, cjk: false });
      }
    }
  }
}

function lower(part: string): string {
  return part.normalize("NFKC").toLowerCase();
}

function wordTerm(lowered: string, language: string | undefined, config: AnalyzerConfig): string {
  const stemmed = language !== undefined && config.stemLanguages.includes(language) ? stem(lowered, language) : lowered;
  const term = foldDiacritics(stemmed);
  return term.length > MAX_TOKEN_LENGTH ? term.slice(0, MAX_TOKEN_LENGTH) : term;
}

export interface PositionedToken {
  term: string;
  /** UTF-16 offsets into the analyzed text. */
  start: number;
  end: number;
}

export interface AnalyzedDocumentText {
  /** Positional tokens in reading order (phrases match against these). */
  tokens: PositionedToken[];
  /** Joined compounds and transliterations, appended after the positional stream. */
  extras: string[];
}

/** Analyzes document text for `language` (the document's language, if known). */
export function analyzeDocumentText(
  text: string,
  language: string | undefined,
  config: AnalyzerConfig = DEFAULT_ANALYZER,
): AnalyzedDocumentText {
  const tokens: PositionedToken[] = [];
  const extras: string[] = [];
  const memo = chunkMemo(config, language);
  const scanner = new ChunkScanner(text);
  while (scanner.next()) {
    const { start, end } = scanner;
    const chunk = cachedChunk(text, scanner, language, config, memo);
    if (typeof chunk === "string") {
      tokens.push({ term: chunk, start, end });
      continue;
    }
    for (const t of chunk.tokens) tokens.push({ term: t.term, start: start + t.start, end: start + t.end });
    for (const e of chunk.extras) extras.push(e);
  }
  return { tokens, extras };
}

/**
 * The memoized analysis of one chunk: the term alone when the chunk is one token spanning all of
 * it with no extras (a plain word: most chunks), else tokens (offsets relative to the chunk) and
 * extras. The plain form holds no objects, so a full memo costs the heap and the GC less.
 */
type ChunkAnalysis = string | AnalyzedDocumentText;

/**
 * A corpus repeats its chunks (words, identifiers), so their analysis is memoized per (analyzer
 * config, language): measured on 100,000 generated passages, analysis fell from 9.2 s to 3.3 s
 * with identical terms. The key is everything the analysis depends on: the config object (never
 * changed once resolved), the language and the chunk's text; the analyzer's code is the process's.
 */
function cachedChunk(
  text: string,
  at: ChunkScanner,
  language: string | undefined,
  config: AnalyzerConfig,
  memo: ChunkMemo<ChunkAnalysis>,
): ChunkAnalysis {
  let analysis = memo.get(text, at.start, at.end, at.hash);
  if (analysis === undefined) {
    const chunk = text.slice(at.start, at.end);
    analysis = analyzeChunk(chunk, language, config);
    memo.set(chunk, at.hash, analysis);
  }
  return analysis;
}

/**
 * A chunk that is one part whatever the splitting rules: one ASCII word in lower case, capitalized
 * or all capitals, or one run of ASCII digits. NFKC leaves ASCII as it is, so such a chunk needs
 * neither the splitting regexes nor normalization.
 */
const PLAIN_ASCII_CHUNK = /^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$/;

/** Analysis of one chunk, with offsets relative to the chunk. */
function analyzeChunk(chunk: string, language: string | undefined, config: AnalyzerConfig): ChunkAnalysis {
  if (PLAIN_ASCII_CHUNK.test(chunk)) return wordTerm(chunk.toLowerCase(), language, config);
  const tokens: PositionedToken[] = [];
  const extras: string[] = [];
  const parts: Part[] = [];
  splitChunk(chunk, 0, parts);
  let joined = "";
  let latinParts = 0;
  for (const part of parts) {
    if (part.cjk) {
      const run = cjkDocumentTerms(part.text, config.cjk);
      for (const t of run.tokens) tokens.push({ term: t.term, start: part.start + t.start, end: part.start + t.end });
      extras.push(...run.extras);
      continue;
    }
    const lowered = lower(part.text);
    tokens.push({ term: wordTerm(lowered, language, config), start: part.start, end: part.end });
    if (language === "de" && /[äöüß]/.test(lowered)) {
      const alt = wordTerm(transliterateGerman(lowered), language, config);
      if (alt !== tokens[tokens.length - 1]!.term) extras.push(alt);
    }
    joined += foldDiacritics(lowered);
    latinParts++;
  }
  if (latinParts >= 2 && joined.length <= MAX_JOINED_LENGTH) extras.push(joined);
  const only = tokens[0];
  if (tokens.length === 1 && extras.length === 0 && only!.start === 0 && only!.end === chunk.length) return only!.term;
  return { tokens, extras };
}

/**
 * Bound of each memo: chunks per (analyzer config, language), cleared when full. The bench's
 * 100,012 passages hold 133,347 distinct chunks in English (de 111,701, fr 71,824, it 38,643), so
 * an index of that size never starts over; an entry costs ~180 bytes of heap (29.5 MiB for the
 * 167,860 chunks of 20,000 passages), so a full memo is ~35 MiB.
 */
const MAX_CACHED_CHUNKS = 200_000;
const chunkMemos = new WeakMap<AnalyzerConfig, Map<string, ChunkMemo<ChunkAnalysis>>>();

function chunkMemo(config: AnalyzerConfig, language: string | undefined): ChunkMemo<ChunkAnalysis> {
  let byLanguage = chunkMemos.get(config);
  if (!byLanguage) {
    byLanguage = new Map();
    chunkMemos.set(config, byLanguage);
  }
  const key = language ?? "";
  let memo = byLanguage.get(key);
  if (!memo) {
    memo = new ChunkMemo(MAX_CACHED_CHUNKS);
    byLanguage.set(key, memo);
  }
  return memo;
}

/**
 * The token stream written into an FTS5 column: the positional terms, then the extras, separated
 * by spaces. Built from the chunk memo as strings only (no token objects, no offsets), joined once.
 */
export function indexTerms(text: string, language: string | undefined, config: AnalyzerConfig = DEFAULT_ANALYZER): string {
  const terms: string[] = [];
  let extras: string[] | undefined;
  const memo = chunkMemo(config, language);
  const scanner = new ChunkScanner(text);
  while (scanner.next()) {
    const chunk = cachedChunk(text, scanner, language, config, memo);
    if (typeof chunk === "string") {
      terms.push(chunk);
      continue;
    }
    for (const t of chunk.tokens) terms.push(t.term);
    if (chunk.extras.length > 0) (extras ??= []).push(...chunk.extras);
  }
  if (extras) for (const e of extras) terms.push(e);
  return joinTerms(terms);
}

/**
 * Terms joined by single spaces, where empty terms before the first non-empty one add no space
 * (a lone combining mark folds to ""): the form the FTS5 rows have always had.
 */
export function joinTerms(terms: readonly string[]): string {
  let first = 0;
  while (first < terms.length && terms[first] === "") first++;
  return first === 0 ? terms.join(" ") : terms.slice(first).join(" ");
}

export interface QueryTerm {
  /** How the term appeared in the query (lower case), for explanations and snippets. */
  surface: string;
  /** Each alternative is a sequence of index terms; more than one term means a phrase. */
  alternatives: string[][];
  kind: "word" | "compound" | "cjk";
  /** Matches every index term that starts with the alternative (CJK trigram strategy, short runs). */
  prefix?: boolean;
  /** A function word of the query's language; dropped from matching when other terms remain. */
  stop: boolean;
}

export interface AnalyzedQuery {
  terms: QueryTerm[];
  /** Number of distinct terms dropped because the query exceeded `MAX_QUERY_TERMS`. */
  truncated: number;
}

/** Queries longer than this many distinct terms keep their first terms only (a 10,000-character query stays fast). */
export const MAX_QUERY_TERMS = 64;

/**
 * Characters of a query that are analyzed, expanded, embedded and reranked against. Beyond
 * `MAX_QUERY_TERMS` distinct terms nothing more is matched anyway, but analyzing a 100,000-character
 * CJK run alone took a second; with the cut every tier's cost has a bound whatever the input.
 */
export const MAX_QUERY_CHARS = 10_000;

/** The part of a query that is used: all of it, or its first `MAX_QUERY_CHARS` characters, ending at a space if one is near. */
export function usedQueryText(text: string): string {
  if (text.length <= MAX_QUERY_CHARS) return text;
  let end = MAX_QUERY_CHARS;
  const space = text.lastIndexOf(" ", end);
  if (space > end - 200) end = space;
  // Never end between the two halves of a surrogate pair.
  else if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return text.slice(0, end);
}

export interface QueryAnalysisOptions {
  /** Languages whose stems a word may take; the union of the index's languages when unknown. */
  languages: readonly string[];
  /** The query's own language, if known: it decides which stop words are dropped. */
  queryLanguage?: string | undefined;
  config?: AnalyzerConfig;
  /**
   * Also match the joined form of two or three plain words in a row, so a compound typed with
   * spaces (`real time`, `max parallel uploads`) finds `real-time`, `max_parallel_uploads`. For the
   * MATCH expression only: a reranker that counts query terms would count these as missing words.
   * @default false
   */
  spacedCompounds?: boolean;
  /**
   * Whether an alternative (a term, or the phrase of several) occurs in the index. When given, a
   * compound none of whose alternatives occurs (`CPI-Maßstab` where no passage has `cpimassstab`
   * or the phrase `cpi massstab`) becomes its parts, each a word of its own.
   */
  occurs?: (alternative: readonly string[]) => boolean;
}

export function analyzeQuery(text: string, options: QueryAnalysisOptions): AnalyzedQuery {
  const config = options.config ?? DEFAULT_ANALYZER;
  const languages = options.queryLanguage !== undefined ? unique([options.queryLanguage, ...options.languages]) : options.languages;
  const stops = stopwordsFor(options.queryLanguage);
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  let truncated = 0;
  /** Adds a term unless it is a duplicate; beyond the cap, counts it as dropped (or, when optional, drops it silently). */
  const add = (term: QueryTerm, optional = false): void => {
    const key =
      term.alternatives
        .map((a) => a.join(" "))
        .sort()
        .join("|") + (term.prefix ? "*" : "");
    if (seen.has(key)) return;
    seen.add(key);
    if (terms.length >= MAX_QUERY_TERMS) {
      if (!optional) truncated++;
      return;
    }
    terms.push(term);
  };
  const stemsOf = (lowered: string): string[] =>
    unique([wordTerm(lowered, undefined, config), ...languages.map((l) => wordTerm(lowered, l, config))]);

  /** "joined form OR phrase of its parts (stemmed per language)". */
  const compound = (surface: string, lowered: readonly string[]): QueryTerm => {
    const joined = lowered.map(foldDiacritics).join("");
    const phrases = unique([undefined, ...languages].map((l) => lowered.map((w) => wordTerm(w, l, config)).join(" "))).map((p) =>
      p.split(" "),
    );
    const alternatives = joined.length <= MAX_JOINED_LENGTH ? [[joined], ...phrases] : phrases;
    return { surface, alternatives, kind: "compound", stop: false };
  };

  // Plain words in a row (only spaces between them), for the spaced spellings of compounds.
  const run: Array<{ word: string; end: number; stop: boolean }> = [];
  const sequences: Array<typeof run> = [];
  const parts: Part[] = [];
  CHUNK_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CHUNK_RE.exec(text)) !== null) {
    parts.length = 0;
    splitChunk(m[0], m.index, parts);
    const latin = parts.filter((p) => !p.cjk);
    for (const part of parts) {
      if (!part.cjk) continue;
      for (const t of cjkQueryTerms(part.text, config.cjk)) add({ ...t, kind: "cjk", stop: false });
    }
    const previous = run[run.length - 1];
    if (previous && !(latin.length === 1 && parts.length === 1 && /^[ \t]+$/.test(text.slice(previous.end, m.index))))
      sequences.push(run.splice(0));
    if (latin.length === 0) continue;
    const lowered = latin.map((p) => lower(p.text));
    if (latin.length === 1) {
      const word = lowered[0]!;
      add({ surface: word, alternatives: stemsOf(word).map((s) => [s]), kind: "word", stop: stops.has(word) });
      if (parts.length === 1) run.push({ word, end: m.index + m[0].length, stop: stops.has(word) });
      continue;
    }
    const whole = compound(m[0].toLowerCase(), lowered);
    if (options.occurs && !whole.alternatives.some(options.occurs)) {
      for (const word of lowered) add({ surface: word, alternatives: stemsOf(word).map((s) => [s]), kind: "word", stop: stops.has(word) });
    } else add(whole);
  }
  sequences.push(run);
  // Two or three content words in a row may be a compound written with spaces: their joined form
  // is one more term, after all the others so that a long query drops these first. Joined forms
  // only (a phrase alternative cost 0.002 nDCG@10 on the fixtures' natural-language queries).
  for (const sequence of options.spacedCompounds ? sequences : []) {
    for (let n = 2; n <= 3; n++) {
      for (let i = 0; i + n <= sequence.length; i++) {
        const words = sequence.slice(i, i + n);
        if (words.some((w) => w.stop)) continue;
        const joined = words.map((w) => foldDiacritics(w.word)).join("");
        if (joined.length <= MAX_JOINED_LENGTH)
          add({ surface: words.map((w) => w.word).join(" "), alternatives: [[joined]], kind: "compound", stop: false }, true);
      }
    }
  }
  return { terms, truncated };
}

/** The terms that take part in matching: content terms, or every term when all are stop words. */
export function matchingTerms(query: AnalyzedQuery): QueryTerm[] {
  const content = query.terms.filter((t) => !t.stop);
  return content.length > 0 ? content : query.terms;
}

function quote(tokens: readonly string[]): string {
  return `"${tokens.join(" ").replace(/"/g, '""')}"`;
}

/**
 * Builds an FTS5 MATCH expression from analyzed terms: every alternative is a quoted phrase, the
 * alternatives of a term are OR-ed, and the terms are OR-ed (measured: AND of natural-language
 * terms returns nothing for most real queries). Returns "" when there is nothing to match.
 */
export function buildMatchExpression(terms: readonly QueryTerm[]): string {
  return terms
    .map((t) => {
      const star = t.prefix ? "*" : "";
      return t.alternatives.length === 1
        ? quote(t.alternatives[0]!) + star
        : `(${t.alternatives.map((a) => quote(a) + star).join(" OR ")})`;
    })
    .join(" OR ");
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
