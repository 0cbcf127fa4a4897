// Index runs as real processes (the compiled `pnpm engine`, built by the test run's global setup):
// two at once on one index, and one killed with SIGKILL before its first run finished. What only
// prepares or reads the index runs in this process, through the CLI's `main(argv, io)`: it needs
// no process of its own, and each spawn of the CLI costs about half a CPU-second.
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { tempDir } from "./helpers.js";

const root = resolve(import.meta.dirname, "../../..");
const entry = join(root, "packages/engine/dist/entry.js");
const dir = tempDir("engine-processes-");

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI; `onStderr` sees stderr as it comes (to act while the run is in progress). */
function start(args: string[], onStderr: (text: string, kill: () => void) => void = () => {}): Promise<Finished> {
  return new Promise((done) => {
    // One process (node itself, no wrapper such as pnpm or the tsx CLI): SIGKILL must reach the indexer.
    // `compiled`, as `pnpm engine` passes it: the server's contract package resolves to its dist/ too.
    const child = spawn(process.execPath, ["--conditions=compiled", entry, ...args], {
      cwd: root,
      env: { ...process.env, ENGINE_DEBUG: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      onStderr(stderr, () => child.kill("SIGKILL"));
    });
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

/** The CLI in this process, as `dist/entry.js` runs it in its own. */
async function inProcess(args: string[]): Promise<Omit<Finished, "signal">> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: (s: string) => void (stdout += s),
    stderr: (s: string) => void (stderr += s),
    env: { ...process.env, ENGINE_DEBUG: "" },
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

type Corpus = Map<string, string>;

/** A JSONL corpus of `records` (id → text): one file, so a large one is quick to write. */
function corpus(name: string, records: Corpus): string {
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, [...records].map(([id, text]) => JSON.stringify({ _id: id, title: "", text })).join("\n"));
  return path;
}

function records(prefix: string, n: number): Corpus {
  return new Map(
    Array.from({ length: n }, (_, i) => [`${prefix}-${i}`, `${prefix} record ${i}: ${"lorem ipsum dolor ".repeat(8).trim()}`]),
  );
}

/** The collection as the index holds it: document id → its passages' text. */
function indexed(db: string, collection: string): Corpus {
  const conn = new Database(db, { readonly: true });
  try {
    const rows = conn
      .prepare(
        "SELECT d.path, group_concat(p.text, '\n') AS text FROM documents d JOIN passages p ON p.document_id = d.id WHERE d.collection = ? GROUP BY d.id",
      )
      .all(collection) as Array<{ path: string; text: string }>;
    return new Map(rows.map((r) => [r.path, r.text]));
  } finally {
    conn.close();
  }
}

const sorted = (c: Corpus): Array<[string, string]> => [...c].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Two index runs into one collection at once. Each either finishes (exit 0) or loses the write
 * lock with one line (exit 2); never a raw SQLite error; and the index ends as exactly one of the
 * two sources — that of the last run that finished.
 */
async function race(db: string, b: Corpus, c: Corpus): Promise<void> {
  const runs = await Promise.all(
    [b, c].map((source, i) => start(["index", corpus(`source-${i}`, source), "--db", db, "--collection", "docs"])),
  );
  for (const r of runs) {
    expect(r.stderr).not.toMatch(/SQLITE_CONSTRAINT|internal error|\n\s+at /);
    if (r.code !== 0) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^engine: .*locked by another process \(SQLITE_BUSY\); try again when it has finished\n$/);
    }
  }
  expect(runs.some((r) => r.code === 0)).toBe(true);
  const now = sorted(indexed(db, "docs"));
  expect([JSON.stringify(sorted(b)), JSON.stringify(sorted(c))]).toContain(JSON.stringify(now));
}

describe("two index runs at once on one index", () => {
  // Each source is large enough (10,000 records, several seconds of embedding) that the two runs
  // overlap; before the write lock was held across a run, the index ended with both sources' new
  // records (the union of the two), or the second run died on SQLITE_CONSTRAINT_FOREIGNKEY.
  const seed = records("a", 500);
  const b = new Map([...seed, ...records("b", 10_000)]);
  const c = new Map([...seed, ...records("c", 10_000)]);

  it("into an existing index: one writer at a time, and the result is one source exactly", async () => {
    const db = join(dir, "existing.db");
    // The existing index, built in this process (it races nobody).
    const first = await inProcess(["index", corpus("seed", seed), "--db", db, "--collection", "docs"]);
    expect(first.code, first.stderr).toBe(0);
    await race(db, b, c);
  }, 120_000);

  it("into a new file: both create it, one writer at a time, and the result is one source exactly", async () => {
    await race(join(dir, "fresh.db"), b, c);
  }, 120_000);
});

describe("an index run killed with SIGKILL", () => {
  it("during its first run leaves an index every reader refuses as incomplete, until a run finishes", async () => {
    const db = join(dir, "killed.db");
    const source = corpus("big", records("k", 10_000));
    let killedWhile = "";
    const killed = await start(["index", source, "--db", db], (stderr, kill) => {
      // Past the schema, in the middle of embedding: the point where the index file exists.
      if (killedWhile === "" && /embedded \d+\/10000 passages/.test(stderr)) {
        killedWhile = stderr;
        kill();
      }
    });
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    expect(killedWhile).not.toBe("");
    // With two CPUs the run prepares its 10,000 passages on a worker thread (the compiled
    // prepare-worker.js): it was killed while that thread ran.
    if (availableParallelism() >= 2)
      expect(killedWhile).toMatch(/^engine: preparing 10000 passages' terms and 10000 vectors on a worker thread/m);
    for (const args of [
      ["search", "record", "--db", db],
      ["stats", "--db", db],
    ]) {
      const r = await inProcess(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `engine: ${db}: the index is incomplete: no index run has finished on it (one was interrupted, failed, or is still running); build it with \`pnpm engine index <folder> --db ${db}\`\n`,
      );
    }
    // Any run that finishes makes it an index, here a small one (what the killed run would have
    // written is not the point): the index is then that run's source.
    const again = await start(["index", corpus("small", records("k", 100)), "--db", db]);
    expect(again.code, again.stderr).toBe(0);
    const conn = new Database(db, { readonly: true });
    try {
      expect(conn.prepare("SELECT (SELECT count(*) FROM documents) || ' ' || (SELECT count(*) FROM passages)").pluck().get()).toBe(
        "100 100",
      );
    } finally {
      conn.close();
    }
    const found = await inProcess(["search", "k record 7", "--db", db, "--limit", "1"]);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toMatch(/^ 1\. k-/);
  }, 120_000);
});
