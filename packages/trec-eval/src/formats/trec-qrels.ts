/**
 * Reads TREC qrels: one judgment per line, `topic iter docid grade`, separated by whitespace
 * (the iter column is ignored). The grade is an integer; a negative grade means "in the pool but
 * not judged" (trec_eval's convention, used by infAP and bpref). Lines whose first non-blank
 * character is '#' are comments; blank lines are skipped; a UTF-8 byte-order mark at the start of
 * the file is skipped (it would otherwise become part of the first topic id).
 *
 * Errors (FormatError, one line, with file and line): a line without exactly 4 fields, a grade
 * that is not an integer or lies outside ±MAX_GRADE (grade.ts, shared by every reader), the same
 * (topic, docid) judged twice, a line longer than MAX_LINE_BYTES (1 MiB), an empty or unreadable
 * file. Messages quote at most MAX_QUOTED characters of the input.
 * trec_eval reads grades with atol (so "1.5" silently becomes 1) and only notices a repeated
 * judgment when it evaluates that topic; we refuse both up front.
 */
import { readFileSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { compareUtf8, topicQrels } from "../judged-ranking.js";
import type { TopicQrels } from "../types.js";
import {
  FormatError,
  IS_SPACE,
  MAX_LINE_BYTES,
  UTF8_BOM,
  fileError,
  lineExcerpt,
  lineTooLong,
  showId,
  startsWithBom,
} from "./format-error.js";
import { parseGrade } from "./grade.js";

export interface QrelsTopic extends TopicQrels {
  readonly id: string;
  /** Line of the topic's first judgment (for messages). */
  readonly line: number;
}

export interface Qrels {
  readonly file: string;
  /** Topics by id. */
  readonly topics: ReadonlyMap<string, QrelsTopic>;
  /** Topic ids sorted by their bytes (trec_eval's output order). */
  readonly topicOrder: readonly string[];
}

export interface QrelsReadOptions {
  /**
   * How ids are turned into strings: "utf8" (default) decodes and rejects invalid UTF-8;
   * "latin1" keeps the raw bytes one character per byte (byte-exact, what the CLI uses).
   */
  readonly idEncoding?: "utf8" | "latin1";
}

export function readTrecQrels(file: string, options: QrelsReadOptions = {}): Qrels {
  const encoding = options.idEncoding ?? "utf8";
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw fileError(file, error);
  }
  if (startsWithBom(bytes, bytes.length)) bytes = bytes.subarray(UTF8_BOM.length);
  const grades = new Map<string, Map<string, number>>();
  const firstLine = new Map<string, number>();
  forEachDataLine(file, bytes, (lineNo, fields, lineStart, lineEnd) => {
    if (fields.length !== 4) {
      throw new FormatError(
        file,
        lineNo,
        `expected 4 fields (topic iter docid grade), found ${fields.length}: '${lineExcerpt(bytes, lineStart, lineEnd)}'`,
      );
    }
    if (encoding === "utf8" && !isUtf8(bytes.subarray(lineStart, lineEnd))) {
      throw new FormatError(file, lineNo, "invalid UTF-8; ids must be UTF-8 text");
    }
    const [[qs, qe], , [ds, de], [gs, ge]] = fields as [Field, Field, Field, Field];
    const topic = bytes.toString(encoding, qs, qe);
    const doc = bytes.toString(encoding, ds, de);
    const read = parseGrade(bytes.toString("latin1", gs, ge), lineExcerpt(bytes, gs, ge));
    if ("problem" in read) throw new FormatError(file, lineNo, read.problem);
    let topicGrades = grades.get(topic);
    if (!topicGrades) {
      topicGrades = new Map();
      grades.set(topic, topicGrades);
      firstLine.set(topic, lineNo);
    }
    if (topicGrades.has(doc)) {
      const first = findLine(file, bytes, encoding, topic, doc);
      throw new FormatError(
        file,
        lineNo,
        `document "${showId(doc, encoding)}" is judged twice for topic "${showId(topic, encoding)}" (first on line ${first})`,
      );
    }
    topicGrades.set(doc, read.grade);
  });
  if (grades.size === 0)
    throw new FormatError(
      file,
      null,
      bytes.length === 0 ? "empty file, expected qrels lines 'topic iter docid grade'" : "no judgment lines (only comments or blank lines)",
    );
  const topics = new Map<string, QrelsTopic>();
  for (const [id, topicGrades] of grades) topics.set(id, { id, line: firstLine.get(id)!, ...topicQrels(topicGrades) });
  return { file, topics, topicOrder: [...topics.keys()].sort(compareUtf8) };
}

type Field = [start: number, end: number];

/**
 * Calls `visit` for every line that holds data: blank lines and lines whose first field starts
 * with '#' are skipped. Fields are whitespace-separated byte ranges. `visit` returning false stops.
 * A line longer than MAX_LINE_BYTES is an error in `file`, found before any string is made of it.
 */
export function forEachDataLine(
  file: string,
  bytes: Uint8Array,
  // biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing goes on; only `false` stops
  visit: (lineNo: number, fields: Field[], start: number, end: number) => boolean | undefined | void,
): void {
  const n = bytes.length;
  let lineNo = 0;
  let pos = 0;
  while (pos < n) {
    lineNo++;
    let end = bytes.indexOf(10, pos);
    if (end < 0) end = n;
    if (end - pos > MAX_LINE_BYTES) throw lineTooLong(file, lineNo, bytes, pos, end);
    const fields: Field[] = [];
    let i = pos;
    while (i < end) {
      while (i < end && IS_SPACE[bytes[i]!]) i++;
      if (i >= end) break;
      const s = i;
      while (i < end && !IS_SPACE[bytes[i]!]) i++;
      fields.push([s, i]);
    }
    const start = pos;
    pos = end + 1;
    if (fields.length === 0 || bytes[fields[0]![0]] === 0x23 /* # */) continue;
    if (visit(lineNo, fields, start, end) === false) return;
  }
}

/** Line of the first judgment of (topic, doc); only used to explain a repeated judgment. */
function findLine(file: string, bytes: Buffer, encoding: "utf8" | "latin1", topic: string, doc: string): number {
  let found = 0;
  forEachDataLine(file, bytes, (lineNo, fields) => {
    const [[qs, qe], , [ds, de]] = fields as [Field, Field, Field];
    if (bytes.toString(encoding, qs, qe) !== topic || bytes.toString(encoding, ds, de) !== doc) return true;
    found = lineNo;
    return false;
  });
  return found;
}
