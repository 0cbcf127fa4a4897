/**
 * Evalite's SQLite storage (evalite/sqlite-storage), made to keep up with a dataset-scale run.
 * Evalite's reporter stores each case as it arrives, in the main process, and the worker waits for
 * it; as shipped (1.0.0-beta.16), each stored case costs more the more cases came before it:
 *
 * - after each case it reads back every case of its suite (`evals.getMany({ suiteIds })`, only to
 *   see which are still running) and JSON-parses each one's input, output, expected value and
 *   columns: quadratic in the suite's size (500 queries: 125,000 rows read and parsed per suite);
 * - no table has an index on its parent's id, so those reads scan the whole history of the file;
 * - every write is its own transaction, synced to disk (WAL with `synchronous = FULL`);
 * - every call prepares its SQL statement anew;
 * - every write of a case (its row, each score, each trace) reads its row back and JSON-parses it,
 *   though Evalite's runner reads only the id and status of what it gets back.
 *
 * `createFastSqliteStorage` opens Evalite's own storage and changes none of its rows or results:
 * it adds the parent-id indexes, sets `synchronous = NORMAL` (safe with WAL: a power cut may lose
 * the last writes, never corrupt the file), commits the writes of each turn of the event loop
 * together (`commitPerTurn`), reuses prepared statements, parses a written row's JSON only when
 * it is read (`writesWithoutReparse`), and answers
 * `evals.getMany` without reading what it already has: for a suite this storage created (the
 * run being recorded), from the rows its own writes returned — only this process writes that
 * suite's cases — and otherwise with rows whose JSON fields are read and parsed on first access
 * (the UI, exports and the gate read them all, as before).
 * It also fills in what Evalite leaves at 0: each suite's **duration**, which Evalite's UI shows
 * beside the suite's score ("0ms" for every suite as shipped: no code of Evalite's sets it). It is
 * the suite's wall-clock span in this process: from its first case starting (when Evalite creates
 * the suite) to its latest case's result being stored, rewritten as each result arrives. It is
 * elapsed time, not work: cases of one file run concurrently (up to `maxConcurrency`), so the
 * spans of a file's suites overlap, and a case whose engine call the run's memo already holds
 * (helpers/run-cache.ts) adds only its wait. The engine's own time per case is the latency column.
 * It reaches into the storage's database handle, which Evalite does not publish; the version is
 * pinned (package.json), and with another storage shape the storage is returned unchanged.
 */
import type Database from "better-sqlite3";
import type { Evalite } from "evalite";
import { createSqliteStorage } from "evalite/sqlite-storage";

/** The eval columns Evalite stores as JSON text. */
const JSON_FIELDS = ["input", "output", "expected", "rendered_columns"] as const;
/** Prepared statements kept for reuse (Evalite's SQL varies with its id lists, so the cache is bounded). */
const STATEMENT_CACHE_SIZE = 256;
/** The `evals.getMany` options Evalite 1.0.0-beta.16 knows; any other option goes to Evalite's own code. */
const EVAL_FILTERS = new Set(["ids", "suiteIds", "order", "statuses"]);

export async function createFastSqliteStorage(path: string): Promise<Evalite.Storage> {
  const storage = await createSqliteStorage(path);
  const db = (storage as unknown as { db?: Database.Database }).db;
  if (!db || typeof db.prepare !== "function" || typeof db.pragma !== "function") return storage;
  db.pragma("synchronous = NORMAL");
  db.exec(`
    CREATE INDEX IF NOT EXISTS suites_by_run ON suites (run_id);
    CREATE INDEX IF NOT EXISTS evals_by_suite ON evals (suite_id, col_order);
    CREATE INDEX IF NOT EXISTS scores_by_eval ON scores (eval_id);
    CREATE INDEX IF NOT EXISTS traces_by_eval ON traces (eval_id);
  `);
  reuseStatements(db, commitPerTurn(db));
  const { suites, evals, scores, traces } = storage;
  const write = writesWithoutReparse(db);
  /** The cases of each suite this storage created, as its writes returned them. */
  const recorded = new Map<number, SuiteRows>();
  const spans = suiteSpans(db);
  storage.suites = {
    ...suites,
    create: async (opts) => {
      const suite = await suites.create(opts);
      recorded.set(suite.id, new SuiteRows());
      spans.started(suite.id);
      return suite;
    },
  };
  storage.evals = {
    ...evals,
    create: async (opts) => {
      const row = write.eval(opts);
      recorded.get(row.suite_id)?.add(row);
      if (row.status !== "running") spans.caseStored(row.suite_id);
      return row;
    },
    update: async (opts) => {
      const row = write.evalUpdate(opts);
      recorded.get(row.suite_id)?.replace(row);
      if (row.status !== "running") spans.caseStored(row.suite_id);
      return row;
    },
    getMany: async (opts) => {
      if (!Object.keys(opts ?? {}).every((key) => EVAL_FILTERS.has(key))) return evals.getMany(opts);
      const rows = opts?.suiteIds?.length === 1 ? recorded.get(opts.suiteIds[0]!) : undefined;
      return rows ? rows.select(opts!) : evalsWithLazyJson(db, opts);
    },
  };
  storage.scores = { ...scores, create: async (opts) => write.score(opts) };
  storage.traces = { ...traces, create: async (opts) => write.trace(opts) };
  return storage;
}

/**
 * Each suite's wall-clock span (module comment), written to its `duration` column (milliseconds,
 * as Evalite's UI reads it) whenever one of its cases' results is stored. Only suites this storage
 * created are timed: a suite of another process keeps what that process wrote.
 */
function suiteSpans(db: Database.Database): { started(suiteId: number): void; caseStored(suiteId: number): void } {
  const startedAt = new Map<number, number>();
  const write = db.prepare("UPDATE suites SET duration = @duration WHERE id = @id");
  return {
    started: (suiteId) => void startedAt.set(suiteId, performance.now()),
    caseStored: (suiteId) => {
      const started = startedAt.get(suiteId);
      if (started !== undefined) write.run({ id: suiteId, duration: Math.round(performance.now() - started) });
    },
  };
}

/**
 * A suite's recorded rows, kept in Evalite's order (`ORDER BY col_order`, ties in insertion order)
 * as they are written, with each row's position by id: Evalite reads a suite's rows back after
 * every stored case, and sorting or searching them each time made a suite of n cases cost n² log n
 * (2,000 answer questions: seven suites, tens of seconds of the run's main process).
 */
class SuiteRows {
  private readonly rows: Evalite.Storage.Entities.Eval[] = [];
  private readonly positions = new Map<number, number>();
  /** The rows of each col_order, in Evalite's order: Evalite looks a case up by its order for every result. */
  private readonly ofOrder = new Map<number, Evalite.Storage.Entities.Eval[]>();

  add(row: Evalite.Storage.Entities.Eval): void {
    // Cases mostly start in order; a later one with a lower col_order goes after its equals.
    let at = this.rows.length;
    while (at > 0 && this.rows[at - 1]!.col_order > row.col_order) at--;
    this.rows.splice(at, 0, row);
    for (let i = at; i < this.rows.length; i++) this.positions.set(this.rows[i]!.id, i);
    const same = this.ofOrder.get(row.col_order);
    if (same) same.push(row);
    else this.ofOrder.set(row.col_order, [row]);
  }

  replace(row: Evalite.Storage.Entities.Eval): void {
    const at = this.positions.get(row.id);
    if (at === undefined) return;
    // Evalite's update never sets col_order: the row keeps its place among its order's rows too.
    const same = this.ofOrder.get(this.rows[at]!.col_order)!;
    same[same.indexOf(this.rows[at]!)] = row;
    this.rows[at] = row;
  }

  /** Evalite's filters over the rows, in its order. */
  select(opts: Evalite.Storage.Evals.GetManyOpts): Evalite.Storage.Entities.Eval[] {
    if (!opts.ids?.length && opts.order === undefined && !opts.statuses?.length) return [...this.rows];
    const candidates = opts.order === undefined ? this.rows : (this.ofOrder.get(opts.order) ?? []);
    return candidates.filter(
      (row) =>
        (!opts.ids?.length || opts.ids.includes(row.id)) &&
        (opts.order === undefined || row.col_order === opts.order) &&
        (!opts.statuses?.length || opts.statuses.includes(row.status)),
    );
  }
}

/**
 * Groups the writes of one turn of the event loop into one transaction: the first write opens it,
 * and it commits when the loop next turns (`setImmediate`), before the connection closes, or when
 * the process exits. Evalite stores a case as several statements (its row, each score, each
 * trace, each read back), each its own transaction as shipped; one commit per turn writes each
 * changed page once instead of once per statement. Readers on this connection (Evalite's server,
 * the gate) see the writes at once; other processes see them within the turn.
 * Returns the function each writing statement calls before it runs.
 */
function commitPerTurn(db: Database.Database): () => void {
  let open = false;
  const commit = (): void => {
    if (!open) return;
    open = false;
    if (db.open && db.inTransaction) db.exec("COMMIT");
  };
  const close = db.close.bind(db);
  db.close = (() => {
    commit();
    process.off("exit", commit);
    return close();
  }) as typeof db.close;
  process.on("exit", commit);
  return () => {
    if (open || db.inTransaction) return;
    db.exec("BEGIN");
    open = true;
    setImmediate(commit);
  };
}

/**
 * `db.prepare` returns the statement it prepared before for the same SQL (statements are
 * reusable); a statement that writes calls `beforeWrite` first.
 */
function reuseStatements(db: Database.Database, beforeWrite: () => void): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      // Most recently used last: the first entry is the one to evict.
      cache.delete(sql);
    } else {
      statement = prepare(sql);
      if (!statement.readonly) announceWrites(statement, beforeWrite);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  }) as typeof db.prepare;
}

/** Makes `statement`'s run, get, all and iterate call `beforeWrite` first. */
function announceWrites(statement: Database.Statement, beforeWrite: () => void): void {
  for (const method of ["run", "get", "all", "iterate"] as const) {
    const call = (statement[method] as (...args: unknown[]) => unknown).bind(statement);
    (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      beforeWrite();
      return call(...args);
    };
  }
}

/**
 * Evalite's `evals.getMany`, same filters and order, with the JSON fields read and parsed when
 * first accessed (enumerable getters, so spreading, `JSON.stringify` and `structuredClone` see
 * the same values as before).
 */
function evalsWithLazyJson(db: Database.Database, opts: Evalite.Storage.Evals.GetManyOpts | undefined): Evalite.Storage.Entities.Eval[] {
  const light = (db.prepare("SELECT name FROM pragma_table_info('evals')").pluck().all() as string[]).filter(
    (column) => !(JSON_FIELDS as readonly string[]).includes(column),
  );
  let query = `SELECT ${light.join(", ")} FROM evals WHERE 1=1`;
  const params: Record<string, unknown> = {};
  if (opts?.ids && opts.ids.length > 0) query += ` AND id IN (${opts.ids.map(Number).join(",")})`;
  if (opts?.suiteIds && opts.suiteIds.length > 0) query += ` AND suite_id IN (${opts.suiteIds.map(Number).join(",")})`;
  if (opts?.order !== undefined) {
    query += " AND col_order = @order";
    params.order = opts.order;
  }
  if (opts?.statuses && opts.statuses.length > 0) query += ` AND status IN (${opts.statuses.map((s) => `'${s}'`).join(",")})`;
  query += " ORDER BY col_order ASC";
  const heavy = db.prepare(`SELECT ${JSON_FIELDS.join(", ")} FROM evals WHERE id = ?`);
  return (db.prepare(query).all(params) as Array<Record<string, unknown>>).map((row) => {
    let parsed: Record<string, unknown> | undefined;
    const field = (name: string): unknown => {
      parsed ??= Object.fromEntries(
        Object.entries(heavy.get(row.id) as Record<string, string>).map(([key, text]) => [key, JSON.parse(text)]),
      );
      return parsed[name];
    };
    for (const name of JSON_FIELDS) Object.defineProperty(row, name, { enumerable: true, configurable: true, get: () => field(name) });
    return row as unknown as Evalite.Storage.Entities.Eval;
  });
}

type Row = Record<string, unknown>;

/**
 * Evalite's writes of a case (its row, each score, each trace), with the same SQL and values, but
 * returning the written row with its JSON columns parsed on first access: as shipped, each write
 * read its row back and parsed every JSON column at once, though Evalite's runner reads only the
 * id and status of what it gets back (a dataset-scale run parsed again every output and trace it
 * had just serialized).
 */
function writesWithoutReparse(db: Database.Database) {
  const written = (table: string, id: number | bigint, json: readonly string[]): Row => {
    const row = db.prepare(`SELECT * FROM ${table} WHERE id = @id`).get({ id }) as Row;
    for (const name of json) {
      const text = row[name];
      let parsed: { value: unknown } | undefined;
      Object.defineProperty(row, name, {
        enumerable: true,
        configurable: true,
        get: () => (parsed ??= { value: JSON.parse(text as string) }).value,
      });
    }
    return row;
  };
  const EVAL_JSON = ["input", "output", "expected", "rendered_columns"];
  return {
    eval: (opts: Evalite.Storage.Evals.CreateOpts): Evalite.Storage.Entities.Eval => {
      const id = db
        .prepare(`INSERT INTO evals (suite_id, col_order, input, expected, output, duration, status, rendered_columns, trial_index)
         VALUES (@suite_id, @col_order, @input, @expected, @output, @duration, @status, @rendered_columns, @trial_index)`)
        .run({
          suite_id: opts.suiteId,
          col_order: opts.order,
          input: JSON.stringify(opts.input),
          expected: JSON.stringify(opts.expected),
          output: JSON.stringify(opts.output),
          duration: opts.duration,
          status: opts.status,
          rendered_columns: JSON.stringify(opts.renderedColumns),
          trial_index: opts.trialIndex ?? null,
        }).lastInsertRowid;
      return written("evals", id, EVAL_JSON) as unknown as Evalite.Storage.Entities.Eval;
    },
    evalUpdate: (opts: Evalite.Storage.Evals.UpdateOpts): Evalite.Storage.Entities.Eval => {
      db.prepare(`UPDATE evals
       SET
        output = @output,
        duration = @duration,
        input = @input,
        expected = @expected,
        status = @status,
        rendered_columns = @rendered_columns,
        trial_index = @trial_index
       WHERE id = @id`).run({
        id: opts.id,
        output: JSON.stringify(opts.output),
        duration: opts.duration,
        status: opts.status,
        trial_index: opts.trialIndex ?? null,
        rendered_columns: JSON.stringify(opts.renderedColumns),
        input: JSON.stringify(opts.input),
        expected: JSON.stringify(opts.expected),
      });
      return written("evals", opts.id, EVAL_JSON) as unknown as Evalite.Storage.Entities.Eval;
    },
    score: (opts: Evalite.Storage.Scores.CreateOpts): Evalite.Storage.Entities.Score => {
      const id = db
        .prepare(`INSERT INTO scores (eval_id, name, score, metadata, description)
     VALUES (@eval_id, @name, @score, @metadata, @description)`)
        .run({
          eval_id: opts.evalId,
          description: opts.description ?? undefined,
          name: opts.name,
          score: opts.score,
          metadata: JSON.stringify(opts.metadata),
        }).lastInsertRowid;
      return written("scores", id, ["metadata"]) as unknown as Evalite.Storage.Entities.Score;
    },
    trace: (opts: Evalite.Storage.Traces.CreateOpts): Evalite.Storage.Entities.Trace => {
      const id = db
        .prepare(`INSERT INTO traces (eval_id, input, output, start_time, end_time, input_tokens, output_tokens, total_tokens, col_order)
     VALUES (@eval_id, @input, @output, @start_time, @end_time, @input_tokens, @output_tokens, @total_tokens, @col_order)`)
        .run({
          eval_id: opts.evalId,
          input: JSON.stringify(opts.input),
          output: JSON.stringify(opts.output),
          start_time: Math.round(opts.start),
          end_time: Math.round(opts.end),
          input_tokens: opts.inputTokens ?? undefined,
          output_tokens: opts.outputTokens ?? undefined,
          total_tokens: opts.totalTokens ?? undefined,
          col_order: opts.order,
        }).lastInsertRowid;
      return written("traces", id, ["input", "output"]) as unknown as Evalite.Storage.Entities.Trace;
    },
  };
}
