/**
 * The one way the suite reads a JSON or JSONL file a person gives it — a dataset's files, the turn
 * cases, labels, an adapter, a price table, a recorded run — in three steps, each failing with one
 * line (a `FixtureError`, exit 2) that names the file and, inside it, the line or record:
 *
 * 1. **the bytes as text**: at most `MAX_INPUT_BYTES`, UTF-8 (a UTF-16 or UTF-32 file named as such,
 *    a binary file by its first NUL byte, invalid UTF-8 by its first bad byte: text.ts), never
 *    quoted into a message;
 * 2. **JSON**: a syntax error names its line and column (json-syntax.ts); in a JSONL file each
 *    line is one value, so a line cut off names that line;
 * 3. **the top level**: what the file (or each JSONL record) must be — an object, an array — so that
 *    `null`, a number or a list where a `{ … }` belongs is named before any schema or code reads it.
 *
 * The schema comes after, in the caller (its own JSON Schema, Ajv). Named errors carry a tag in
 * brackets: `[encoding]`, `[invalid-json]`, `[schema]`.
 */
import { readFileSync, statSync } from "node:fs";
import { FixtureError, type FixtureIssue } from "../fixture-files/errors.js";
import { jsonSyntaxProblem } from "../fixture-files/json-syntax.js";
import { displayPath } from "../fixture-files/paths.js";
import { decodeText, textProblem } from "./text.js";

/** The largest file read (512 MiB): above it a JavaScript string cannot hold the text. */
export const MAX_INPUT_BYTES = 512 * 2 ** 20;

/** What a JSON value's top level must be. */
export type TopLevel = "object" | "array";

/** How a file is named in messages: its path relative to the repository, or what the caller says (`EVAL_TARGET_ADAPTER a.json`). */
export interface ReadOptions {
  shown?: string;
}

function fail(shown: string, issues: readonly FixtureIssue[]): never {
  throw new FixtureError(shown, issues);
}

/** A file's bytes, or a one-line error: missing, a folder, unreadable or too large. */
function readBytes(path: string, shown: string): Buffer {
  try {
    const size = statSync(path).size;
    if (size > MAX_INPUT_BYTES)
      fail(shown, [{ pointer: "", problem: `is ${(size / 2 ** 20).toFixed(0)} MiB; the largest file the suite reads is 512 MiB` }]);
    return readFileSync(path);
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a folder, expected a file"
          : code === "ENOTDIR"
            ? "file not found (a part of its path is a file, not a folder)"
            : `cannot read (${code ?? (error as Error).message})`;
    return fail(shown, [{ pointer: "", problem: why }]);
  }
}

/** A text file's content, UTF-8 checked (`[encoding]` names what else it is), without a leading byte-order mark. */
export function readText(path: string, options: ReadOptions = {}): string {
  const shown = options.shown ?? displayPath(path);
  const bytes = readBytes(path, shown);
  const bad = textProblem(bytes);
  if (bad !== null) fail(shown, [{ pointer: "", problem: `[encoding] ${bad}` }]);
  return decodeText(bytes);
}

/** What a JSON value is, in words: `null`, `an array`, `a string`, … */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Why `value` is not of the `top` kind (one clause), or null when it is. */
function topProblem(value: unknown, top: TopLevel, what: string): string | null {
  const fits = top === "array" ? Array.isArray(value) : value !== null && typeof value === "object" && !Array.isArray(value);
  if (fits) return null;
  return `[schema] ${what} is ${kindOf(value)}${value === null ? " (JSON null)" : ""}; expected ${top === "array" ? "a JSON array [ … ]" : "a JSON object { … }"}`;
}

/** What a JSON file must be: its top level, and the tag of a syntax error (`invalid-json`, or a format's own name). */
export interface JsonOptions {
  top?: TopLevel;
  syntaxTag?: string;
}

/** `text` as JSON (`shown` names it in errors); with `top`, its top level checked. */
export function parseJson(text: string, shown: string, { top, syntaxTag = "invalid-json" }: JsonOptions = {}): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return fail(shown, [{ pointer: "", problem: `[${syntaxTag}] ${jsonSyntaxProblem(text)}` }]);
  }
  const problem = top ? topProblem(value, top, "the file") : null;
  if (problem) fail(shown, [{ pointer: "", problem }]);
  return value;
}

/** A JSON file's value: encoding, syntax (line and column), then its top level when `top` says what it must be. */
export function readJsonFile(path: string, options: ReadOptions & JsonOptions = {}): unknown {
  const shown = options.shown ?? displayPath(path);
  return parseJson(readText(path, { shown }), shown, options);
}

export interface JsonlRecord {
  /** 1-based line number. */
  line: number;
  value: unknown;
}

/**
 * A JSONL text's records, blank lines skipped: a line that is not JSON (a line cut off included)
 * names its line and column; with `records: "object"`, a line that is not an object (`null`, a
 * list) names its line.
 */
export function parseJsonl(text: string, shown: string, options: { records?: TopLevel } = {}): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    const raw = text.charCodeAt(stop - 1) === 13 ? text.slice(start, stop - 1) : text.slice(start, stop);
    start = stop + 1;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      const problem = jsonSyntaxProblem(raw).replace(/^invalid JSON at line 1, column /, "invalid JSON at column ");
      fail(shown, [{ record: `line ${line}`, pointer: "", problem: `[invalid-json] ${problem}` }]);
    }
    const problem = options.records ? topProblem(value, options.records, "the line") : null;
    if (problem) fail(shown, [{ record: `line ${line}`, pointer: "", problem }]);
    records.push({ line, value });
  }
  return records;
}

/** A JSONL file's records (parseJsonl), its encoding checked first. */
export function readJsonlFile(path: string, options: ReadOptions & { records?: TopLevel } = {}): JsonlRecord[] {
  const shown = options.shown ?? displayPath(path);
  return parseJsonl(readText(path, { shown }), shown, options);
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
