/**
 * The two JSONL files of a BEIR folder, as the metrics need them: corpus.jsonl for its document ids
 * (to check that judged documents exist) and queries.jsonl for query ids and texts. A record is one
 * JSON object per line with `_id` (or `id`: a non-empty string, or a number); queries also need a
 * string `text`. Blank lines are skipped; a leading UTF-8 byte-order mark is ignored. The files are
 * read as strict UTF-8 (utf8-text.ts), and an id holding a lone surrogate is refused: ids are read
 * exactly, never changed.
 *
 * Kept apart from any system's own corpus reader on purpose: the ruler reads the files itself.
 * Errors are FormatErrors naming the file and the 1-based line.
 */
import { FormatError, quote } from "./format-error.js";
import { loneSurrogateProblem, readUtf8Text } from "./utf8-text.js";

export interface BeirQuery {
  readonly id: string;
  readonly text: string;
}

/** Every line's object, with its line number; at least one record. */
function records(file: string): Array<{ line: number; record: Record<string, unknown> }> {
  const text = readUtf8Text(file);
  const out: Array<{ line: number; record: Record<string, unknown> }> = [];
  text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .forEach((raw, index) => {
      if (raw.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (error) {
        throw new FormatError(file, index + 1, `not valid JSON (${quote((error as Error).message)})`);
      }
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new FormatError(file, index + 1, "expected a JSON object");
      out.push({ line: index + 1, record: value as Record<string, unknown> });
    });
  if (out.length === 0) throw new FormatError(file, null, "the file holds no records");
  return out;
}

/** The record's id; a repeated id is an error naming both lines. */
function idOf(file: string, line: number, record: Record<string, unknown>, seen: Map<string, number>): string {
  const raw = record._id ?? record.id;
  const id = typeof raw === "number" && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof id !== "string" || id.trim() === "") throw new FormatError(file, line, 'missing "_id" or "id" (a non-empty string or number)');
  const lone = loneSurrogateProblem(id);
  if (lone !== null) throw new FormatError(file, line, `"${record._id === undefined ? "id" : "_id"}" ${lone}`);
  const first = seen.get(id);
  if (first !== undefined) throw new FormatError(file, line, `id "${quote(id)}" repeats the record on line ${first}`);
  seen.set(id, line);
  return id;
}

/** Document ids of corpus.jsonl, in file order. */
export function readCorpusIds(file: string): string[] {
  const seen = new Map<string, number>();
  return records(file).map(({ line, record }) => idOf(file, line, record, seen));
}

/** Queries of queries.jsonl, in file order. */
export function readBeirQueries(file: string): BeirQuery[] {
  const seen = new Map<string, number>();
  return records(file).map(({ line, record }) => {
    const id = idOf(file, line, record, seen);
    if (typeof record.text !== "string") throw new FormatError(file, line, '"text" must be a string');
    return { id, text: record.text };
  });
}
