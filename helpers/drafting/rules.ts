/**
 * The offline drafter's rules: from a document's structure (structure.ts) to drafts, each rule one
 * kind of passage a golden set asks about — a definition, a sentence with a number, a date or an
 * identifier, a step of a procedure — and two kinds of query for retrieval (a section's heading, a
 * section's rarest words). Deterministic: the same documents give the same drafts.
 *
 * An answer draft's expected facts are spans of its quote, the quote a span of the document's text
 * (the checks in check.ts hold every draft to this, and drop one that fails); the question is the
 * quote's clause with the answer replaced by a question phrase (phrasing.ts), so it never states
 * its answer.
 */
import { isFunctionWord } from "../../scorers/text/language.js";
import { type DatePhrase, type IdentifierKind, type Phrasing, phrasingFor } from "./phrasing.js";
import { type DocumentStructure, documentStructure, type Passage, plainText } from "./structure.js";

export const ANSWER_RULES = ["definition", "number", "date", "identifier", "step"] as const;
export const QUERY_RULES = ["heading", "keywords"] as const;
export type AnswerRule = (typeof ANSWER_RULES)[number];
export type QueryRule = (typeof QUERY_RULES)[number];

/** A document as the drafter reads it. */
export interface SourceDocument {
  id: string;
  title: string | null;
  text: string;
  /** Base language (`en`), or undefined when unknown. */
  language: string | undefined;
}

export interface AnswerDraft {
  rule: AnswerRule;
  docId: string;
  language: string;
  question: string;
  expected: string[];
  quote: string;
}

export interface QueryDraft {
  rule: QueryRule;
  docId: string;
  language: string | undefined;
  query: string;
  /** The passage the query was drawn from (the heading's, or the section's words), verbatim. */
  quote: string;
}

/** Word statistics of the corpus: how rare a word is (document frequency). */
export interface CorpusWords {
  documents: number;
  df: ReadonlyMap<string, number>;
  /** Documents holding each word, for checking that a keyword query has one answer. */
  holders: ReadonlyMap<string, readonly number[]>;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const wordsOf = (text: string): string[] => (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/['’-]+$/, ""));

export function corpusWords(documents: readonly SourceDocument[]): CorpusWords {
  const df = new Map<string, number>();
  const holders = new Map<string, number[]>();
  documents.forEach((d, i) => {
    for (const w of new Set(wordsOf(`${d.title ?? ""} ${plainText(d.text)}`))) {
      df.set(w, (df.get(w) ?? 0) + 1);
      let list = holders.get(w);
      if (list === undefined) holders.set(w, (list = []));
      list.push(i);
    }
  });
  return { documents: documents.length, df, holders };
}

const idf = (words: CorpusWords, word: string): number => Math.log((words.documents + 1) / ((words.df.get(word) ?? 0) + 0.5));

/** A word is rare when at most 5 % of the documents (and at least two fewer than all) hold it. */
const isRare = (words: CorpusWords, word: string): boolean => {
  const df = words.df.get(word) ?? 0;
  return df <= Math.max(2, words.documents * 0.05) && df < words.documents - 1;
};

const MIN_WORDS = 5;
const MAX_WORDS = 45;

/** The clause a question is made of: the sentence without its closing punctuation, or its part that holds the answer when a long sentence has several. */
function clauseAround(plain: string, answerAt: number): { clause: string; at: number } | null {
  let text = plain;
  let at = answerAt;
  const count = text.split(/\s+/).length;
  if (count > 25) {
    let from = 0;
    let to = text.length;
    for (const m of text.matchAll(/;\s+|,\s+(?:but|and|aber|und|mais|et|ma|e)\s+/g)) {
      const end = m.index! + m[0].length;
      if (end <= at) from = end;
      else if (m.index! >= at) {
        to = Math.min(to, m.index!);
        break;
      }
    }
    const part = text.slice(from, to);
    if (part.split(/\s+/).length >= MIN_WORDS) {
      text = part;
      at -= from;
    }
  }
  const trimmedEnd = text.replace(/[\s.!?…:;,]+$/u, "");
  if (at >= trimmedEnd.length) return null;
  return { clause: trimmedEnd, at };
}

interface Span {
  text: string;
  at: number;
}

/** `span` replaced by `phrase` in the clause around it (and the word before it, when `before` is given). */
function replaced(clause: string, at: number, length: number, phrase: string, before = 0): string {
  return `${clause.slice(0, at - before)}${phrase}${clause.slice(at + length)}`;
}

// ---- numbers --------------------------------------------------------------------------------

const NUMBER =
  /(?<![\p{L}\p{N}_/.,-])(?:([€$£])\s?)?(\d{1,3}(?:([.,'\u00a0\u202f ])\d{3})(?:\3\d{3})*(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?:\s?(%|€|EUR|USD))?(?![\p{L}\p{N}_-]|[.,]\d)/gu;

interface NumberSpan extends Span {
  kind: "count" | "money" | "share";
  unit?: string;
}

function numbersIn(plain: string, phrasing: Phrasing): NumberSpan[] {
  const out: NumberSpan[] = [];
  for (const m of plain.matchAll(NUMBER)) {
    const [whole, currency, digits, , after] = m;
    const at = m.index!;
    if (currency || after === "€" || after === "EUR" || after === "USD") {
      out.push({ text: whole.trim(), at, kind: "money" });
      continue;
    }
    if (after === "%") {
      out.push({ text: whole.trim(), at, kind: "share" });
      continue;
    }
    // A year is the date rule's; a decimal without a unit may be a version.
    if (/^(1[5-9]\d\d|20\d\d)$/.test(digits!)) continue;
    const next = /^\s(\p{L}[\p{L}-]*)(?:\s(\p{L}+))?/u.exec(plain.slice(at + whole.length));
    let unit = next?.[1];
    // "19 September 1973" is a date, and the date rule's.
    if (unit && phrasing.months.includes(unit.toLowerCase())) continue;
    if (unit && /^(percent|prozent|pourcent|percento)$/i.test(unit)) {
      out.push({ text: `${whole} ${unit}`, at, kind: "share" });
      continue;
    }
    if (unit && phrasing.units.has(unit.toLowerCase())) {
      // Two-word units: "10 business days", "jours ouvrés", "giorni lavorativi".
      if (next?.[2] && /^(business days|jours ouvrés|jours ouvrables|giorni lavorativi)$/i.test(`${unit} ${next[2]}`))
        unit = `${unit} ${next[2]}`;
      out.push({ text: `${whole} ${unit}`, at, kind: "count", unit });
      continue;
    }
    if (/[.,]/.test(digits!) || digits!.length < 2) continue;
    if (unit && !isFunctionWord(unit.toLowerCase(), undefined)) out.push({ text: whole, at, kind: "count" });
  }
  return out;
}

function numberQuestion(plain: string, span: NumberSpan, phrasing: Phrasing): string | null {
  const place = clauseAround(plain, span.at);
  if (!place) return null;
  const { clause, at } = place;
  if (clause.slice(at, at + span.text.length) !== span.text) return null;
  if (span.kind === "money") return replaced(clause, at, span.text.length, phrasing.howMuch);
  if (span.kind === "share") return replaced(clause, at, span.text.length, phrasing.percentage);
  if (span.unit) return replaced(clause, at, span.text.length, phrasing.howMany(span.unit));
  const next = /^\s(\p{L}+)/u.exec(clause.slice(at + span.text.length))?.[1] ?? "";
  const phrase = phrasing.bareCount(next);
  // French elision: "combien d’" joins the next word.
  return phrase.endsWith("’")
    ? `${clause.slice(0, at)}${phrase}${clause.slice(at + span.text.length).replace(/^\s+/, "")}`
    : replaced(clause, at, span.text.length, phrase);
}

// ---- dates ----------------------------------------------------------------------------------

function dateRegex(phrasing: Phrasing): RegExp {
  const month = `(?:${phrasing.months.join("|")})`;
  return new RegExp(
    [
      String.raw`\d{4}-\d{2}-\d{2}`,
      String.raw`\d{1,2}(?:\.|er|º)?\s+${month}\s+\d{4}`,
      String.raw`${month}\s+\d{1,2},\s+\d{4}`,
      String.raw`${month}\s+\d{4}`,
      String.raw`\d{1,2}\.\d{1,2}\.\d{4}`,
      String.raw`(?:1[5-9]\d\d|20\d\d)`,
    ]
      .map((p) => `(?<![\\p{L}\\p{N}.-])${p}(?![\\p{L}\\p{N}]|[.,-]\\d)`)
      .join("|"),
    "giu",
  );
}

const dateRegexes = new Map<Phrasing, RegExp>();

function dateQuestion(plain: string, span: Span, phrasing: Phrasing): string | null {
  const place = clauseAround(plain, span.at);
  if (!place) return null;
  const { clause, at } = place;
  const head = clause.slice(0, at);
  const before = /(\S+)\s+$/u.exec(head);
  const isYear = /^\d{4}$/.test(span.text);
  // "im Jahr 1998": the German year names its noun before the year.
  const imJahr = /\bim\s+Jahr\s+$/iu.exec(head);
  if (isYear && imJahr) return replaced(clause, at, span.text.length, `in ${phrasing.year}`, imJahr[0].length);
  const prep = before ? phrasing.datePrepositions[before[1]!.toLowerCase()] : undefined;
  if (isYear) {
    if (prep === undefined) return null;
    const phrase: string =
      prep === "year" || prep === "in" || prep === "on" ? `${before![1]} ${phrasing.year}` : phrasing.date[prep as DatePhrase];
    return replaced(clause, at, span.text.length, phrase, before![0].length);
  }
  if (prep === undefined || prep === "year") return replaced(clause, at, span.text.length, phrasing.date.none);
  return replaced(clause, at, span.text.length, phrasing.date[prep], before![0].length);
}

// ---- identifiers ----------------------------------------------------------------------------

const IDENTIFIERS: ReadonlyArray<[RegExp, IdentifierKind]> = [
  [/(?<![\p{L}\p{N}_.-])[A-Z]{1,6}-\d{2,6}(?:-[A-Z0-9]+)*(?![\p{L}\p{N}_-])/gu, "code"],
  [/(?<![\p{L}\p{N}_.-])[A-Z][A-Z0-9]+_[A-Z0-9_]{2,}(?![\p{L}\p{N}_-])/gu, "code"],
  [
    /(?<![\p{L}\p{N}_./-])[\p{L}\p{N}_-]+\.(?:yaml|yml|json|toml|ini|conf|cfg|exe|dmg|msi|deb|rpm|sh|ps1|log|zip|plist|desktop)(?![\p{L}\p{N}_])/gu,
    "file",
  ],
  // Settings, not the placeholders of a URL path (`/v2/files/{file_id}`) nor brand names (`iPhone`).
  [/(?<![\p{L}\p{N}_.{/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\p{L}\p{N}_}-])/gu, "setting"],
  [/(?<![\p{L}\p{N}_.{/-])[a-z]{2,}(?:[A-Z][a-z0-9]+)+(?![\p{L}\p{N}_}-])/gu, "setting"],
  [/(?<![\p{L}\p{N}_.-])v?\d+\.\d+\.\d+(?![\p{L}\p{N}_-]|\.\d)/gu, "version"],
];

function identifiersIn(plain: string): Array<Span & { kind: IdentifierKind }> {
  const out: Array<Span & { kind: IdentifierKind }> = [];
  for (const [re, kind] of IDENTIFIERS)
    for (const m of plain.matchAll(re))
      if (!out.some((o) => o.at <= m.index! && m.index! < o.at + o.text.length)) out.push({ text: m[0], at: m.index!, kind });
  return out.sort((a, b) => a.at - b.at);
}

// ---- distinctive words ----------------------------------------------------------------------

/**
 * The rarest run of one to three words of `raw` (a span of it, white space single, no markup)
 * whose words are not in `exclude` and neither starts nor ends with a function word; null when
 * none has a rare word.
 */
export function distinctiveSpan(
  raw: string,
  language: string | undefined,
  words: CorpusWords,
  exclude: ReadonlySet<string>,
): string | null {
  const tokens = [...raw.matchAll(WORD)].map((m) => ({
    word: m[0].toLowerCase().replace(/['’-]+$/, ""),
    start: m.index!,
    end: m.index! + m[0].replace(/['’-]+$/, "").length,
  }));
  let best: { text: string; score: number } | null = null;
  // A phrase starts and ends where the text breaks: at punctuation or markup, the text's ends, or a function word beside it.
  const breakBefore = (i: number): boolean =>
    i === 0 || raw.slice(tokens[i - 1]!.end, tokens[i]!.start) !== " " || isFunctionWord(tokens[i - 1]!.word, language);
  const breakAfter = (i: number): boolean =>
    i === tokens.length - 1 || raw.slice(tokens[i]!.end, tokens[i + 1]!.start) !== " " || isFunctionWord(tokens[i + 1]!.word, language);
  for (let i = 0; i < tokens.length; i++) {
    if (!breakBefore(i)) continue;
    for (let n = 1; n <= 3 && i + n <= tokens.length; n++) {
      const run = tokens.slice(i, i + n);
      if (run.some((t, k) => k > 0 && raw.slice(run[k - 1]!.end, t.start) !== " ")) break;
      if (run.some((t) => exclude.has(t.word))) break;
      if (isFunctionWord(run[0]!.word, language) || isFunctionWord(run[n - 1]!.word, language) || !breakAfter(i + n - 1)) continue;
      if (!run.some((t) => isRare(words, t.word) && t.word.length >= 4 && !/^\d+$/.test(t.word))) continue;
      const text = raw.slice(run[0]!.start, run[n - 1]!.end);
      // One word alone is a fact only when it is long (a name, a term), not a verb like "turns".
      if (text.length < 4 || (n === 1 && text.length < 8)) continue;
      // Two or three words name a thing more surely than one.
      const score = Math.max(...run.map((t) => idf(words, t.word))) + 0.75 * (n - 1);
      if (best === null || score > best.score + 1e-9) best = { text, score };
    }
  }
  return best?.text ?? null;
}

// ---- the rules ------------------------------------------------------------------------------

const sentenceOf = (doc: SourceDocument, span: [number, number]): string => doc.text.slice(span[0], span[1]);
const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** A passage's sentences worth asking about: not too short, not too long. */
function askable(doc: SourceDocument, p: Passage): string[] {
  return p.sentences
    .map((s) => sentenceOf(doc, s))
    .filter((s) => {
      const n = wordCount(plainText(s));
      return n >= MIN_WORDS && n <= MAX_WORDS;
    });
}

/** Every answer draft the rules find in one document (before the checks, balance and de-duplication). */
export function answerDrafts(doc: SourceDocument, structure: DocumentStructure, words: CorpusWords): AnswerDraft[] {
  const phrasing = phrasingFor(doc.language);
  if (!phrasing || !doc.language) return [];
  const language = doc.language;
  const out: AnswerDraft[] = [];
  const title = structure.title;
  let dates = dateRegexes.get(phrasing);
  if (!dates) dateRegexes.set(phrasing, (dates = dateRegex(phrasing)));
  for (const p of structure.passages) {
    const frame = phrasing.frame(title, p.heading);
    const label = /^\*\*([^*]{2,80}?)\*\*:?\s+/.exec(p.raw);
    // "**E-1001 – Session expired.** …": an identifier named by what it means.
    const named = label ? /^(\S+)\s+[–—-]\s+(.+?)[.:]?$/u.exec(plainText(label[1]!)) : null;
    const namedId = named ? identifiersIn(named[1]!).find((i) => i.text === named[1]) : undefined;
    if (named && namedId && p.raw.slice(0, label![0].length).includes(namedId.text)) {
      const quote = doc.text.slice(p.sentences[0]![0], p.sentences[0]![1]);
      if (quote.includes(namedId.text))
        out.push({
          rule: "identifier",
          docId: doc.id,
          language,
          question: phrasing.question(phrasing.frame(title, p.heading), phrasing.standsFor(namedId.kind, named[2]!)),
          expected: [namedId.text],
          quote,
        });
    }
    for (const quote of askable(doc, p)) {
      const plain = plainText(quote);
      const add = (rule: AnswerRule, clause: string | null, expected: string): void => {
        if (clause === null) return;
        out.push({ rule, docId: doc.id, language, question: phrasing.question(frame, clause), expected: [expected], quote });
      };
      for (const span of numbersIn(plain, phrasing)) add("number", numberQuestion(plain, span, phrasing), span.text);
      for (const m of plain.matchAll(dates)) {
        // A date inside a name ("Budget (conflicted copy 2024-05-02).xlsx") is no date to ask about.
        if (!/^(?:$|\s|[.,;:!?](?:\s|$))/.test(plain.slice(m.index! + m[0].length))) continue;
        add("date", dateQuestion(plain, { text: m[0], at: m.index! }, phrasing), m[0]);
      }
      for (const span of identifiersIn(plain)) {
        // A setting is one the text marks as code (`sync_interval`); in prose, `on_line` is a spelling.
        if (span.kind === "setting" && !quote.includes(`\`${span.text}\``)) continue;
        const place = clauseAround(plain, span.at);
        if (!place) continue;
        // An identifier in code marks loses them with it: the clause is the plain text.
        add("identifier", replaced(place.clause, place.at, span.text.length, phrasing.identifier[span.kind]), span.text);
      }
      // A definition: "<term> is a …", the term named by something rarer than common words.
      const definition = label ? null : phrasing.definition.exec(plain);
      if (definition) {
        // "An individual correlation is …" asks "what is an individual correlation?".
        const term = definition[1]!.replace(/^(\p{Lu})(\p{Ll}{0,2}\s)/u, (m, a: string, b: string) =>
          phrasing.articles.has(`${a}${b}`.trim().toLowerCase()) ? `${a.toLowerCase()}${b}` : m,
        );
        const termWords = wordsOf(term);
        const first = termWords[0] ?? "";
        // "Su iPhone è …", "Ogni componente è …": a preposition or a quantifier does not start a term.
        if (
          (isFunctionWord(first, language) && !phrasing.articles.has(first)) ||
          /^(every|each|all|jede[rs]?|alle|chaque|tous|toutes|ogni|tutti|tutte)$/.test(first)
        )
          continue;
        // Named by a rare word (not "the present study"), and not a pronoun ("It is a …").
        const named = termWords.some((w) => isRare(words, w) && !isFunctionWord(w, language));
        const pronoun = /^(it|this|that|there|es|dies|il|ce|cela|ciò|questo|esso)$/i.test(termWords[0] ?? "");
        if (named && !pronoun) {
          const exclude = new Set([...termWords, ...wordsOf(title ?? "")]);
          const expected = distinctiveSpan(quote, language, words, exclude);
          if (expected)
            out.push({ rule: "definition", docId: doc.id, language, question: phrasing.whatIs(term, title), expected: [expected], quote });
        }
      }
    }
    // A labelled item: "**Label:** what holds for it".
    if (label && !named && p.kind === "item") {
      const labelText = plainText(label[1]!).replace(/[\s.:,;]+$/u, "");
      const body = p.raw.slice(label[0].length);
      const exclude = new Set([...wordsOf(labelText), ...wordsOf(title ?? ""), ...wordsOf(p.heading ?? "")]);
      const fact = numbersIn(plainText(body), phrasing).find((n) => body.includes(n.text) && !labelText.includes(n.text))?.text;
      const expected = fact ?? distinctiveSpan(body, language, words, exclude);
      const quote = expected === null ? undefined : askable(doc, p).find((s) => s.includes(expected));
      if (expected && quote)
        out.push({
          rule: "definition",
          docId: doc.id,
          language,
          question: phrasing.aboutLabel(labelText, title, p.heading),
          expected: [expected],
          quote,
        });
    }
    // A step: "what is step n of <procedure>?"; the answer is what the step names (its bold words), else its rarest words.
    if (p.kind === "step" && p.step !== undefined && wordCount(plainText(p.raw)) <= MAX_WORDS) {
      const bold = /\*\*([^*\n]{2,60}?)\*\*/.exec(p.raw)?.[1]?.trim();
      const exclude = new Set([...wordsOf(title ?? ""), ...wordsOf(p.heading ?? "")]);
      const expected = bold && !/[*`]/.test(bold) ? bold : distinctiveSpan(p.raw, language, words, exclude);
      if (expected)
        out.push({
          rule: "step",
          docId: doc.id,
          language,
          question: phrasing.step(p.step, title, p.heading),
          expected: [expected],
          quote: p.raw,
        });
    }
  }
  return out;
}

const GENERIC_HEADINGS = new Set(
  "frequently asked questions|common questions|häufige fragen|questions fréquentes|domande frequenti|"
    .split("|")
    .concat(
      "overview introduction summary details notes see also related faq questions answers troubleshooting more information next steps example examples übersicht einleitung zusammenfassung hinweise siehe auch weitere informationen beispiele aperçu introduction résumé remarques voir aussi exemples panoramica introduzione riepilogo note vedi anche esempi".split(
        " ",
      ),
    ),
);

/** The retrieval drafts of one document: its distinctive headings, and each section's rarest words when no other document holds them all. */
export function queryDrafts(
  doc: SourceDocument,
  index: number,
  structure: DocumentStructure,
  words: CorpusWords,
  headingCount: ReadonlyMap<string, number>,
): QueryDraft[] {
  const out: QueryDraft[] = [];
  const language = doc.language;
  for (const h of structure.headings) {
    const content = wordsOf(h.text).filter((w) => !isFunctionWord(w, language));
    if (content.length < 2 || GENERIC_HEADINGS.has(h.text.toLowerCase()) || (headingCount.get(h.text.toLowerCase()) ?? 0) > 1) continue;
    // The quote is the heading as the document writes it: a heading with markup in it is left out.
    if (!doc.text.includes(h.text)) continue;
    out.push({ rule: "heading", docId: doc.id, language, query: h.text, quote: h.text });
  }
  const tf = new Map<string, number>();
  for (const w of wordsOf(`${doc.title ?? ""} ${plainText(doc.text)}`)) tf.set(w, (tf.get(w) ?? 0) + 1);
  // Sections (or the whole text when it has no headings): three rare words that only this document holds together.
  const sections = structure.headings.length > 0 ? structure.headings.map((h) => h.passages) : [structure.passages];
  for (const passages of sections) {
    if (passages.length === 0) continue;
    const raw = passages.map((p) => p.raw).join(" ");
    // A section's topic words recur in the document: words said twice or more, rarest first.
    const ranked = [...new Set(wordsOf(plainText(raw)))]
      .filter(
        (w) =>
          w.length >= 4 &&
          !/\d/.test(w) &&
          !isFunctionWord(w, language) &&
          (words.df.get(w) ?? 0) >= 2 &&
          isRare(words, w) &&
          (tf.get(w) ?? 0) >= 2,
      )
      .sort((a, b) => idf(words, b) * (tf.get(b) ?? 0) - idf(words, a) * (tf.get(a) ?? 0) || a.localeCompare(b));
    const terms = ranked.slice(0, 3);
    if (terms.length < 3) continue;
    // The documents holding all three: only this one, or the query has answers nobody judged.
    const together = (words.holders.get(terms[0]!) ?? []).filter((d) => terms.every((t) => (words.holders.get(t) ?? []).includes(d)));
    if (together.length !== 1 || together[0] !== index) continue;
    const first = passages[0]!;
    out.push({ rule: "keywords", docId: doc.id, language, query: terms.join(" "), quote: first.raw });
  }
  return out;
}

/** Each heading's count over the corpus (lower case): a heading two documents share names neither. */
export function headingCounts(structures: readonly DocumentStructure[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of structures) for (const h of new Set(s.headings.map((x) => x.text.toLowerCase()))) counts.set(h, (counts.get(h) ?? 0) + 1);
  return counts;
}

export { documentStructure };
