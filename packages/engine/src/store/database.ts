/**
 * Opening an index: the one place that turns SQLite's failure modes into `EngineError`s that
 * say what to do — and the rules of who may write when.
 *
 * **One writer at a time.** An index run holds SQLite's write lock (`BEGIN IMMEDIATE`) from the
 * moment it compares the source with the index until it commits (`beginIndexRun`): its plan can
 * never be based on rows another run changes meanwhile. A second run waits for the lock up to the
 * busy timeout (default 2 s) and then stops with `DB_LOCKED`; readers are not blocked (WAL).
 *
 * **A finished index.** Every index run's commit records `updated_at` in `meta`. A file with the
 * schema but no finished run (the first run was killed, failed, or is still running) is refused
 * for reading with `INDEX_INCOMPLETE`, never searched as an empty index.
 */
import Database from "better-sqlite3";
import { closeSync, existsSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { EngineError } from "../errors.js";
import { CREATE_SCHEMA, MIGRATE_1_TO_2, SCHEMA_TABLES, SCHEMA_VERSION } from "./schema.js";

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
    opened.set(db, fileIdentity(path));
    db.pragma("foreign_keys = ON");
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new EngineError(
        "SCHEMA_NEWER",
        `${file}: written by index schema version ${version}; this engine reads up to version ${SCHEMA_VERSION}. Use a newer engine, or index into a new file`,
      );
    }
    if (version === 0) initialize(db, file, options.create);
    if (version === 1) migrate(db);
    if (!options.create && !hasFinishedRun(db)) {
      throw new EngineError(
        "INDEX_INCOMPLETE",
        `${file}: the index is incomplete: no index run has finished on it (one was interrupted, failed, or is still running); build it with \`pnpm engine index <folder> --db ${file}\``,
      );
    }
    return db;
  } catch (error) {
    db.close();
    throw sqliteFailure(file, error);
  }
}

/** Page cache of an index run's connection, in KiB (see beginIndexRun). */
export const INDEX_RUN_CACHE_KIB = 64 * 1024;

/** `dev:ino` of the file a connection opened, to notice it being removed or replaced (beginIndexRun). */
const opened = new WeakMap<Db, string | undefined>();

function fileIdentity(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

function initialize(db: Db, file: string, create: boolean): void {
  const tables = (): string[] => db.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table','view')").pluck().all() as string[];
  const foreign = (names: string[]): EngineError =>
    new EngineError(
      "NOT_AN_INDEX",
      `${file}: a SQLite database, but not an index of this engine (it has tables ${names.slice(0, 5).join(", ")})`,
    );
  if (tables().length > 0) {
    // Another run created the index since this one read its version 0: it is an index now.
    if ((db.pragma("user_version", { simple: true }) as number) !== 0) return;
    throw foreign(tables());
  }
  if (!create) {
    throw new EngineError(
      "NOT_AN_INDEX",
      `${file}: an empty SQLite database, not an index (an index run may have been interrupted before it wrote anything); build one with \`pnpm engine index <folder> --db ${file}\``,
    );
  }
  db.pragma("journal_mode = WAL");
  // Two runs may create the same new file at once: the second to get the lock finds the schema there.
  db.transaction(() => {
    if ((db.pragma("user_version", { simple: true }) as number) !== 0) return;
    if (tables().length > 0) throw foreign(tables());
    db.exec(CREATE_SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * Brings a version-1 index to the current schema in one write transaction (another process may
 * be migrating it at the same moment: the second finds it done). See schema.ts.
 */
function migrate(db: Db): void {
  db.transaction(() => {
    if ((db.pragma("user_version", { simple: true }) as number) !== 1) return;
    db.exec(MIGRATE_1_TO_2);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** Whether an index run has ever committed to this index (each one records `updated_at`). */
function hasFinishedRun(db: Db): boolean {
  return db.prepare("SELECT 1 FROM meta WHERE key = 'updated_at'").pluck().get() !== undefined;
}

/**
 * Starts an index run's write transaction (`BEGIN IMMEDIATE`): the one write lock of the index,
 * held until the caller commits or rolls back. Waits up to the busy timeout for another writer,
 * then throws `DB_LOCKED`. Also throws `DB_LOCKED` when this connection is already in an index
 * run, and when the file was removed or replaced since it was opened (a failed first run of
 * another process discarded it): writing then would go to a file nobody can open.
 */
export function beginIndexRun(db: Db, file: string): void {
  if (db.inTransaction) throw new EngineError("DB_LOCKED", `${file}: an index run is already in progress on this engine; one at a time`);
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    throw sqliteFailure(file, error);
  }
  if (fileIdentity(db.name) !== opened.get(db)) {
    db.exec("ROLLBACK");
    throw new EngineError(
      "DB_LOCKED",
      `${file}: the index file was removed or replaced by another process while this run waited; nothing was written, run it again`,
    );
  }
}

/**
 * Creates `file` empty, only if it does not exist yet (O_EXCL): true when this call made it. A
 * process that claimed the file may discard it after a failed first run (`discardUnfinishedIndex`);
 * one that found it there never does.
 */
export function claimNewIndexFile(file: string): boolean {
  try {
    closeSync(openSync(file, "wx"));
    return true;
  } catch {
    // It exists, or its folder does not: opening it says which.
    return false;
  }
}

/**
 * Removes an index that no run has finished on, so a failed first run leaves no file behind. Only
 * under the write lock, taken without waiting: an index another process is writing, or one that a
 * run has finished on meanwhile, is left alone.
 */
export function discardUnfinishedIndex(file: string): void {
  let db: Db;
  try {
    db = new Database(file, { timeout: 0 });
  } catch {
    return;
  }
  try {
    db.exec("BEGIN IMMEDIATE");
    const version = db.pragma("user_version", { simple: true }) as number;
    const empty = version === 0 && db.prepare("SELECT count(*) FROM sqlite_schema").pluck().get() === 0;
    if (!empty && (version !== SCHEMA_VERSION || hasFinishedRun(db))) return;
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  } catch {
    // Busy: another process is writing it, so it is not ours to remove.
  } finally {
    db.close();
  }
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
