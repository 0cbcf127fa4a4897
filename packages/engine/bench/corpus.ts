/**
 * Deterministic synthetic corpus and queries for the engine benchmark.
 *
 * Word statistics meant to look like real help-center/documentation text to the engine:
 * - four languages (en, de, fr, it), each with its own syllable inventory, inflection suffixes and
 *   its real most frequent function words; about 50,000 word types in all;
 * - token frequencies follow a Zipf–Mandelbrot law (rank r ∝ 1/(r + 2.7)^1.05), short words being
 *   the frequent ones; function words make up about 40% of running text;
 * - each document has a handful of "topic" words that recur in it (burstiness), plus hyphenated
 *   compounds (`vorn-kalbe`) and identifiers (`QAT-4821`, `stalo.yaml`, `mira_tenk`);
 * - Markdown documents: `# Title`, several `## Heading` sections (sometimes `### ` subsections),
 *   paragraphs of 1–6 sentences and the odd bullet list.
 * Queries are drawn from the same distributions (never copied from a document): keyword queries
 * mixing frequent and rare words, natural-language questions, identifier and compound lookups, and
 * queries with a typo.
 *
 * Everything comes from a seeded PRNG (seededRandom, sfc32): the same seed gives byte-identical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { chunkDocument } from "../src/ingest/chunk.js";
import { parseDocument } from "../src/ingest/markdown.js";

export type Rng = () => number;

/**
 * sfc32 (Chris Doty-Humphrey's small fast counting generator, from PractRand) seeded with `seed`
 * and warmed up; floats in [0, 1). The corpus is synthetic: any good generator would do, and this
 * one is the engine's own, so the benchmark needs nothing outside the package.
 */
export function seededRandom(seed: number): Rng {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (((c << 21) | (c >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

/** Picks an index by (unnormalized) weights. */
function weighted(rng: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let x = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/** Zipf–Mandelbrot sampler over ranks 0..n-1: P(r) ∝ 1 / (r + 1 + q)^s. */
export class Zipf {
  private readonly cdf: Float64Array;

  constructor(n: number, s = 1.05, q = 2.7) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let r = 0; r < n; r++) {
      sum += 1 / (r + 1 + q) ** s;
      this.cdf[r] = sum;
    }
    for (let r = 0; r < n; r++) this.cdf[r]! /= sum;
  }

  sample(rng: Rng): number {
    const x = rng();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

interface LanguageProfile {
  code: string;
  /** Share of documents (and queries) in this language. */
  share: number;
  /** Content word types (lemmas). */
  types: number;
  onsets: string[];
  vowels: string[];
  codas: string[];
  /** Inflection suffixes, applied to ~20% of content tokens. */
  suffixes: string[];
  /** The language's most frequent function words, most frequent first. */
  functionWords: string[];
  /** Question openings for natural-language queries. */
  questions: string[];
}

const PROFILES: LanguageProfile[] = [
  {
    code: "en",
    share: 0.5,
    types: 18_000,
    onsets: [
      "",
      "",
      "b",
      "c",
      "d",
      "f",
      "g",
      "h",
      "l",
      "m",
      "n",
      "p",
      "r",
      "s",
      "t",
      "v",
      "w",
      "br",
      "cl",
      "cr",
      "dr",
      "fl",
      "gr",
      "pl",
      "pr",
      "sh",
      "sl",
      "st",
      "str",
      "th",
      "tr",
    ],
    vowels: ["a", "e", "i", "o", "u", "ea", "ou", "ai", "oo", "y"],
    codas: ["", "", "n", "r", "s", "t", "l", "m", "nd", "nt", "st", "ck", "ng", "rt", "ll"],
    suffixes: ["s", "s", "ed", "ing", "er", "ly", "ment", "tion"],
    functionWords:
      "the of and to a in is that for it on with as was be by this are or at from an not have can you which your will if when".split(" "),
    questions: ["how do I", "how to", "what is the", "why does my", "where can I find the", "can I"],
  },
  {
    code: "de",
    share: 0.25,
    types: 14_000,
    onsets: [
      "",
      "b",
      "d",
      "f",
      "g",
      "h",
      "k",
      "l",
      "m",
      "n",
      "p",
      "r",
      "s",
      "t",
      "w",
      "z",
      "sch",
      "st",
      "sp",
      "kr",
      "tr",
      "br",
      "pf",
      "gr",
      "fr",
    ],
    vowels: ["a", "e", "i", "o", "u", "ei", "au", "ie", "ä", "ö", "ü", "eu"],
    codas: ["", "n", "r", "s", "t", "l", "m", "ng", "ch", "ck", "nd", "st", "tz", "ß", "rt"],
    suffixes: ["en", "e", "er", "ung", "ungen", "es", "lich", "heit"],
    functionWords:
      "der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei".split(
        " ",
      ),
    questions: ["wie kann ich", "was ist", "warum wird mein", "wo finde ich die"],
  },
  {
    code: "fr",
    share: 0.15,
    types: 10_000,
    onsets: ["", "b", "c", "d", "f", "g", "j", "l", "m", "n", "p", "r", "s", "t", "v", "ch", "pr", "tr", "cr", "gr", "bl"],
    vowels: ["a", "e", "i", "o", "u", "é", "è", "ou", "ai", "eau", "au", "oi", "on", "an", "en"],
    codas: ["", "", "r", "s", "l", "n", "t", "x"],
    suffixes: ["s", "e", "es", "ent", "er", "ée", "tion", "ment"],
    functionWords: "de la le et les des en un du une que est pour qui dans par sur au pas plus ne se il ce avec sont".split(" "),
    questions: ["comment", "pourquoi mon", "où trouver le", "qu'est-ce que"],
  },
  {
    code: "it",
    share: 0.1,
    types: 5_000,
    onsets: ["", "b", "c", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "v", "ch", "gh", "gl", "sc", "st", "pr", "tr"],
    vowels: ["a", "e", "i", "o", "u", "ia", "io"],
    codas: ["", "", "", "n", "l", "r", "s"],
    suffixes: ["i", "e", "a", "o", "zione", "mente"],
    functionWords: "di e il la che in a per un del è le non una con da si dei come alla sono più".split(" "),
    questions: ["come posso", "perché il mio", "dove trovo la"],
  },
];

const COMPOUNDS_PER_LANGUAGE = 1_000;
const CODE_IDENTIFIERS = 2_000;
const FILE_IDENTIFIERS = 600;
const SNAKE_IDENTIFIERS = 400;
const FUNCTION_WORD_SHARE = 0.4;
const TOPIC_SHARE = 0.12;
const COMPOUND_SHARE = 0.015;
const IDENTIFIER_SHARE = 0.008;
const INFLECTION_SHARE = 0.2;

interface Language {
  profile: LanguageProfile;
  /** Content lemmas by frequency rank (shortest first, roughly). */
  words: string[];
  wordZipf: Zipf;
  functionZipf: Zipf;
  compounds: string[];
  compoundZipf: Zipf;
}

export interface Vocabulary {
  languages: Language[];
  identifiers: string[];
  identifierZipf: Zipf;
  /** Distinct surface types (lemmas, compounds, identifiers, function words; not counting inflections). */
  types: number;
}

function makeWord(rng: Rng, p: LanguageProfile): string {
  const syllables = 1 + weighted(rng, [20, 45, 25, 10]);
  let word = "";
  for (let i = 0; i < syllables; i++) {
    word += pick(rng, p.onsets) + pick(rng, p.vowels) + (i === syllables - 1 || rng() < 0.3 ? pick(rng, p.codas) : "");
  }
  return word;
}

export function buildVocabulary(seed: number): Vocabulary {
  const rng = seededRandom(seed ^ 0x9e3779b9);
  const taken = new Set<string>();
  for (const p of PROFILES) for (const w of p.functionWords) taken.add(w);
  const languages = PROFILES.map((p): Language => {
    const words: Array<{ word: string; key: number }> = [];
    while (words.length < p.types) {
      const word = makeWord(rng, p);
      if (word.length < 2 || taken.has(word)) continue;
      taken.add(word);
      // Frequent words are short (Zipf's law of abbreviation), with some noise.
      words.push({ word, key: word.length + rng() * 4 });
    }
    words.sort((a, b) => a.key - b.key);
    const lemmas = words.map((w) => w.word);
    const compounds = new Set<string>();
    while (compounds.size < COMPOUNDS_PER_LANGUAGE) {
      const a = lemmas[Math.floor(rng() ** 2 * lemmas.length)]!;
      const b = lemmas[Math.floor(rng() ** 2 * lemmas.length)]!;
      if (a !== b) compounds.add(`${a}-${b}`);
    }
    return {
      profile: p,
      words: lemmas,
      wordZipf: new Zipf(lemmas.length),
      functionZipf: new Zipf(p.functionWords.length, 1, 1),
      compounds: [...compounds],
      compoundZipf: new Zipf(compounds.size),
    };
  });
  const identifiers = new Set<string>();
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const prefixes = Array.from({ length: 60 }, () => Array.from({ length: 3 }, () => pick(rng, [...letters])).join(""));
  while (identifiers.size < CODE_IDENTIFIERS) identifiers.add(`${pick(rng, prefixes)}-${randInt(rng, 1000, 9999)}`);
  const en = languages[0]!.words;
  const exts = ["json", "yaml", "md", "ts", "csv", "log"];
  while (identifiers.size < CODE_IDENTIFIERS + FILE_IDENTIFIERS) identifiers.add(`${pick(rng, en.slice(0, 4000))}.${pick(rng, exts)}`);
  while (identifiers.size < CODE_IDENTIFIERS + FILE_IDENTIFIERS + SNAKE_IDENTIFIERS)
    identifiers.add(`${pick(rng, en.slice(0, 3000))}_${pick(rng, en.slice(0, 3000))}`);
  const ids = [...identifiers];
  const types = languages.reduce((n, l) => n + l.words.length + l.compounds.length + l.profile.functionWords.length, ids.length);
  return { languages, identifiers: ids, identifierZipf: new Zipf(ids.length), types };
}

function languageOf(vocab: Vocabulary, rng: Rng): Language {
  return vocab.languages[
    weighted(
      rng,
      vocab.languages.map((l) => l.profile.share),
    )
  ]!;
}

function contentWord(lang: Language, rng: Rng, rank = lang.wordZipf.sample(rng)): string {
  const lemma = lang.words[rank]!;
  return rng() < INFLECTION_SHARE ? lemma + pick(rng, lang.profile.suffixes) : lemma;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One token of running text in `lang`, with the document's topic words recurring. */
function token(vocab: Vocabulary, lang: Language, topic: readonly number[], rng: Rng): string {
  const x = rng();
  if (x < FUNCTION_WORD_SHARE) return lang.profile.functionWords[lang.functionZipf.sample(rng)]!;
  if (x < FUNCTION_WORD_SHARE + TOPIC_SHARE) return contentWord(lang, rng, pick(rng, topic));
  if (x < FUNCTION_WORD_SHARE + TOPIC_SHARE + COMPOUND_SHARE) return lang.compounds[lang.compoundZipf.sample(rng)]!;
  if (x < FUNCTION_WORD_SHARE + TOPIC_SHARE + COMPOUND_SHARE + IDENTIFIER_SHARE)
    return vocab.identifiers[vocab.identifierZipf.sample(rng)]!;
  const word = contentWord(lang, rng);
  // German capitalizes nouns; about a third of its content words here.
  return lang.profile.code === "de" && rng() < 0.33 ? capitalize(word) : word;
}

function sentence(vocab: Vocabulary, lang: Language, topic: readonly number[], rng: Rng): string {
  const n = randInt(rng, 5, 24);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(token(vocab, lang, topic, rng) + (i < n - 1 && rng() < 0.07 ? "," : ""));
  words[0] = capitalize(words[0]!);
  return words.join(" ") + pick(rng, [".", ".", ".", ".", ".", ".", "?", "!"]);
}

function phrase(lang: Language, topic: readonly number[], rng: Rng, min: number, max: number): string {
  const n = randInt(rng, min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng() < 0.5 ? lang.words[pick(rng, topic)]! : contentWord(lang, rng));
  return capitalize(words.join(" "));
}

export interface GeneratedDocument {
  /** Relative path: `<lang>/<area>/<slug>-<n>.md`, so the engine takes the language from the folder. */
  path: string;
  language: string;
  markdown: string;
}

export function generateDocument(vocab: Vocabulary, n: number, rng: Rng): GeneratedDocument {
  const lang = languageOf(vocab, rng);
  const topic = Array.from({ length: 12 }, () => randInt(rng, 100, Math.min(8000, lang.words.length - 1)));
  const area = lang.words[randInt(rng, 20, 60)]!;
  const title = phrase(lang, topic, rng, 2, 6);
  const parts = [`# ${title}`, ""];
  const sections = 1 + weighted(rng, [6, 10, 14, 14, 12, 10, 8, 6, 4, 3, 2, 1]);
  for (let s = 0; s < sections; s++) {
    parts.push(`${s > 0 && rng() < 0.15 ? "###" : "##"} ${phrase(lang, topic, rng, 1, 5)}`, "");
    const paragraphs = randInt(rng, 1, 5);
    for (let p = 0; p < paragraphs; p++) {
      if (rng() < 0.1) {
        const items = randInt(rng, 2, 6);
        for (let i = 0; i < items; i++) parts.push(`- ${phrase(lang, topic, rng, 2, 9)}`);
      } else {
        const sentences = randInt(rng, 1, 6);
        parts.push(Array.from({ length: sentences }, () => sentence(vocab, lang, topic, rng)).join(" "));
      }
      parts.push("");
    }
  }
  const slug = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .slice(0, 40);
  return { path: `${lang.profile.code}/${area}/${slug}-${n}.md`, language: lang.profile.code, markdown: parts.join("\n") };
}

export type QueryKind = "keywords" | "question" | "identifier" | "compound" | "typo";

export interface BenchQuery {
  text: string;
  kind: QueryKind;
  language: string;
}

/** A content word that is frequent (top 1,000) or rare (rank 2,000 and beyond), half and half. */
function queryWord(lang: Language, rng: Rng): string {
  const frequent = rng() < 0.5;
  let rank = frequent ? lang.wordZipf.sample(rng) : randInt(rng, 2000, lang.words.length - 1);
  while (frequent && rank >= 1000) rank = lang.wordZipf.sample(rng);
  return contentWord(lang, rng, rank);
}

function typo(word: string, rng: Rng): string {
  if (word.length < 5) return word + word.charAt(word.length - 1);
  const i = randInt(rng, 1, word.length - 2);
  return rng() < 0.5 ? word.slice(0, i) + word.slice(i + 1) : word.slice(0, i) + word.charAt(i + 1) + word.charAt(i) + word.slice(i + 2);
}

export function generateQueries(vocab: Vocabulary, count: number, rng: Rng): BenchQuery[] {
  const kinds: QueryKind[] = ["keywords", "question", "identifier", "compound", "typo"];
  const out: BenchQuery[] = [];
  for (let q = 0; q < count; q++) {
    const lang = languageOf(vocab, rng);
    const kind = kinds[weighted(rng, [45, 20, 12, 13, 10])]!;
    const words: string[] = [];
    let text: string;
    switch (kind) {
      case "keywords":
        for (let i = randInt(rng, 2, 6); i > 0; i--) words.push(queryWord(lang, rng));
        text = words.join(" ");
        break;
      case "question":
        for (let i = randInt(rng, 1, 3); i > 0; i--) words.push(queryWord(lang, rng));
        text = `${pick(rng, lang.profile.questions)} ${words.join(" ")}`;
        break;
      case "identifier":
        for (let i = randInt(rng, 1, 3); i > 0; i--) words.push(queryWord(lang, rng));
        words.splice(randInt(rng, 0, words.length), 0, vocab.identifiers[vocab.identifierZipf.sample(rng)]!);
        text = words.join(" ");
        break;
      case "compound":
        for (let i = randInt(rng, 1, 3); i > 0; i--) words.push(queryWord(lang, rng));
        words.splice(randInt(rng, 0, words.length), 0, lang.compounds[lang.compoundZipf.sample(rng)]!);
        text = words.join(" ");
        break;
      case "typo": {
        for (let i = randInt(rng, 2, 5); i > 0; i--) words.push(queryWord(lang, rng));
        const i = randInt(rng, 0, words.length - 1);
        words[i] = typo(words[i]!, rng);
        text = words.join(" ");
        break;
      }
    }
    out.push({ text, kind, language: lang.profile.code });
  }
  return out;
}

/**
 * Queries for a user-supplied corpus: 2–6 words from a frequency table of sample passages,
 * each word frequent (top 1,000 by count, Zipf-weighted) or rare (the rest, uniform), half and half.
 */
export function queriesFromSample(texts: readonly string[], count: number, rng: Rng): BenchQuery[] {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.toLowerCase().matchAll(/\p{L}[\p{L}\p{N}]*(?:[-_.][\p{L}\p{N}]+)*/gu)) {
      counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  if (ranked.length < 2) throw new Error("the corpus sample holds fewer than two distinct words; cannot make queries");
  const head = Math.min(1000, ranked.length);
  const zipf = new Zipf(head);
  const out: BenchQuery[] = [];
  for (let q = 0; q < count; q++) {
    const words: string[] = [];
    for (let i = randInt(rng, 2, 6); i > 0; i--) {
      words.push(rng() < 0.5 || ranked.length === head ? ranked[zipf.sample(rng)]! : ranked[randInt(rng, head, ranked.length - 1)]!);
    }
    out.push({ text: words.join(" "), kind: "keywords", language: "?" });
  }
  return out;
}

export interface GeneratedCorpus {
  folder: string;
  documents: number;
  passages: number;
  bytes: number;
  wordTypes: number;
  ms: number;
}

/** Writes Markdown files until the engine's chunker (same code, same defaults) yields `target` passages. */
export async function writeCorpus(folder: string, seed: number, target: number): Promise<GeneratedCorpus> {
  const started = performance.now();
  const vocab = buildVocabulary(seed);
  const rng = seededRandom(seed);
  const dirs = new Set<string>();
  let passages = 0;
  let bytes = 0;
  let documents = 0;
  while (passages < target) {
    const doc = generateDocument(vocab, documents, rng);
    const parsed = parseDocument(doc.path, doc.markdown);
    passages += chunkDocument(parsed.body, parsed.title, parsed.markdown).length;
    const file = join(folder, doc.path);
    const dir = dirname(file);
    if (!dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    writeFileSync(file, doc.markdown);
    bytes += Buffer.byteLength(doc.markdown);
    documents++;
    // Lets signal handlers run between synchronous stretches.
    if (documents % 1000 === 0) await new Promise((r) => setImmediate(r));
  }
  return { folder, documents, passages, bytes, wordTypes: vocab.types, ms: performance.now() - started };
}
