/**
 * Every failure the engine expects (bad input, a database it cannot use, a model that fails)
 * is an `EngineError` with a stable string `code`. Callers branch on the code; the CLI prints
 * the message on one line and exits with status 2. Anything else that escapes is a bug.
 */
export type EngineErrorCode =
  /** A path given by the user does not exist or cannot be read. */
  | "INPUT_NOT_FOUND"
  /** A path exists but cannot be read (permissions, a folder where a file was expected). */
  | "UNREADABLE"
  /** A file exists but is not text we can index (NUL bytes, not UTF-8). */
  | "BINARY_FILE"
  | "INVALID_UTF8"
  /** A record in a JSONL or TREC file is malformed; the message names file and line. */
  | "MALFORMED_RECORD"
  /** A Markdown file's front matter is not closed, not valid YAML, or not a mapping; the message names file and line. */
  | "MALFORMED_FRONT_MATTER"
  /** A document's validFrom, validUntil or supersedes is wrong: not a date, an empty window, itself, an unknown id, a cycle. */
  | "INVALID_VALIDITY"
  /** The database was written by a newer schema version than this engine understands. */
  | "SCHEMA_NEWER"
  /** The file is not an index this engine wrote (or not SQLite at all). */
  | "NOT_AN_INDEX"
  /** Another process holds the index's write lock (an index run is in progress), or removed the file while this run waited. */
  | "DB_LOCKED"
  /** Vectors in the index were made by another embedder than the one asked for. */
  | "EMBEDDER_MISMATCH"
  /** The index was built with another tokenizer or chunker; it must be re-indexed. */
  | "INDEX_STALE"
  /** No index run has finished on the index (the first was interrupted or failed, or is still running); index again. */
  | "INDEX_INCOMPLETE"
  /** An argument or option has the wrong type, range or name. */
  | "BAD_ARGUMENT"
  /** A model provider (embeddings, generation) failed. */
  | "PROVIDER_ERROR";

export class EngineError extends Error {
  override readonly name = "EngineError";
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isEngineError(error: unknown): error is EngineError {
  return error instanceof EngineError;
}

/** What an error message quotes of the input, at most: a 100 MB query never becomes a 100 MB message. */
export const QUOTED_INPUT_LIMIT = 200;

/**
 * A piece of the input (a query, a value, an id) for a message: in double quotes, JSON-escaped so
 * it stays on one line, cut after `QUOTED_INPUT_LIMIT` characters with its length.
 */
export function quoteInput(text: string): string {
  if (text.length <= QUOTED_INPUT_LIMIT) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, QUOTED_INPUT_LIMIT))}… (${text.length} characters)`;
}

/** The first line of an error's message (at most 300 characters), for one-line reports. */
export function errorLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split("\n")[0]!.slice(0, 300);
}
