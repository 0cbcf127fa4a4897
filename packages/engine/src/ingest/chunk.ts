/**
 * Chunking: documents become passages, the unit that is matched, embedded, reranked and cited.
 *
 * Markdown is split at headings (ATX `#`…`######`, outside code fences) into sections; a
 * section's paragraphs (blank-line separated; a fenced code block is one paragraph) are packed
 * greedily into passages of at most `targetChars`; a paragraph longer than `maxChars` is split
 * at sentence ends, and a sentence longer than `maxChars` at the last space before the cap (or
 * at the cap for text without spaces, such as CJK). Sections never share a passage, so every
 * passage has one heading trail (`Section › Subsection`, the document title's own H1 left out).
 * Plain text is one section. Passage `n` of `path` has the stable id `path#n` (0-based): the
 * same content and parameters always give the same ids.
 */
import { FENCE, HEADING, stripInline } from "./markdown.js";

export interface ChunkerConfig {
  /** Passages are packed up to this many characters. @default 800 */
  targetChars: number;
  /** No passage exceeds this many characters. @default 1200 */
  maxChars: number;
}

export const DEFAULT_CHUNKER: ChunkerConfig = { targetChars: 800, maxChars: 1200 };

export function chunkerId(config: ChunkerConfig): string {
  return `chunker-v1(target=${config.targetChars},max=${config.maxChars})`;
}

export function validateChunker(config: ChunkerConfig): void {
  if (!Number.isInteger(config.maxChars) || config.maxChars < 100) {
    throw new RangeError(`Expected "maxChars" to be an integer ≥ 100, got ${config.maxChars}`);
  }
  if (!Number.isInteger(config.targetChars) || config.targetChars < 50 || config.targetChars > config.maxChars) {
    throw new RangeError(`Expected "targetChars" to be an integer between 50 and maxChars (${config.maxChars}), got ${config.targetChars}`);
  }
}

export interface Chunk {
  /** 0-based position in the document; the passage id is `path#seq`. */
  seq: number;
  /** Heading trail, e.g. "Billing › Refunds"; "" for text before the first heading. */
  heading: string;
  text: string;
}

interface Section {
  trail: string[];
  paragraphs: string[];
}

export function chunkDocument(body: string, title: string, markdown: boolean, config: ChunkerConfig = DEFAULT_CHUNKER): Chunk[] {
  const sections = markdown ? splitMarkdown(body, title) : [{ trail: [], paragraphs: splitParagraphs(body.split("\n")) }];
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const heading = section.trail.join(" › ");
    for (const text of pack(section.paragraphs, config)) chunks.push({ seq: chunks.length, heading, text });
  }
  return chunks;
}

function splitMarkdown(body: string, title: string): Section[] {
  const sections: Section[] = [];
  let trail: Array<{ level: number; text: string }> = [];
  let lines: string[] = [];
  let inFence = false;
  let titleSkipped = false;
  const flush = (): void => {
    const paragraphs = splitParagraphs(lines);
    if (paragraphs.length > 0) sections.push({ trail: trail.map((t) => t.text), paragraphs });
    lines = [];
  };
  for (const line of body.split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    const h = inFence ? null : HEADING.exec(line);
    if (!h) {
      lines.push(line);
      continue;
    }
    flush();
    const level = h[1]!.length;
    const text = stripInline(h[2]!);
    // The document's own title heading is the title, not a section of it.
    if (!titleSkipped && level === 1 && text === title) {
      titleSkipped = true;
      trail = [];
      continue;
    }
    trail = trail.filter((t) => t.level < level);
    trail.push({ level, text });
  }
  flush();
  return sections;
}

function splitParagraphs(lines: string[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    if (!inFence && line.trim() === "") {
      if (current.length > 0) paragraphs.push(current.join("\n").trim());
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) paragraphs.push(current.join("\n").trim());
  return paragraphs.filter((p) => p !== "");
}

function pack(paragraphs: string[], config: ChunkerConfig): string[] {
  const pieces = paragraphs.flatMap((p) => (p.length > config.maxChars ? splitLong(p, config.maxChars) : [p]));
  const out: string[] = [];
  let current = "";
  for (const piece of pieces) {
    if (current === "") current = piece;
    else if (current.length + 2 + piece.length <= config.targetChars) current += `\n\n${piece}`;
    else {
      out.push(current);
      current = piece;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

const SENTENCE_END = /(?<=[.!?。！？])\s+|(?<=[。！？])/u;

function splitLong(paragraph: string, maxChars: number): string[] {
  const out: string[] = [];
  let current = "";
  for (const sentence of paragraph.split(SENTENCE_END).filter((s) => s !== "")) {
    for (const piece of sentence.length > maxChars ? hardSplit(sentence, maxChars) : [sentence]) {
      if (current === "") current = piece;
      else if (current.length + 1 + piece.length <= maxChars) current += ` ${piece}`;
      else {
        out.push(current);
        current = piece;
      }
    }
  }
  if (current !== "") out.push(current);
  return out;
}

function hardSplit(text: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    let cut = rest.lastIndexOf(" ", maxChars);
    if (cut < maxChars / 2) cut = maxChars;
    // Never cut a surrogate pair in half.
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? "")) cut--;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== "") out.push(rest);
  return out;
}
