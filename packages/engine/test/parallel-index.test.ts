import Database from "better-sqlite3";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeCorpus } from "../bench/corpus.js";
import { DEFAULT_CALL_POLICY } from "../src/call-policy.js";
import { HashedNgramEmbedder } from "../src/embed/hashed-ngram.js";
import { DEFAULT_CHUNKER } from "../src/ingest/chunk.js";
import { Engine } from "../src/index.js";
import { openIndex } from "../src/store/database.js";
import { indexSource } from "../src/store/indexer.js";
import { documentTerms, embedPacked, type TermsJob } from "../src/store/prepare.js";
import { PrepareThread, runningPrepareWorkers } from "../src/store/prepare-thread.js";
import { type AnalyzerConfig, resolveAnalyzer } from "../src/text/analyze.js";
import type { CjkStrategy } from "../src/text/cjk.js";
import type { Document, EngineOptions, IndexWorkerMode } from "../src/types.js";
import { SMALL_CORPUS, tempDir, writeFiles } from "./helpers.js";

// An index run prepares its passages (terms, offline vectors) on a worker thread while it writes,
// or on its own thread (store/prepare-thread.ts). Whichever path runs, the index must hold the same
// bytes: every row of every table, the FTS5 segments included, and every vector.

const dir = tempDir("parallel-index-");
const corpus = join(dir, "corpus");

/** Every table an index run writes, as comparable strings, row by row in rowid order. */
type Snapshot = Record<string, string[]>;

/**
 * Every row of every table an index run writes, FTS5's own storage byte for byte. With `readable`,
 * also the terms of every FTS5 row (term, row, column, position): FTS5 reads them from that
 * storage, so they are the same whenever it is; they are read only to name a difference readably
 * (about 200,000 rows, which took most of this file's time when read for every comparison).
 */
function snapshot(file: string, readable = false): Snapshot {
  const db = new Database(file, { readonly: true });
  try {
    const rows = (sql: string): string[] =>
      (db.prepare(sql).raw().all() as unknown[][]).map((row) =>
        JSON.stringify(row.map((v) => (Buffer.isBuffer(v) ? `blob:${v.toString("hex")}` : v))),
      );
    let instances: Snapshot = {};
    if (readable) {
      db.exec("CREATE VIRTUAL TABLE temp.instances USING fts5vocab(main, passages_fts, instance)");
      instances = { ftsInstances: rows("SELECT term, doc, col, offset FROM temp.instances ORDER BY term, doc, col, offset") };
    }
    return {
      documents: rows("SELECT * FROM documents ORDER BY id"),
      passages: rows("SELECT * FROM passages ORDER BY id"),
      // The terms of every FTS5 row, readable…
      ...instances,
      // …and the FTS5 table's own storage, byte for byte.
      ftsData: rows("SELECT * FROM passages_fts_data ORDER BY id"),
      ftsIdx: rows("SELECT * FROM passages_fts_idx ORDER BY segid, term"),
      ftsDocsize: rows("SELECT * FROM passages_fts_docsize ORDER BY id"),
      ftsConfig: rows("SELECT * FROM passages_fts_config ORDER BY k"),
      embeddings: rows("SELECT * FROM embeddings ORDER BY id"),
      meta: rows("SELECT * FROM meta WHERE key <> 'updated_at' ORDER BY key"),
    };
  } finally {
    db.close();
  }
}

/** The first row where two snapshots differ, named by table and row, or undefined. */
function firstDifference(a: Snapshot, b: Snapshot): string | undefined {
  for (const table of Object.keys(a)) {
    const x = a[table]!;
    const y = b[table] ?? [];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (x[i] !== y[i]) return `${table}, row ${i}: ${x[i]?.slice(0, 300)} ≠ ${y[i]?.slice(0, 300)}`;
    }
  }
  return undefined;
}

/** Where two index files differ (the first differing FTS5 term first, if any), or undefined. */
function indexDifference(a: string, b: string): string | undefined {
  if (firstDifference(snapshot(a), snapshot(b)) === undefined) return undefined;
  return firstDifference(snapshot(a, true), snapshot(b, true));
}

/** Records given as data (ids are keys, so their path column is empty), some with CJK text. */
function records(): Document[] {
  const texts = Object.values(SMALL_CORPUS);
  return Array.from({ length: 300 }, (_, i) => ({
    id: `rec-${i}`,
    title: `Record ${i} DEC-${String(i).padStart(4, "0")}`,
    text: `${texts[i % texts.length]}\n\nmaxRetryCount ${i} real-time Größe 東京都の同期 ${i % 7}`,
    language: i % 3 === 0 ? "de" : i % 3 === 1 ? "ja" : null,
  }));
}

interface Run {
  file: string;
  messages: string[];
}

async function indexBoth(
  name: string,
  folder: string,
  options: Omit<EngineOptions, "indexWorker"> = {},
): Promise<Record<"never" | "always", Run>> {
  const out = {} as Record<"never" | "always", Run>;
  for (const mode of ["never", "always"] as const) {
    const file = join(dir, `${name}-${mode}.db`);
    const messages: string[] = [];
    const engine = Engine.open(file, { create: true, ...options, indexWorker: mode });
    try {
      await engine.index(folder, { collection: "docs", onMessage: (line) => messages.push(line) });
      await engine.indexDocuments(records(), { collection: "records", ids: "keys", onMessage: (line) => messages.push(line) });
    } finally {
      engine.close();
    }
    out[mode] = { file, messages };
  }
  return out;
}

const onWorker = (run: Run): boolean => run.messages.some((line) => /on a worker thread while this one writes$/.test(line));

beforeAll(async () => {
  // ~1,400 passages of the benchmark's generator (en, de, fr, it; compounds, identifiers): six
  // embedding batches, more than the worker's window (the first test checks), several terms
  // batches; and the small corpus's CJK and scripts.
  await writeCorpus(corpus, 7, 1400);
  writeFiles(corpus, SMALL_CORPUS);
}, 120_000);

describe("an index run on a worker thread writes the same index as on its own thread", () => {
  it("a new index, then changed, new and removed documents, then another analyzer: the same bytes in every table", async () => {
    const folder = join(dir, "changing");
    cpSync(corpus, folder, { recursive: true });
    const first = await indexBoth("changing", folder);
    expect(onWorker(first.always)).toBe(true);
    expect(onWorker(first.never)).toBe(false);
    // More embedding batches (EMBED_BATCH 256, store/indexer.ts) than the worker is given at once
    // (PreparationQueue's window of 4) and one more: the run's thread takes batches from the back
    // while the worker embeds from the front, and the two meet in the middle.
    const prepared = first.always.messages.map((line) => /^preparing (\d+) passages' terms and (\d+) vectors/.exec(line)).find(Boolean);
    expect(Number(prepared?.[2])).toBeGreaterThan(5 * 256);
    const a = snapshot(first.never.file);
    expect(a.passages!.length).toBeGreaterThan(1400);
    expect(a.embeddings!.length).toBeGreaterThan(1400);
    expect(indexDifference(first.never.file, first.always.file)).toBeUndefined();

    // Rewrite every 9th file, remove every 13th, add a few: the second run updates in place.
    const files = readdirSync(join(folder, "en"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    files.forEach((f, i) => {
      const path = join(f.parentPath, f.name);
      if (i % 13 === 0) rmSync(path);
      else if (i % 9 === 0)
        writeFileSync(path, `${readFileSync(path, "utf8")}\n\n## Added\n\nA new paragraph about real-time sync ${i}.\n`);
    });
    writeFiles(folder, { "de/neu/neu.md": "# Neue Kündigung\n\nDie Größe zählt.", "ko/new.md": "# 새 문서\n\n동기화 클라이언트" });
    const second = await indexBoth("changing", folder);
    expect(onWorker(second.always)).toBe(true);
    expect(indexDifference(second.never.file, second.always.file)).toBeUndefined();

    // Another analyzer: the run rebuilds every FTS5 row (on its own thread) and prepares no terms.
    const third = await indexBoth("changing", folder, { analyzer: { cjk: "unigram+bigram" } });
    expect(third.always.messages.some((line) => line.startsWith("analyzer changed"))).toBe(true);
    expect(indexDifference(third.never.file, third.always.file)).toBeUndefined();
  }, 180_000);

  for (const cjk of ["trigram", "segmenter"] as const satisfies readonly CjkStrategy[]) {
    it(`analyzer { cjk: "${cjk}", stemLanguages: ["de", "fr"] }, and an embedder the worker cannot build (terms only there)`, async () => {
      // A subclass of the offline embedder might compute other vectors: it embeds on the run's thread.
      class OwnEmbedder extends HashedNgramEmbedder {}
      const runs = await indexBoth(cjk, corpus, { analyzer: { cjk, stemLanguages: ["de", "fr"] }, embedder: new OwnEmbedder() });
      expect(onWorker(runs.always)).toBe(true);
      expect(runs.always.messages.filter((line) => line.includes("on a worker thread"))).toEqual([
        expect.stringMatching(/^preparing \d+ passages' terms on a worker thread/),
        expect.stringMatching(/^preparing 300 passages' terms on a worker thread/),
      ]);
      expect(indexDifference(runs.never.file, runs.always.file)).toBeUndefined();
    }, 120_000);
  }
});

describe("EngineOptions.indexWorker", () => {
  it("is auto, always or never; anything else throws RangeError before a file is created", () => {
    const file = join(dir, "never-created.db");
    expect(() => Engine.open(file, { create: true, indexWorker: "sometimes" as IndexWorkerMode })).toThrow(
      new RangeError(`Expected "indexWorker" to be one of auto, always, never, got "sometimes"`),
    );
    expect(existsSync(file)).toBe(false);
    for (const mode of ["auto", "always", "never"] as const)
      Engine.open(join(dir, `${mode}.db`), { create: true, indexWorker: mode }).close();
  });
});

describe("a failure on the worker thread", () => {
  /** An index run through the indexer itself, with an analyzer `Engine.open` would refuse. */
  async function runWith(file: string, folder: string, analyzer: AnalyzerConfig, indexWorker: IndexWorkerMode): Promise<void> {
    const db = openIndex(file, { create: true, busyTimeoutMs: 1000 });
    try {
      const embedder = new HashedNgramEmbedder();
      const chunker = DEFAULT_CHUNKER;
      await indexSource({ db, file, analyzer, chunker, embedder, modelLimits: DEFAULT_CALL_POLICY, indexWorker }, folder, {
        collection: "docs",
      });
    } finally {
      db.close();
    }
  }

  it("fails the index run with the worker's message, leaves the index as it was, and ends the worker", async () => {
    const file = join(dir, "failing.db");
    // Not a strategy: the analyzer fails on the first CJK run it meets. An index built with it from
    // text without CJK (so the next run does not rebuild its FTS5 rows), then the corpus's zh/, ja/, ko/.
    const broken = { ...resolveAnalyzer(), cjk: "no-such-strategy" as CjkStrategy };
    const latin = join(dir, "latin");
    await writeCorpus(latin, 11, 500);
    await runWith(file, latin, broken, "always");
    const before = snapshot(file);
    await expect(runWith(file, corpus, broken, "never")).rejects.toThrow(TypeError);
    await expect(runWith(file, corpus, broken, "always")).rejects.toThrow(
      /^preparing passages on a worker thread failed: Cannot read properties of undefined/,
    );
    expect(firstDifference(before, snapshot(file))).toBeUndefined();
    // The failed run's worker has exited (not the process's thread count: Vitest's other workers
    // are threads of this process too, and start and end their own threads meanwhile).
    for (let i = 0; i < 100 && runningPrepareWorkers() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(runningPrepareWorkers()).toBe(0);
  }, 120_000);

  it("a worker that dies rejects every pending and later request, and close() ends it", async () => {
    // The worker builds its embedder when it starts: 3 dimensions throw there, uncaught.
    const dead = new PrepareThread({ analyzer: resolveAnalyzer(), dimensions: 3 });
    await expect(dead.embed(["text"])).rejects.toThrow(/^preparing passages on a worker thread failed: .*"dimensions"/);
    await expect(dead.terms([])).rejects.toThrow(/^preparing passages on a worker thread failed/);
    expect(await dead.exited).not.toBe(0);
    await dead.close();

    const closed = new PrepareThread({ analyzer: resolveAnalyzer(), dimensions: 384 });
    const pending = expect(closed.embed(Array.from({ length: 2000 }, (_, i) => `text ${i}`))).rejects.toThrow(/closed before it answered/);
    await closed.close();
    await pending;
    await expect(closed.terms([])).rejects.toThrow(/closed before it answered/);
  }, 60_000);
});

describe("the compiled worker (dist/, as the CLIs and pnpm eval run it)", () => {
  it("answers with the same terms and vectors as the sources compute", async () => {
    // test/build-clis.ts (the global setup) has built dist/ from these sources.
    const compiledModule = new URL("../dist/store/prepare-thread.js", import.meta.url).href;
    const compiled = (await import(compiledModule)) as typeof import("../src/store/prepare-thread.js");
    const analyzer = resolveAnalyzer({ cjk: "segmenter" });
    const jobs: TermsJob[] = Object.entries(SMALL_CORPUS).map(([path, text]) => ({
      title: text.split("\n")[0]!,
      path,
      language: path.split("/")[0]!,
      searchablePath: true,
      bodies: text.split("\n\n"),
    }));
    const texts = jobs.flatMap((job) => job.bodies);
    const thread = new compiled.PrepareThread({ analyzer, dimensions: 384 });
    try {
      expect(await thread.terms(jobs)).toEqual(jobs.map((job) => documentTerms(job, analyzer)));
      const vectors = await thread.embed(texts);
      expect(Buffer.from(vectors.buffer).equals(Buffer.from(embedPacked(new HashedNgramEmbedder(), texts).buffer))).toBe(true);
    } finally {
      await thread.close();
    }
  }, 60_000);
});
