/**
 * Constructed labelled items for measuring the judged metrics' heuristics (`pnpm bench:judge-items`
 * writes them to fixtures/labels/; `pnpm eval:calibrate --items` measures them): right and
 * corrupted answers over passages of a corpus, each labelled by construction, not by a person.
 *
 * A **base** is a question, a true sentence S of a passage and the passage itself; every item of a
 * base has that passage and a distractor passage of another document as its contexts, in a seeded
 * order. Per base, each kind that applies:
 *
 * | kind | answer | faithfulness | answer relevance | answer correctness (reference: S) |
 * | --- | --- | --- | --- | --- |
 * | extract | S | 1 | 1 | 1 |
 * | clause | S without its first clause | 1 | 1 | – |
 * | short | the base's short answer (a fact of S: an expected substring, a number, a name) | 1 | 1 | 1 |
 * | short-changed | that short answer with its number or name changed | 0 | 1 | 0 |
 * | number-changed | S with one number changed to one the contexts do not hold | 0 | 1 | 0 |
 * | name-swapped | S with a name replaced by a name of another document | 0 | 1 | 0 |
 * | negated | S with its verb negated | 0 | 1 | 0 |
 * | spliced | the first half of S and the second half of another sentence of the passage | 0 | – | – |
 * | added-claim | S and a sentence of another document | 0 | 1 | – |
 * | off-context | a sentence of another document | 0 | 0 | 0 |
 * | yes-true / no-true | "Yes." / "No." to "is it true that S?" | 1 / 0 | 1 | – |
 * | yes-false / no-false | "Yes." / "No." to the question of a corrupted S | 0 / 1 | 1 | – |
 *
 * A third of the full-sentence answers, whatever their label, open with "According to the
 * documents," in the base's language, so that wording is no sign of a label. Everything is drawn
 * from a seeded generator: the same corpus and seed give the same items, byte for byte.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mulberry32 } from "@hybrid-search/eval-gate/stats";

/** How many CISI bases the CISI half has. */
export const CISI_BASES = 30;

export type ItemKind =
  | "extract"
  | "clause"
  | "short"
  | "short-changed"
  | "number-changed"
  | "name-swapped"
  | "negated"
  | "spliced"
  | "added-claim"
  | "off-context"
  | "yes-true"
  | "no-true"
  | "yes-false"
  | "no-false";

export interface Base {
  /** The base's id, the prefix of its items' ids. */
  id: string;
  language: string;
  question: string;
  /** The true sentence the answers are made from. */
  sentence: string;
  /** The passage that holds it, as a context. */
  passage: string;
  /** The document it comes from (another document's sentences are off-context). */
  doc: string;
  /** A short answer (a fact of the sentence) and the question it answers; null when the base has none. */
  short: { answer: string; question: string } | null;
}

export interface ConstructedItem {
  id: string;
  question: string;
  contexts: string[];
  answer: string;
  reference?: string;
  language: string;
  labels: { faithfulness: number; "answer-relevance"?: number; "answer-correctness"?: number };
  labeller: string;
  note: string;
}

/** A document's sentences, for the distractors, the off-context claims and the name pool. */
export interface CorpusDoc {
  id: string;
  language: string;
  passages: string[];
}

export const CONSTRUCTED_LABELLER = "constructed";

/** A seeded generator (the gate's mulberry32), so the items are the same on every machine. */
export const seeded = (seed: number): (() => number) => mulberry32(seed);

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

/** The sentences of a passage: split after `.` `!` `?` and at line breaks, Markdown marks removed. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => plainMarkdown(line).split(/(?<=[.!?])\s+(?=[\p{Lu}\d"«(])/u))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A line of Markdown as text: heading, list and emphasis marks removed. */
export function plainMarkdown(line: string): string {
  return line
    .replace(/^\s*(?:#+|[-*+]|\d+[.)])\s+/, "")
    .replace(/(\*\*|__|\*|_|`)(.+?)\1/g, "$2")
    .trim();
}

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

const NUMBER = /(?<![\p{L}\d.,-])\d+(?:[.,]\d+)?(?![\p{L}\d]|[.,]\d)/gu;

/** The numbers of a sentence, as written, with where they stand. */
export function numbersIn(sentence: string): Array<{ text: string; at: number }> {
  return [...sentence.matchAll(NUMBER)].map((m) => ({ text: m[0], at: m.index! }));
}

/**
 * Another number in the same form: a year moves by 1–5, a small count by 1–3, any other number by
 * 20–60 % (at least 1); decimals keep their places and mark. Never one of `avoid`.
 */
export function changedNumber(text: string, rand: () => number, avoid: (candidate: string) => boolean): string | null {
  const mark = text.includes(",") ? "," : ".";
  const [whole, decimals] = text.split(/[.,]/);
  const n = Number(whole);
  for (let attempt = 0; attempt < 20; attempt++) {
    const up = rand() < 0.5;
    let m: number;
    if (decimals === undefined && n >= 1900 && n <= 2100) m = n + (up ? 1 : -1) * (1 + Math.floor(rand() * 5));
    else if (n <= 10) m = up || n < 2 ? n + 1 + Math.floor(rand() * 3) : n - 1;
    else m = Math.max(1, Math.round(n * (1 + (up ? 1 : -1) * (0.2 + rand() * 0.4))));
    if (m === n || m < 0) continue;
    const out = decimals === undefined ? String(m) : `${m}${mark}${decimals}`;
    if (!avoid(out)) return out;
  }
  return null;
}

/** Names a sentence writes: identifiers (`DEC-0054`, `E-4012`), acronyms (`DDC`), capitalised words where no sentence starts. */
export function namesIn(sentence: string, language: string): Array<{ text: string; at: number }> {
  const out: Array<{ text: string; at: number }> = [];
  for (const m of sentence.matchAll(/[\p{L}\d]+(?:[-_.@][\p{L}\d]+)*/gu)) {
    const w = m[0];
    const identifier = /\d/.test(w) && /\p{L}/u.test(w);
    const acronym = /^\p{Lu}{2,}$/u.test(w);
    const capital = /^\p{Lu}\p{Ll}/u.test(w) && m.index! > 0 && !/[.!?:]\s*$/.test(sentence.slice(0, m.index!)) && language !== "de";
    if (identifier || acronym || capital) out.push({ text: w, at: m.index! });
  }
  return out;
}

const NEGATIONS: Record<string, Array<[RegExp, (verb: string) => string]>> = {
  en: [[/\b(is|are|was|were|can|will|should|must|has|have|does|do)\b/, (v) => `${v} not`]],
  de: [[/(?<![\p{L}])(ist|sind|kann|können|wird|werden|hat|haben|muss|müssen|gibt|bleibt|bleiben)(?![\p{L}])/u, (v) => `${v} nicht`]],
  fr: [
    [
      /(?<![\p{L}'])(est|sont|peut|peuvent|doit|doivent|reste|restent)(?![\p{L}])/u,
      (v) => (/^[aeiouéè]/.test(v) ? `n'${v} pas` : `ne ${v} pas`),
    ],
  ],
  it: [[/(?<![\p{L}])(è|sono|può|possono|viene|vengono|deve|devono|resta|restano)(?=\s)/u, (v) => `non ${v}`]],
};
const HAS_NEGATION = /\b(not|no|never|nicht|kein\w*|nie|ne|pas|jamais|non|mai)\b|n't|n'/i;

/** S with its first verb that takes a plain negation negated; null when it has none or is already negative. */
export function negated(sentence: string, language: string): string | null {
  if (HAS_NEGATION.test(sentence)) return null;
  for (const [pattern, negate] of NEGATIONS[language] ?? []) {
    const m = pattern.exec(sentence);
    if (m) return sentence.slice(0, m.index) + negate(m[0]) + sentence.slice(m.index + m[0].length);
  }
  return null;
}

const ACCORDING: Record<string, string> = {
  en: "According to the documents, ",
  de: "Laut den Dokumenten: ",
  fr: "D'après les documents, ",
  it: "Secondo i documenti, ",
};

const IS_IT_TRUE: Record<string, (s: string) => string> = {
  en: (s) => `Is it true that ${lowerFirst(s, "en").replace(/[.!]$/, "")}?`,
  de: (s) => `Ist es richtig, dass ${s.replace(/[.!]$/, "")}?`,
  fr: (s) => `Est-ce que ${lowerFirst(s, "fr").replace(/[.!]$/, "")} ?`,
  it: (s) => `È vero che ${lowerFirst(s, "it").replace(/[.!]$/, "")}?`,
};

const YES: Record<string, string> = { en: "Yes.", de: "Ja.", fr: "Oui.", it: "Sì." };
const NO: Record<string, string> = { en: "No.", de: "Nein.", fr: "Non.", it: "No." };

/** The first letter in lower case, unless the language capitalises nouns or the first word is a name. */
function lowerFirst(s: string, language: string): string {
  if (language === "de" || /^\p{Lu}[\p{Lu}\d]/u.test(s)) return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Every item of one base (the table in the module comment). */
export function itemsOf(base: Base, corpus: readonly CorpusDoc[], rand: () => number): ConstructedItem[] {
  const others = corpus.filter((d) => d.id !== base.doc && d.language === base.language && d.passages.length > 0);
  const distractor = pick(rand, pick(rand, others).passages);
  const contexts = rand() < 0.5 ? [base.passage, distractor] : [distractor, base.passage];
  const inContexts = (text: string): boolean =>
    contexts.some((c) => new RegExp(`(?<![\\p{L}\\d])${escapeRegExp(text)}(?![\\p{L}\\d])`, "u").test(c));
  const S = base.sentence;
  const items: ConstructedItem[] = [];
  const add = (kind: ItemKind, answer: string, labels: ConstructedItem["labels"], note: string, extra: Partial<ConstructedItem> = {}) => {
    const sentenceLike = !["short", "short-changed", "yes-true", "no-true", "yes-false", "no-false"].includes(kind);
    const wrapped = sentenceLike && rand() < 1 / 3 ? `${ACCORDING[base.language] ?? ""}${lowerFirst(answer, base.language)}` : answer;
    items.push({
      id: `${base.id}-${kind}`,
      question: base.question,
      contexts,
      answer: wrapped,
      language: base.language,
      labels,
      labeller: CONSTRUCTED_LABELLER,
      note: `${kind}: ${note}`,
      ...extra,
    });
  };
  const offSentences = others
    .flatMap((d) => d.passages.flatMap(sentencesOf))
    .filter((s) => words(s) >= 6 && !contexts.some((c) => c.includes(s)));
  const withReference = { reference: S };

  add(
    "extract",
    S,
    { faithfulness: 1, "answer-relevance": 1, "answer-correctness": 1 },
    "the sentence as the passage has it",
    withReference,
  );
  const comma = S.indexOf(", ");
  if (comma > 0 && words(S.slice(comma + 2)) >= 5) {
    const rest = S.slice(comma + 2);
    add("clause", rest.charAt(0).toUpperCase() + rest.slice(1), { faithfulness: 1, "answer-relevance": 1 }, "its first clause left out");
  }

  const numbers = numbersIn(S);
  let corrupted: string | null = null;
  if (numbers.length > 0) {
    const n = pick(rand, numbers);
    const m = changedNumber(n.text, rand, inContexts);
    if (m !== null) {
      corrupted = S.slice(0, n.at) + m + S.slice(n.at + n.text.length);
      add(
        "number-changed",
        corrupted,
        { faithfulness: 0, "answer-relevance": 1, "answer-correctness": 0 },
        `${n.text} → ${m}`,
        withReference,
      );
    }
  }
  const names = namesIn(S, base.language);
  const pool = [
    ...new Set(others.flatMap((d) => d.passages.flatMap(sentencesOf).flatMap((s) => namesIn(s, base.language).map((x) => x.text)))),
  ]
    .filter((x) => !inContexts(x))
    .sort();
  if (names.length > 0 && pool.length > 0) {
    const n = pick(rand, names);
    const m = pick(rand, pool);
    const swapped = S.slice(0, n.at) + m + S.slice(n.at + n.text.length);
    corrupted ??= swapped;
    add("name-swapped", swapped, { faithfulness: 0, "answer-relevance": 1, "answer-correctness": 0 }, `${n.text} → ${m}`, withReference);
  }
  const negative = negated(S, base.language);
  if (negative !== null) {
    corrupted ??= negative;
    add("negated", negative, { faithfulness: 0, "answer-relevance": 1, "answer-correctness": 0 }, "its verb negated", withReference);
  }
  const partners = sentencesOf(base.passage).filter((t) => t !== S && words(t) >= 6);
  if (partners.length > 0 && words(S) >= 6) {
    const T = pick(rand, partners);
    const a = S.split(/\s+/);
    const b = T.split(/\s+/);
    const spliced = [...a.slice(0, Math.ceil(a.length / 2)), ...b.slice(Math.ceil(b.length / 2))].join(" ");
    if (spliced !== S && spliced !== T) add("spliced", spliced, { faithfulness: 0 }, `with the end of "${T}"`);
  }
  if (offSentences.length > 0) {
    const off = pick(rand, offSentences);
    add("added-claim", `${S} ${off}`, { faithfulness: 0, "answer-relevance": 1 }, "a sentence of another document added");
    const alone = pick(rand, offSentences);
    add(
      "off-context",
      alone,
      { faithfulness: 0, "answer-relevance": 0, "answer-correctness": 0 },
      "a sentence of another document",
      withReference,
    );
  }
  if (base.short !== null) {
    const short = base.short;
    add("short", short.answer, { faithfulness: 1, "answer-relevance": 1, "answer-correctness": 1 }, "the fact asked for", {
      question: short.question,
      reference: S,
    });
    const num = numbersIn(short.answer)[0];
    const name = namesIn(short.answer, base.language)[0];
    let wrong: string | null = null;
    if (num) {
      const m = changedNumber(num.text, rand, inContexts);
      if (m !== null) wrong = short.answer.slice(0, num.at) + m + short.answer.slice(num.at + num.text.length);
    } else if (name && pool.length > 0)
      wrong = short.answer.slice(0, name.at) + pick(rand, pool) + short.answer.slice(name.at + name.text.length);
    if (wrong !== null)
      add("short-changed", wrong, { faithfulness: 0, "answer-relevance": 1, "answer-correctness": 0 }, `${short.answer} → ${wrong}`, {
        question: short.question,
        reference: S,
      });
  }
  const ask = IS_IT_TRUE[base.language];
  if (ask) {
    const yes = YES[base.language]!;
    const no = NO[base.language]!;
    add("yes-true", yes, { faithfulness: 1, "answer-relevance": 1 }, "affirms the sentence", { question: ask(S) });
    add("no-true", no, { faithfulness: 0, "answer-relevance": 1 }, "denies the sentence", { question: ask(S) });
    if (corrupted !== null) {
      add("yes-false", yes, { faithfulness: 0, "answer-relevance": 1 }, `affirms "${corrupted}"`, { question: ask(corrupted) });
      add("no-false", no, { faithfulness: 1, "answer-relevance": 1 }, `denies "${corrupted}"`, { question: ask(corrupted) });
    }
  }
  return items;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const jsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);

/** The CISI half (bench/judge-items.ts): `CISI_BASES` bases over the BEIR folder `cisi`, items drawn with `seed`. */
export function cisiItems(cisi: string, seed: number): ConstructedItem[] {
  const corpus = jsonl<{ _id: string; title: string; text: string }>(join(cisi, "corpus.jsonl"));
  const queries = jsonl<{ _id: string; text: string }>(join(cisi, "queries.jsonl"));
  const qrels = readFileSync(join(cisi, "qrels/test.tsv"), "utf8")
    .split("\n")
    .slice(1)
    .filter((l) => l.trim() !== "")
    .map((l) => l.split("\t") as [string, string, string]);
  const docs: CorpusDoc[] = corpus.map((d) => ({ id: d._id, language: "en", passages: [`${d.title}\n${d.text}`] }));
  const byId = new Map(corpus.map((d) => [d._id, d]));
  const bases: Base[] = [];
  for (const q of [...queries].sort((a, b) => Number(a._id) - Number(b._id))) {
    if (bases.length >= CISI_BASES) break;
    const relevant = qrels.filter(([qid, , grade]) => qid === q._id && Number(grade) > 0).map(([, did]) => did);
    for (const did of relevant) {
      const d = byId.get(did);
      if (!d || bases.some((b) => b.doc === did)) continue;
      const candidates = sentencesOf(d.text).filter((s) => words(s) >= 8 && words(s) <= 45);
      const sentence = candidates.find((s) => numbersIn(s).length > 0) ?? candidates.find((s) => namesIn(s, "en").length > 0) ?? null;
      if (sentence === null) continue;
      const fact = numbersIn(sentence)[0] ?? namesIn(sentence, "en")[0]!;
      const after = /^\s*([\p{L}-]+)/u.exec(sentence.slice(fact.at + fact.text.length))?.[1];
      const answer = /^\d/.test(fact.text) && after ? `${fact.text} ${after}` : fact.text;
      const cloze = `${sentence.slice(0, fact.at)}___${sentence.slice(fact.at + answer.length)}`;
      bases.push({
        id: `cisi-q${q._id}`,
        language: "en",
        question: q.text,
        sentence,
        passage: `${d.title}\n${d.text}`,
        doc: did,
        short: { answer, question: `Which ${/^\d/.test(fact.text) ? "figure" : "name"} fills the gap: "${cloze}"?` },
      });
      break;
    }
  }
  const rand = seeded(seed);
  return bases.flatMap((b) => itemsOf(b, docs, rand));
}

interface AskCaseRecord {
  id: string;
  question: string;
  language: string;
  expectedSubstrings?: string[];
  mustCite?: string[];
  expectedRefusal?: boolean;
}

/** A Markdown document's sections: its title with each `##` section (the text before the first, under the title alone). */
function sections(markdown: string): string[] {
  const [head, ...rest] = markdown.split(/\n(?=## )/);
  const title = head!.split("\n")[0]!;
  return [head!, ...rest.map((s) => `${title}\n${s}`)].map((s) => s.trim()).filter((s) => s.split("\n").length > 1);
}

/** The fixture half (bench/judge-items.ts): one base per answer case of `fixtures` (a fixtures folder) that names its facts and documents. */
export function fixtureItems(fixtures: string, seed: number): ConstructedItem[] {
  const corpusDir = join(fixtures, "corpus");
  const cases = (JSON.parse(readFileSync(join(fixtures, "ask-cases.json"), "utf8")) as { cases: AskCaseRecord[] }).cases;
  const docIds = readdirSync(corpusDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => f.split("\\").join("/"))
    .sort();
  const docs: CorpusDoc[] = docIds.map((id) => ({
    id,
    language: id.split("/")[0]!,
    passages: sections(readFileSync(join(corpusDir, id), "utf8")),
  }));
  const bases: Base[] = [];
  for (const c of cases) {
    if (c.expectedRefusal || !c.expectedSubstrings?.length || !c.mustCite?.length) continue;
    const fact = c.expectedSubstrings[0]!;
    for (const docId of c.mustCite) {
      const doc = docs.find((d) => d.id === docId);
      const passage = doc?.passages.find((p) => sentencesOf(p).some((s) => s.toLowerCase().includes(fact.toLowerCase())));
      if (!doc || !passage) continue;
      const sentence = sentencesOf(passage).find((s) => s.toLowerCase().includes(fact.toLowerCase()) && words(s) >= 4);
      if (sentence === undefined) continue;
      const at = sentence.toLowerCase().indexOf(fact.toLowerCase());
      bases.push({
        id: `fx-${c.id}`,
        language: c.language,
        question: c.question,
        sentence: plainMarkdown(sentence),
        passage,
        doc: docId,
        short: { answer: sentence.slice(at, at + fact.length), question: c.question },
      });
      break;
    }
  }
  const rand = seeded(seed);
  return bases.flatMap((b) => itemsOf(b, docs, rand));
}
