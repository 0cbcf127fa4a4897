/**
 * Opening an index: the one place that turns SQLite's failure modes into `EngineError`s that
 * say what to do.
 */
import Database from "better-sqlite3";
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { EngineError } from "../errors.js";
import { CREATE_SCHEMA, SCHEMA_TABLES, SCHEMA_VERSION } from "./schema.js";

export type Db = Database.Database;

export interface OpenOptions {
  /** Create the index when the file does not exist (indexing); otherwise it must exist. */
  create: boolean;
  busyTimeoutMs: number;
}

export function openIndex(file: string, options: OpenOptions): Db {
  const path = resolve(file);
  const exists = existsSync(path);
  if (!exists && !options.create) {
    throw new EngineError("INPUT_NOT_FOUND", `${file}: no index here; build one with \`pnpm engine index <folder> --db ${file}\``);
  }
  if (exists && statSync(path).isDirectory()) {
    throw new EngineError("UNREADABLE", `${file}: is a folder; --db takes the path of an index file`);
  }
  if (!exists && !existsSync(dirname(path))) {
    throw new EngineError("INPUT_NOT_FOUND", `${file}: folder ${dirname(file)} does not exist`);
  }
  let db: Db;
  try {
    db = new Database(path, { timeout: options.busyTimeoutMs });
  } catch (error) {
    throw sqliteFailure(file, error);
  }
  try {
    db.pragma("foreign_keys = ON");
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new EngineError(
        "SCHEMA_NEWER",
        `${file}: written by index schema version ${version}; this engine reads up to version ${SCHEMA_VERSION}. Use a newer engine, or index into a new file`,
      );
    }
    if (version === 0) initialize(db, file, options.create);
    return db;
  } catch (error) {
    db.close();
    throw sqliteFailure(file, error);
  }
}

function initialize(db: Db, file: string, create: boolean): void {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table','view')").pluck().all() as string[];
  if (tables.length > 0) {
    throw new EngineError(
      "NOT_AN_INDEX",
      `${file}: a SQLite database, but not an index of this engine (it has tables ${tables.slice(0, 5).join(", ")})`,
    );
  }
  if (!create)
    throw new EngineError("NOT_AN_INDEX", `${file}: an empty SQLite database, not an index; build one with \`pnpm engine index\``);
  db.pragma("journal_mode = WAL");
  db.transaction(() => {
    db.exec(CREATE_SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

/** Maps SQLite failures to EngineErrors; passes EngineErrors through. */
export function sqliteFailure(file: string, error: unknown): Error {
  if (error instanceof EngineError) return error;
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? String(error);
  switch (code) {
    case "SQLITE_BUSY":
    case "SQLITE_BUSY_SNAPSHOT":
    case "SQLITE_LOCKED":
      return new EngineError("DB_LOCKED", `${file}: locked by another process (${code}); try again when it has finished`, { cause: error });
    case "SQLITE_NOTADB":
      return new EngineError("NOT_AN_INDEX", `${file}: not a SQLite database`, { cause: error });
    case "SQLITE_CORRUPT":
      return new EngineError("NOT_AN_INDEX", `${file}: the database is corrupt (${message}); rebuild it`, { cause: error });
    case "SQLITE_CANTOPEN":
      return new EngineError("UNREADABLE", `${file}: cannot open the database (${message})`, { cause: error });
    case "SQLITE_READONLY":
      return new EngineError("UNREADABLE", `${file}: the database is read-only here (${message})`, { cause: error });
    case "SQLITE_FULL":
      return new EngineError("UNREADABLE", `${file}: the disk is full; nothing was changed`, { cause: error });
  }
  if (typeof code === "string" && code.startsWith("SQLITE_")) {
    return new EngineError("NOT_AN_INDEX", `${file}: SQLite error ${code}: ${message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

export function checkSchemaTables(db: Db, file: string): void {
  const have = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type='table'").pluck().all() as string[]);
  const missing = SCHEMA_TABLES.filter((t) => !have.has(t));
  if (missing.length > 0) throw new EngineError("NOT_AN_INDEX", `${file}: index is missing tables ${missing.join(", ")}`);
}
