import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import type { Evalite } from "evalite";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { afterAll, describe, expect, it } from "vitest";
import { createFastSqliteStorage } from "./fast-sqlite-storage.js";

const dir = mkdtempSync(join(tmpdir(), "fast-sqlite-storage-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STARTED = { input: "", expected: "", output: null, duration: 0, status: "running", renderedColumns: [] } as const;

/** Two suites of a run, written through the storage as Evalite's reporter does. */
async function record(storage: Evalite.Storage): Promise<number[]> {
  const run = await storage.runs.create({ runType: "full" });
  const suiteIds: number[] = [];
  for (const name of ["Search (BM25)", "Vector search"]) {
    const suite = await storage.suites.create({ runId: run.id, name, filepath: `evals/${name}.eval.ts` });
    suiteIds.push(suite.id);
    for (let order = 0; order < 4; order++) {
      // As the reporter does: a placeholder when the case starts, its results when it ends.
      const created = await storage.evals.create({ suiteId: suite.id, order, ...STARTED });
      await storage.evals.update({
        id: created.id,
        input: { id: `q-${order}`, query: "cancel subscription", judgments: { "en/a.md": 2 } },
        expected: order === 3 ? undefined : { judgments: { "en/a.md": 2 } },
        output: { results: [{ docId: "en/a.md", score: 1.5 }], elapsedMs: 1.25 },
        duration: 3,
        status: order === 2 ? "fail" : "success",
        renderedColumns: [{ label: "Query", value: `q-${order}` }],
      });
      await storage.scores.create({ evalId: created.id, name: "MRR@10", score: 1, description: "1/rank", metadata: { rank: 1 } });
      await storage.traces.create({
        evalId: created.id,
        input: { stage: "bm25" },
        output: [{ docId: "en/a.md" }],
        start: 1,
        end: 2,
        order: 1,
      });
    }
  }
  return suiteIds;
}

describe("the fast SQLite storage", () => {
  it("answers every query exactly as Evalite's own storage does, on the same file: its run's suites from what it wrote, others from the file", async () => {
    const path = join(dir, "same.db");
    const fast = await createFastSqliteStorage(path);
    const suiteIds = await record(fast);
    const plain = await createSqliteStorage(path);
    const queries: Evalite.Storage.Evals.GetManyOpts[] = [
      {},
      { suiteIds: [suiteIds[0]!] },
      { suiteIds },
      { suiteIds: [suiteIds[1]!], order: 2 },
      { suiteIds: [suiteIds[1]!], statuses: ["success"] },
      { statuses: ["fail"] },
      { ids: [1, 3, 8] },
    ];
    for (const opts of queries) {
      const [mine, theirs] = [await fast.evals.getMany(opts), await plain.evals.getMany(opts)];
      expect(JSON.parse(JSON.stringify(mine)), JSON.stringify(opts)).toEqual(JSON.parse(JSON.stringify(theirs)));
      expect(
        mine.map((e) => ({ ...e })),
        JSON.stringify(opts),
      ).toEqual(theirs);
    }
    expect(await fast.scores.getMany({ evalIds: [1, 2] })).toEqual(await plain.scores.getMany({ evalIds: [1, 2] }));
    expect(await fast.traces.getMany({ evalIds: [1] })).toEqual(await plain.traces.getMany({ evalIds: [1] }));
    // Another storage on the file (another process) did not record these suites: it reads them.
    const other = await createFastSqliteStorage(path);
    expect((await other.evals.getMany({ suiteIds: [suiteIds[0]!] })).map((e) => ({ ...e }))).toEqual(
      await plain.evals.getMany({ suiteIds: [suiteIds[0]!] }),
    );
    await other.close();
    await plain.close();
    await fast.close();
  });

  it("returns from each write what Evalite's own storage returns, and writes the same rows", async () => {
    const [fast, plain] = [
      await createFastSqliteStorage(join(dir, "writes-fast.db")),
      await createSqliteStorage(join(dir, "writes-plain.db")),
    ];
    const returned: unknown[][] = [[], []];
    for (const [i, storage] of [fast, plain].entries()) {
      const run = await storage.runs.create({ runType: "full" });
      const suite = await storage.suites.create({ runId: run.id, name: "Answers", filepath: "evals/ask.eval.ts" });
      // Two trials of case 0 (the same col_order) and one of case 1, the second trial started last.
      const started = [
        await storage.evals.create({ suiteId: suite.id, order: 1, ...STARTED, trialIndex: 0 }),
        await storage.evals.create({ suiteId: suite.id, order: 0, ...STARTED, trialIndex: 0 }),
        await storage.evals.create({ suiteId: suite.id, order: 0, ...STARTED, trialIndex: 1 }),
      ];
      const updated = [];
      for (const [k, row] of started.entries())
        updated.push(
          await storage.evals.update({
            id: row.id,
            input: { question: `q${k}`, nested: [1, null, { a: "é" }] },
            expected: k === 0 ? undefined : null,
            output: k === 2 ? "plain text" : { answer: `a${k}`, sources: [{ ref: 1, text: "t" }] },
            duration: 7 + k,
            status: k === 1 ? "fail" : "success",
            renderedColumns: [{ label: "Question", value: `q${k}` }],
            trialIndex: row.trial_index ?? undefined,
          }),
        );
      const score = await storage.scores.create({ evalId: started[0]!.id, name: "Refusal", score: 0.5, metadata: { why: ["x"] } });
      const bare = await storage.scores.create({ evalId: started[0]!.id, name: "Facts", score: 1, metadata: undefined });
      const trace = await storage.traces.create({
        evalId: started[1]!.id,
        input: { stage: "bm25" },
        output: "| rank |",
        start: 1.4,
        end: 2.6,
        order: 1,
      });
      const tokens = await storage.traces.create({
        evalId: started[1]!.id,
        input: { prompt: "p" },
        output: { text: "t" },
        start: 3,
        end: 4,
        inputTokens: 10,
        outputTokens: 2,
        totalTokens: 12,
        order: 2,
      });
      const byOrder = await storage.evals.getMany({ suiteIds: [suite.id], order: 0 });
      returned[i] = [started, updated, score, bare, trace, tokens, byOrder].map((x) => JSON.parse(JSON.stringify(x)));
    }
    // created_at is the clock's, to the second: compared apart from the rest.
    const withoutTimes = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (k, v) => (k === "created_at" ? undefined : v)));
    expect(withoutTimes(returned[0])).toEqual(withoutTimes(returned[1]));
    await Promise.all([fast.close(), plain.close()]);
    for (const table of ["evals", "scores", "traces"]) {
      const rows = ["writes-fast.db", "writes-plain.db"].map((file) => {
        const db = new Database(join(dir, file), { readonly: true });
        const all = db.prepare(`SELECT * FROM ${table} ORDER BY id`).all();
        db.close();
        return withoutTimes(all);
      });
      expect(rows[0], table).toEqual(rows[1]);
    }
  });

  it("fills in each suite's duration (Evalite leaves 0): from its first case starting to its latest result stored", async () => {
    const path = join(dir, "durations.db");
    const fast = await createFastSqliteStorage(path);
    const run = await fast.runs.create({ runType: "full" });
    const suite = await fast.suites.create({ runId: run.id, name: "Search (BM25)", filepath: "evals/search.eval.ts" });
    const durationOf = async () => (await fast.suites.getMany({ ids: [suite.id] }))[0]!.duration;
    const first = await fast.evals.create({ suiteId: suite.id, order: 0, ...STARTED });
    const second = await fast.evals.create({ suiteId: suite.id, order: 1, ...STARTED });
    // A case that starts is not a result: nothing is written yet.
    expect(await durationOf()).toBe(0);
    await new Promise((r) => setTimeout(r, 30));
    await fast.evals.update({
      id: first.id,
      input: "q0",
      expected: null,
      output: "o",
      duration: 0,
      status: "success",
      renderedColumns: [],
    });
    const afterFirst = await durationOf();
    expect(afterFirst).toBeGreaterThanOrEqual(30);
    await new Promise((r) => setTimeout(r, 30));
    // A case served from the run's memo took ~0 ms of its own: the span still counts the wait.
    await fast.evals.update({ id: second.id, input: "q1", expected: null, output: "o", duration: 0, status: "fail", renderedColumns: [] });
    const afterSecond = await durationOf();
    expect(afterSecond).toBeGreaterThanOrEqual(afterFirst + 30);
    // Evalite's status update at the suite's end keeps it; so does a later status change (the gate's verdict).
    await fast.suites.update({ id: suite.id, status: "success" });
    await new Promise((r) => setTimeout(r, 30));
    await fast.suites.update({ id: suite.id, status: "fail" });
    expect(await durationOf()).toBe(afterSecond);
    // Evalite's own storage reads the same figure from the file (what its UI and export show).
    const plain = await createSqliteStorage(path);
    expect((await plain.suites.getMany({ ids: [suite.id] }))[0]!.duration).toBe(afterSecond);
    // A suite another process created is not timed by this one.
    const other = await plain.suites.create({ runId: run.id, name: "Vector search", filepath: "evals/vsearch.eval.ts" });
    const row = await fast.evals.create({ suiteId: other.id, order: 0, ...STARTED, status: "success" });
    expect(row.suite_id).toBe(other.id);
    expect((await plain.suites.getMany({ ids: [other.id] }))[0]!.duration).toBe(0);
    await plain.close();
    await fast.close();
  });

  it("indexes the parent ids and syncs less often; Evalite's own storage still opens the file", async () => {
    const path = join(dir, "indexes.db");
    const fast = await createFastSqliteStorage(path);
    await record(fast);
    expect((fast as unknown as { db: Database.Database }).db.pragma("synchronous", { simple: true })).toBe(1);
    await fast.close();
    const db = new Database(path, { readonly: true });
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all();
    expect(indexes).toEqual(["evals_by_suite", "scores_by_eval", "suites_by_run", "traces_by_eval"]);
    db.close();
    const plain = await createSqliteStorage(path);
    expect(await plain.evals.getMany({ suiteIds: [1] })).toHaveLength(4);
    await plain.close();
  });

  it("commits the writes of one turn of the event loop together: visible here at once, elsewhere after the turn, never lost on close or exit", async () => {
    const path = join(dir, "turns.db");
    const fast = await createFastSqliteStorage(path);
    const db = (fast as unknown as { db: Database.Database }).db;
    const reader = new Database(path, { readonly: true });
    const cases = (): number => reader.prepare("SELECT count(*) FROM evals").pluck().get() as number;

    await record(fast);
    // One transaction holds the whole turn's writes: this connection reads them, another does not yet.
    expect(db.inTransaction).toBe(true);
    expect(await fast.evals.getMany({})).toHaveLength(8);
    expect(cases()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.inTransaction).toBe(false);
    expect(cases()).toBe(8);

    // A write just before close is committed by the close.
    const run = await fast.runs.create({ runType: "full" });
    const suite = await fast.suites.create({ runId: run.id, name: "Late", filepath: "evals/late.eval.ts" });
    await fast.evals.create({ suiteId: suite.id, order: 0, ...STARTED, status: "success" });
    await fast.close();
    expect(cases()).toBe(9);
    reader.close();

    // And one before the process exits, in a child process that exits in the same turn.
    const script = join(dir, "exit.mjs");
    const exitPath = join(dir, "exit.db");
    writeFileSync(
      script,
      `const { createFastSqliteStorage } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, "fast-sqlite-storage.ts")).href)});
const storage = await createFastSqliteStorage(${JSON.stringify(exitPath)});
const run = await storage.runs.create({ runType: "full" });
await storage.suites.create({ runId: run.id, name: "Exiting", filepath: "evals/exit.eval.ts" });
process.exit(0);
`,
    );
    const child = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8" });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    const after = new Database(exitPath, { readonly: true });
    expect(after.prepare("SELECT name FROM suites").pluck().all()).toEqual(["Exiting"]);
    after.close();
  });
});
