/**
 * JSONL readers for the two BEIR-style files the engine consumes: a corpus
 * (`{"_id"|"id", "title", "text"}` per line) and a query file (`{"_id"|"id", "text"}`).
 * Every malformed line is reported with the file and its 1-based line number.
 */
import { EngineError } from "../errors.js";
import { decodeUtf8File, readTextFileBytes } from "./text-file.js";
import { idProblem } from "../ingest/input-rules.js";
import { readValidity, type DeclaredValidity } from "../ingest/validity.js";

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  value: Record<string, unknown>;
}

export interface CorpusRecord {
  /** Document id: `_id` or `id` of the record. */
  id: string;
  title: string;
  text: string;
  /** Optional language tag (`language` or `lang` field). */
  language?: string;
  /** Optional `validFrom`, `validUntil`, `supersedes` (ingest/validity.ts). */
  validity?: DeclaredValidity;
}

export interface QueryRecord {
  id: string;
  text: string;
}

/** Parses a JSONL file into objects; blank lines are skipped, anything else must be a JSON object. */
export function readJsonlObjects(file: string): JsonlLine[] {
  let bytes: Buffer;
  try {
    bytes = readTextFileBytes(file);
  } catch (error) {
    if (error instanceof EngineError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new EngineError("INPUT_NOT_FOUND", `${file}: no such file`);
    throw new EngineError(
      "UNREADABLE",
      `${file}: cannot read (${code === "EISDIR" ? "a folder, expected a JSONL file" : (code ?? (error as Error).message)})`,
    );
  }
  const text = decodeUtf8File(file, bytes);
  const out: JsonlLine[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, "");
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new EngineError("MALFORMED_RECORD", `${file}:${i + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new EngineError("MALFORMED_RECORD", `${file}:${i + 1}: expected a JSON object`);
    }
    out.push({ line: i + 1, value: value as Record<string, unknown> });
  }
  if (out.length === 0) throw new EngineError("MALFORMED_RECORD", `${file}: the file holds no records`);
  return out;
}

function recordId(file: string, { line, value }: JsonlLine): string {
  const id = value._id ?? value.id;
  const problem = typeof id === "string" ? idProblem(id) : null;
  if (problem !== null)
    throw new EngineError("MALFORMED_RECORD", `${file}:${line}: "${value._id === undefined ? "id" : "_id"}" ${problem}`);
  if (typeof id === "string" && id.trim() !== "") return id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  throw new EngineError("MALFORMED_RECORD", `${file}:${line}: missing "_id" or "id" (a non-empty string or number)`);
}

function stringField(file: string, { line, value }: JsonlLine, field: string, required: boolean): string | undefined {
  const v = value[field];
  if (v === undefined || v === null) {
    if (required) throw new EngineError("MALFORMED_RECORD", `${file}:${line}: missing "${field}"`);
    return undefined;
  }
  if (typeof v !== "string") throw new EngineError("MALFORMED_RECORD", `${file}:${line}: "${field}" must be a string`);
  return v;
}

function rejectDuplicate(file: string, seen: Map<string, number>, id: string, line: number): void {
  const first = seen.get(id);
  if (first !== undefined) {
    throw new EngineError("MALFORMED_RECORD", `${file}:${line}: id "${id}" repeats the record on line ${first}`);
  }
  seen.set(id, line);
}

export function readCorpusJsonl(file: string): CorpusRecord[] {
  const seen = new Map<string, number>();
  return readJsonlObjects(file).map((rec) => {
    const id = recordId(file, rec);
    rejectDuplicate(file, seen, id, rec.line);
    const text = stringField(file, rec, "text", true)!;
    const title = stringField(file, rec, "title", false) ?? "";
    const language = stringField(file, rec, "language", false) ?? stringField(file, rec, "lang", false);
    const at = `${file}:${rec.line}: record ${JSON.stringify(id)}`;
    const field = (name: string) => (rec.value[name] === undefined ? undefined : { value: rec.value[name], at });
    const validity = readValidity(
      id,
      { validFrom: field("validFrom"), validUntil: field("validUntil"), supersedes: field("supersedes") },
      at,
    );
    return { id, title, text, ...(language === undefined ? {} : { language }), ...(validity ? { validity } : {}) };
  });
}

export function readQueriesJsonl(file: string): QueryRecord[] {
  const seen = new Map<string, number>();
  return readJsonlObjects(file).map((rec) => {
    const id = recordId(file, rec);
    rejectDuplicate(file, seen, id, rec.line);
    return { id, text: stringField(file, rec, "text", true)! };
  });
}
