/**
 * Streaming reader for TREC runs: `topic Q0 docid rank score runid [anything…]` per line,
 * whitespace-separated. The rank column and anything after the runid are ignored (trec_eval
 * orders by score itself). Blank lines and lines whose first non-blank character is '#' are
 * skipped. The run id reported is the one on the last line, as trec_eval reports it. A UTF-8
 * byte-order mark at the start of the file is skipped (editors on Windows write one; trec_eval
 * would make it part of the first topic id).
 *
 * Speed: the file is read in 4 MiB chunks and parsed byte by byte (no per-line strings except the
 * document id); each topic is handed to `onTopic` as soon as the next topic starts, so memory
 * holds one topic at a time. Runs are normally grouped by topic; when a topic reappears after
 * another one, the reader calls `onRestart` and reads the file again holding every topic in
 * memory, then hands each complete topic over (correct for any line order, heavier on memory).
 *
 * Errors (FormatError with file and line): fewer than 6 fields, a score that is not a finite
 * decimal number (trec_eval's atof would read "abc" as 0), a line longer than MAX_LINE_BYTES
 * (1 MiB; the buffer never grows past it), invalid UTF-8 (utf8 mode), an empty or unreadable
 * file. Messages quote at most MAX_QUOTED characters of the input.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import {
  FormatError,
  IS_SPACE,
  MAX_LINE_BYTES,
  UTF8_BOM,
  countFields,
  fileError,
  lineExcerpt,
  lineTooLong,
  startsWithBom,
} from "./format-error.js";

/** One topic's lines, in file order. Arrays are reused after `onTopic` returns: copy what you keep. */
export interface RunTopic {
  readonly id: string;
  readonly docIds: string[];
  readonly scores: Float64Array;
  /** 1-based line number of each entry. */
  readonly lines: Float64Array;
  /** Number of entries used in docIds/scores/lines. */
  readonly count: number;
}

export interface RunReadOptions {
  /** Called once per topic with all of its lines (again for every topic after `onRestart`). */
  readonly onTopic: (topic: RunTopic) => void;
  /** Called when the run turns out not to be grouped by topic: forget every topic seen so far. */
  readonly onRestart?: () => void;
  /** Topics for which this returns false are parsed and checked but not collected. */
  readonly wantTopic?: (id: string) => boolean;
  /** "utf8" (default) decodes ids and rejects invalid UTF-8; "latin1" keeps raw bytes, 1 char per byte. */
  readonly idEncoding?: "utf8" | "latin1";
  /** Read size in bytes (tests use tiny chunks to exercise lines split across reads). @default 4 MiB */
  readonly chunkSize?: number;
  /**
   * A last line without its line break is an error (the file looks cut off), not a line: for a run
   * a person hands the suite (EVAL_RUN_DIR). trec_eval, and `pnpm trec-eval`, read it as a line. @default false
   */
  readonly requireLineBreaks?: boolean;
}

/** What a file whose last line lacks its line break is told when line breaks are required. */
export const CUT_OFF =
  "the last line has no line break at its end: the file looks cut off (every line of the file ends with one; if the line is whole, add the line break)";

export interface RunSummary {
  /** Run tag of the last line. */
  readonly runId: string;
  /** Number of data lines. */
  readonly lines: number;
  /** Whether the file was grouped by topic (false: it was read a second time, in memory). */
  readonly grouped: boolean;
}

const CHUNK = 1 << 22;
const NEWLINE = 10;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

class TopicBuffer implements RunTopic {
  docIds: string[] = [];
  scores = new Float64Array(1024);
  lines = new Float64Array(1024);
  count = 0;
  constructor(
    public id: string,
    public wanted: boolean,
  ) {}
  push(docId: string, score: number, line: number): void {
    const n = this.count;
    if (n === this.scores.length) {
      const scores = new Float64Array(n * 2);
      scores.set(this.scores);
      this.scores = scores;
      const lines = new Float64Array(n * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    this.docIds[n] = docId;
    this.scores[n] = score;
    this.lines[n] = line;
    this.count = n + 1;
  }
}

class NotGrouped extends Error {}

export function readTrecRun(file: string, options: RunReadOptions): RunSummary {
  try {
    return readPass(file, options, true);
  } catch (error) {
    if (!(error instanceof NotGrouped)) throw error;
    options.onRestart?.();
    return readPass(file, options, false);
  }
}

function readPass(file: string, options: RunReadOptions, streaming: boolean): RunSummary {
  const encoding = options.idEncoding ?? "utf8";
  const latin1 = encoding === "latin1";
  const wantTopic = options.wantTopic ?? (() => true);
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw fileError(file, error);
  }
  let buf: Buffer = Buffer.allocUnsafe(options.chunkSize ?? CHUNK);
  let filled = 0;
  let lineNo = 0;
  let dataLines = 0;
  let runId = "";
  let eof = false;
  let atFileStart = true;
  // Current topic: its id bytes (to spot a change without making a string per line).
  let topicBytes: Buffer = Buffer.alloc(64);
  let topicLen = -1;
  let current: TopicBuffer | null = null;
  const streamed = new TopicBuffer("", false);
  const finished = new Set<string>();
  const groups = new Map<string, TopicBuffer>();

  const closeTopic = (): void => {
    if (current === null) return;
    if (streaming) {
      if (current.wanted) options.onTopic(current);
      finished.add(current.id);
    }
  };
  const openTopic = (id: string): void => {
    if (streaming) {
      if (finished.has(id)) throw new NotGrouped();
      streamed.id = id;
      streamed.wanted = wantTopic(id);
      streamed.count = 0;
      current = streamed;
    } else {
      let group = groups.get(id);
      if (!group) {
        group = new TopicBuffer(id, wantTopic(id));
        groups.set(id, group);
      }
      current = group;
    }
  };

  try {
    while (!eof) {
      const n = readChunk(file, fd, buf, filled);
      if (n === 0) {
        eof = true;
        if (filled === 0) break;
        if (buf[filled - 1] !== NEWLINE) {
          const tail = buf.subarray(buf.lastIndexOf(NEWLINE, filled - 1) + 1, filled);
          if (options.requireLineBreaks && tail.some((b) => !IS_SPACE[b]!)) throw new FormatError(file, lineNo + 1, CUT_OFF);
          if (filled === buf.length) buf = grow(buf, filled);
          buf[filled++] = NEWLINE;
        }
      } else {
        filled += n;
      }
      let last = buf.lastIndexOf(NEWLINE, filled - 1);
      if (last < 0) {
        // buf holds one unfinished line: stop before it outgrows the cap (or V8's string limit).
        if (filled > MAX_LINE_BYTES) throw lineTooLong(file, lineNo + 1, buf, 0, filled);
        if (filled === buf.length) buf = grow(buf, filled);
        continue;
      }
      if (atFileStart) {
        // The first line is complete, so a byte-order mark (3 bytes, no newline) is whole here.
        atFileStart = false;
        if (startsWithBom(buf, filled)) {
          buf.copy(buf, 0, UTF8_BOM.length, filled);
          filled -= UTF8_BOM.length;
          last -= UTF8_BOM.length;
        }
      }
      const end = last + 1;
      if (encoding === "utf8" && !isUtf8(buf.subarray(0, end))) {
        throw new FormatError(file, lineNo + firstInvalidLine(buf, end), "invalid UTF-8; ids must be UTF-8 text");
      }

      // ---- hot loop: one iteration per line ----
      let p = 0;
      let runIdStart = -1;
      let runIdEnd = -1;
      while (p < end) {
        lineNo++;
        const lineStart = p;
        while (IS_SPACE[buf[p]!] && buf[p] !== NEWLINE) p++;
        if (buf[p] === NEWLINE) {
          if (p - lineStart > MAX_LINE_BYTES) throw lineTooLong(file, lineNo, buf, lineStart, p);
          p++;
          continue;
        }
        if (buf[p] === 0x23 /* # */) {
          p = buf.indexOf(NEWLINE, p);
          if (p - lineStart > MAX_LINE_BYTES) throw lineTooLong(file, lineNo, buf, lineStart, p);
          p++;
          continue;
        }
        // topic
        const qs = p;
        while (!IS_SPACE[buf[p]!]) p++;
        const qe = p;
        // Q0 / iter
        while (IS_SPACE[buf[p]!] && buf[p] !== NEWLINE) p++;
        const is = p;
        while (!IS_SPACE[buf[p]!]) p++;
        const ie = p;
        // docid
        while (IS_SPACE[buf[p]!] && buf[p] !== NEWLINE) p++;
        const ds = p;
        while (!IS_SPACE[buf[p]!]) p++;
        const de = p;
        // rank
        while (IS_SPACE[buf[p]!] && buf[p] !== NEWLINE) p++;
        const rs = p;
        while (!IS_SPACE[buf[p]!]) p++;
        const re = p;
        // score
        while (IS_SPACE[buf[p]!] && buf[p] !== NEWLINE) p++;
        const ss = p;
        while (!IS_SPACE[buf[p]!]) p++;
        const se = p;
        // runid
        while (IS_SPACE[buf[p]!] && buf[p] !== NEWLINE) p++;
        const ts = p;
        while (!IS_SPACE[buf[p]!]) p++;
        const te = p;
        if (ie === is || de === ds || re === rs || se === ss || te === ts) {
          const eol = buf.indexOf(NEWLINE, lineStart);
          throw new FormatError(
            file,
            lineNo,
            `expected 6 fields (topic Q0 docid rank score runid), found ${countFields(buf, lineStart, eol)}: '${lineExcerpt(buf, lineStart, eol)}'`,
          );
        }
        // rest of the line is ignored
        if (buf[p] !== NEWLINE) p = buf.indexOf(NEWLINE, p);
        if (p - lineStart > MAX_LINE_BYTES) throw lineTooLong(file, lineNo, buf, lineStart, p);
        p++;
        dataLines++;
        runIdStart = ts;
        runIdEnd = te;

        const score = parseScore(buf, ss, se);
        if (Number.isNaN(score)) {
          throw new FormatError(file, lineNo, `score '${lineExcerpt(buf, ss, se)}' is not a finite decimal number`);
        }

        // Topic change?
        const len = qe - qs;
        let same = len === topicLen;
        if (same) {
          for (let k = 0; k < len; k++) {
            if (buf[qs + k] !== topicBytes[k]) {
              same = false;
              break;
            }
          }
        }
        if (!same) {
          closeTopic();
          if (topicBytes.length < len) topicBytes = Buffer.alloc(len * 2);
          buf.copy(topicBytes, 0, qs, qe);
          topicLen = len;
          openTopic(buf.toString(encoding, qs, qe));
        }
        const topic = current!;
        if (topic.wanted) topic.push(latin1 ? fastLatin1(buf, ds, de) : buf.toString("utf8", ds, de), score, lineNo);
      }
      if (runIdEnd >= 0) runId = buf.toString(encoding, runIdStart, runIdEnd);
      // Keep the partial last line for the next read.
      buf.copy(buf, 0, end, filled);
      filled -= end;
    }
  } finally {
    closeSync(fd);
  }
  if (dataLines === 0) {
    throw new FormatError(
      file,
      null,
      lineNo === 0 ? "empty file, expected run lines 'topic Q0 docid rank score runid'" : "no run lines (only comments or blank lines)",
    );
  }
  if (streaming) closeTopic();
  else for (const group of groups.values()) if (group.wanted) options.onTopic(group);
  return { runId, lines: dataLines, grouped: streaming };
}

/** Node's internal Buffer#latin1Slice skips toString's argument handling; fall back if absent. */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice?: (start: number, end: number) => string }).latin1Slice;
function fastLatin1(buf: Buffer, start: number, end: number): string {
  return latin1Slice ? latin1Slice.call(buf, start, end) : buf.toString("latin1", start, end);
}

/**
 * Reads the next bytes into buf[filled…]. Opening a directory succeeds on Linux and only the read
 * fails (EISDIR), so read errors are input errors too, worded as the qrels reader words them.
 */
function readChunk(file: string, fd: number, buf: Buffer, filled: number): number {
  try {
    return readSync(fd, buf, filled, buf.length - filled, null);
  } catch (error) {
    throw fileError(file, error);
  }
}

function grow(buf: Buffer, used: number): Buffer {
  const bigger = Buffer.allocUnsafe(buf.length * 2);
  buf.copy(bigger, 0, 0, used);
  return bigger;
}

/** 1-based index (within the chunk) of the first line that is not valid UTF-8. */
function firstInvalidLine(buf: Buffer, end: number): number {
  let line = 1;
  let start = 0;
  while (start < end) {
    const nl = buf.indexOf(NEWLINE, start);
    const stop = nl < 0 || nl > end ? end : nl;
    if (!isUtf8(buf.subarray(start, stop))) return line;
    line++;
    start = stop + 1;
  }
  return line;
}

/**
 * Parses a decimal score as C's strtod would (correctly rounded), or NaN if the text is not a
 * finite decimal number. Fast path: up to 2^53 in the digits and at most 22 fraction digits,
 * where digits / 10^k is exact-then-rounded once, i.e. correctly rounded. Otherwise Number().
 */
function parseScore(buf: Buffer, start: number, end: number): number {
  let i = start;
  let negative = false;
  const c0 = buf[i];
  if (c0 === 0x2d /* - */ || c0 === 0x2b /* + */) {
    negative = c0 === 0x2d;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  while (i < end) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
    i++;
  }
  if (i < end && buf[i] === 0x2e /* . */) {
    i++;
    while (i < end) {
      const d = buf[i]! - 48;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      digits++;
      fraction++;
      i++;
    }
  }
  if (i === end && digits > 0 && mantissa <= Number.MAX_SAFE_INTEGER && fraction <= 22) {
    const value = fraction === 0 ? mantissa : mantissa / POW10[fraction]!;
    return negative ? -value : value;
  }
  const text = buf.toString("latin1", start, end);
  if (!DECIMAL.test(text)) return NaN;
  const value = Number(text);
  return Number.isFinite(value) ? value : NaN;
}
