/**
 * A document's structure, as the offline drafter reads it: its headings, and the passages under
 * them — paragraphs cut into sentences, list items, the numbered steps of a procedure. Every
 * passage is a span of the document's own text (`text.slice(start, end)`), so a quote taken from it
 * occurs there verbatim, by construction. Markdown is read where a document has it (ATX headings,
 * `1.` steps, `-`/`*` items); code blocks and tables are left out (neither reads as a sentence); a
 * plain-text document is paragraphs and sentences.
 */

export type PassageKind = "sentence" | "item" | "step";

/** One passage: a sentence of a paragraph, a list item, or a numbered step. */
export interface Passage {
  kind: PassageKind;
  /** The passage as the document has it (markup included): `text.slice(start, end)`. */
  raw: string;
  start: number;
  end: number;
  /** The nearest heading above it (plain text), or null before the first. */
  heading: string | null;
  /** A step's number, as written (`2` of `2. Open Settings`). */
  step?: number;
  /** The first sentence under its heading (a definition often opens a section). */
  opensSection: boolean;
  /** The passage's sentences (`start`, `end` in the document's text): an item or a step may hold several. */
  sentences: Array<[number, number]>;
}

export interface Heading {
  /** Plain text: markup removed. */
  text: string;
  level: number;
  /** The passages under it (up to the next heading of any level). */
  passages: Passage[];
}

export interface DocumentStructure {
  /** The document's title: its own, else its first level-1 heading, else null. */
  title: string | null;
  /** Headings below the title, in order. */
  headings: Heading[];
  passages: Passage[];
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const STEP = /^([ \t]*)(\d{1,3})[.)][ \t]+(?=\S)/;
const ITEM = /^([ \t]*)[-*+][ \t]+(?=\S)/;
const FENCE = /^[ \t]*(```|~~~)/;
const TABLE = /^[ \t]*\|/;

/** Markdown emphasis, code marks and links removed: how a question shows a passage's words. */
export function plainText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__|`/g, "")
    .replace(/(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s.,;:!?)]|$)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();
}

// A period after one of these does not end a sentence.
const ABBREVIATIONS = new Set(
  "e.g i.e etc vs approx no nr dr mr mrs ms prof fig z.b bzw ca usw d.h inkl evtl ggf vgl s.o u.a z.t p.ex cf env etc ecc es sig pag art".split(
    " ",
  ),
);

/** Sentence spans of one paragraph (`start`, `end` within the document's text), white space trimmed. */
function sentenceSpans(text: string, from: number, to: number): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = from;
  const boundary = /[.!?…](?:["”»)]|\*\*|__)?(?=\s+["“„«(*]*[\p{Lu}\p{N}])/gu;
  boundary.lastIndex = from;
  const paragraph = text.slice(0, to);
  for (let m = boundary.exec(paragraph); m !== null && m.index < to; m = boundary.exec(paragraph)) {
    const end = m.index + m[0].length;
    const before = /([\p{L}.]+)\.$/u.exec(text.slice(start, m.index + 1));
    const word = before?.[1]?.toLowerCase() ?? "";
    // An abbreviation, a single letter (an initial) or an ordinal (German `1. März`) before the period does not end the sentence.
    const ordinal = /(?:^|\s)\d{1,2}\.$/.test(text.slice(Math.max(start, m.index - 3), m.index + 1));
    if (m[0].startsWith(".") && (ABBREVIATIONS.has(word.replace(/\.$/, "")) || /^\p{L}$/u.test(word) || ordinal)) continue;
    spans.push([start, end]);
    start = end;
  }
  spans.push([start, to]);
  return spans.map(([s, e]) => trimmed(text, s, e)).filter(([s, e]) => e > s);
}

function trimmed(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  return [s, e];
}

/** Reads `text` (`title`: the document's own title, when it has one). */
export function documentStructure(text: string, title?: string | null): DocumentStructure {
  const passages: Passage[] = [];
  const headings: Heading[] = [];
  let docTitle = title?.trim() ? plainText(title) : null;
  let heading: Heading | null = null;
  let paragraph: { start: number; end: number } | null = null;
  let inFence = false;
  let sectionHasSentence = false;

  const add = (p: Omit<Passage, "heading" | "opensSection" | "sentences">, opens: boolean): void => {
    const sentences = p.kind === "sentence" ? [[p.start, p.end] as [number, number]] : sentenceSpans(text, p.start, p.end);
    const passage: Passage = { ...p, heading: heading?.text ?? null, opensSection: opens, sentences };
    passages.push(passage);
    heading?.passages.push(passage);
  };
  const flush = (): void => {
    if (paragraph === null) return;
    for (const [s, e] of sentenceSpans(text, paragraph.start, paragraph.end)) {
      add({ kind: "sentence", raw: text.slice(s, e), start: s, end: e }, !sectionHasSentence);
      sectionHasSentence = true;
    }
    paragraph = null;
  };

  let offset = 0;
  for (const line of text.split("\n")) {
    const start = offset;
    const end = start + line.length;
    offset = end + 1;
    if (FENCE.test(line)) {
      flush();
      inFence = !inFence;
      continue;
    }
    if (inFence || TABLE.test(line)) {
      flush();
      continue;
    }
    if (line.trim() === "") {
      flush();
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      flush();
      const level = h[1]!.length;
      const plain = plainText(h[2]!);
      if (level === 1 && docTitle === null && headings.length === 0) docTitle = plain;
      else if (!(level === 1 && plain === docTitle)) {
        heading = { text: plain, level, passages: [] };
        headings.push(heading);
      }
      sectionHasSentence = false;
      continue;
    }
    const step = STEP.exec(line);
    const item = step ? null : ITEM.exec(line);
    if (step || item) {
      flush();
      const marker = (step ?? item)![0].length;
      const [s, e] = trimmed(text, start + marker, end);
      if (e > s)
        add({ kind: step ? "step" : "item", raw: text.slice(s, e), start: s, end: e, ...(step ? { step: Number(step[2]) } : {}) }, false);
      continue;
    }
    // A line of a paragraph (a wrapped line continues it).
    if (paragraph === null) paragraph = { start, end };
    else paragraph.end = end;
  }
  flush();
  return { title: docTitle, headings, passages };
}
