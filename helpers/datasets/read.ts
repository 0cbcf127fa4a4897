/**
 * Reading a dataset's files, through the suite's one reader of a person's files
 * (helpers/input-files/read.ts: text that must be UTF-8, JSON and JSONL with the line of a syntax
 * error, the top level a file must have), then records checked against a JSON Schema of
 * `fixtures/schemas/` (Ajv, compiled once, as the fixture loader does). Every problem is a
 * `FixtureError`: one line naming the file, the record (its id, or its line in a JSONL file) and
 * the field.
 *
 * Named errors carry a tag in brackets, so a user (and a test) can tell them apart whatever the
 * format: `[encoding]`, `[invalid-json]`, `[schema]`, `[duplicate-id]`, `[unknown-document]`,
 * `[empty-corpus]`, `[no-expectation]`, `[invalid-id]`, `[too-large]`.
 */
import { FixtureError, type FixtureIssue } from "../fixture-files/errors.js";
import { schemaIssues } from "../fixture-files/loader.js";
import { displayPath } from "../fixture-files/paths.js";
import { readJsonFile as readJson, type TopLevel } from "../input-files/read.js";

export { isFile, isFolder, type JsonlRecord, readJsonlFile, readText } from "../input-files/read.js";

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
  | "golden-schema"
  | "too-large";

/** A problem's text with its name: `[duplicate-id] id "q1" is already used by /questions/0`. */
export function named(name: ErrorName, problem: string): string {
  return `[${name}] ${problem}`;
}

/** Stops the load: one line naming the file and the first problems. */
export function fail(file: string, issues: readonly FixtureIssue[]): never {
  throw new FixtureError(displayPath(file), issues);
}

/**
 * A JSON file's value, its top level checked when `top` says what it must be (`null` where an object
 * belongs is a `[schema]` error, not a crash); a syntax error names its line and column.
 */
export function readJsonFile(path: string, options: { top?: TopLevel; syntaxName?: ErrorName } = {}): unknown {
  return readJson(path, { ...(options.top ? { top: options.top } : {}), syntaxTag: options.syntaxName ?? "invalid-json" });
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
