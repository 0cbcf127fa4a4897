/**
 * Reading a dataset's files: text that must be UTF-8, JSON and JSONL with the line of a syntax
 * error, records checked against a JSON Schema of `fixtures/schemas/` (Ajv, compiled once, as the
 * fixture loader does). Every problem is a `FixtureError`: one line naming the file, the record (its
 * id, or its line in a JSONL file) and the field.
 *
 * Named errors carry a tag in brackets, so a user (and a test) can tell them apart whatever the
 * format: `[encoding]`, `[invalid-json]`, `[schema]`, `[duplicate-id]`, `[unknown-document]`,
 * `[empty-corpus]`, `[no-expectation]`, `[invalid-id]`.
 */
import { readFileSync, statSync } from "node:fs";
import { FixtureError, type FixtureIssue } from "../fixture-files/errors.js";
import { jsonSyntaxProblem } from "../fixture-files/json-syntax.js";
import { schemaIssues } from "../fixture-files/loader.js";
import { displayPath } from "../fixture-files/paths.js";
import { decodeText, textProblem } from "./text.js";

export type ErrorName =
  | "encoding"
  | "invalid-json"
  | "schema"
  | "duplicate-id"
  | "unknown-document"
  | "empty-corpus"
  | "no-expectation"
  | "invalid-id"
  | "golden-invalid"
  | "golden-schema";

/** A problem's text with its name: `[duplicate-id] id "q1" is already used by /questions/0`. */
export function named(name: ErrorName, problem: string): string {
  return `[${name}] ${problem}`;
}

/** Stops the load: one line naming the file and the first problems. */
export function fail(file: string, issues: readonly FixtureIssue[]): never {
  throw new FixtureError(displayPath(file), issues);
}

/**
 * A text file's content. Not UTF-8 is the named error `[encoding]`: a UTF-16 or UTF-32 file, a
 * binary file, or the first invalid byte (text.ts).
 */
export function readText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "file not found" : code === "EISDIR" ? "is a folder, expected a file" : `cannot read (${code})`;
    return fail(path, [{ pointer: "", problem: why }]);
  }
  const bad = textProblem(bytes);
  if (bad !== null) return fail(path, [{ pointer: "", problem: named("encoding", bad) }]);
  return decodeText(bytes);
}

/** A JSON file's value; a syntax error names its line and column. */
export function readJsonFile(path: string, syntaxName: ErrorName = "invalid-json"): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail(path, [{ pointer: "", problem: named(syntaxName, jsonSyntaxProblem(text)) }]);
  }
}

export interface JsonlRecord {
  /** 1-based line number. */
  line: number;
  value: unknown;
}

/** A JSONL file's records (blank lines skipped); a line that is not JSON names its line. */
export function readJsonlFile(path: string): JsonlRecord[] {
  const text = readText(path);
  const records: JsonlRecord[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    try {
      records.push({ line: i + 1, value: JSON.parse(line) as unknown });
    } catch {
      const problem = jsonSyntaxProblem(line).replace(/^invalid JSON at line 1, column /, "invalid JSON at column ");
      fail(path, [{ record: `line ${i + 1}`, pointer: "", problem: named("invalid-json", problem) }]);
    }
  });
  return records;
}

/**
 * The value's problems against `schema` (a file of fixtures/schemas/), named `[schema]` (or the
 * format's own name) and, when inside a record, by the record: `label(pointer)` says how.
 */
export function checkSchema(
  path: string,
  schema: string,
  value: unknown,
  record?: (pointer: string) => { record?: string; pointer: string },
  name: ErrorName = "schema",
): void {
  const issues = schemaIssues(schema, value);
  if (issues.length === 0) return;
  fail(
    path,
    issues.map((issue) => ({ ...issue, ...(record ? record(issue.pointer) : {}), problem: named(name, issue.problem) })),
  );
}

/**
 * How a record of a top-level array (or of `key`) is named in messages: by its `id` when it has one
 * (`question q-001`), else by its index (`record 3`), with the pointer left as it is.
 */
export function recordNamer(
  records: readonly unknown[],
  label: string,
  prefix: string,
): (pointer: string) => { record?: string; pointer: string } {
  return (pointer) => {
    if (!pointer.startsWith(`${prefix}/`)) return { pointer };
    const index = Number(pointer.slice(prefix.length + 1).split("/")[0]);
    const value = records[index];
    const id = value !== null && typeof value === "object" ? (value as { id?: unknown }).id : undefined;
    return typeof id === "string" && id.trim() !== "" ? { record: `${label} ${id}`, pointer } : { pointer };
  };
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
