import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync, copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Engine, EngineError, HashedNgramEmbedder, type IndexReport, resolveParameters } from "../src/index.js";
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { SMALL_CORPUS, tempDir, writeFiles } from "./helpers.js";

const dir = tempDir();
let n = 0;
function fresh(files: Record<string, string | Uint8Array> = SMALL_CORPUS): { corpus: string; db: string } {
  n++;
  const corpus = join(dir, `corpus${n}`);
  writeFiles(corpus, files);
  return { corpus, db: join(dir, `index${n}.db`) };
}

/** Everything an index holds that a failed run must leave alone. */
function snapshot(db: string): string {
  const conn = new Database(db, { readonly: true });
  try {
    const rows = (sql: string): unknown[] => conn.prepare(sql).raw().all();
    return JSON.stringify([
      rows("SELECT collection, path, title, language, content_hash FROM documents ORDER BY id"),
      rows("SELECT id, document_id, seq, text FROM passages ORDER BY id"),
      rows("SELECT content_hash, embedder, dimensions FROM embeddings ORDER BY content_hash, embedder"),
      rows("SELECT key, value FROM meta WHERE key <> 'updated_at' ORDER BY key"),
      rows("SELECT term, doc, cnt FROM passages_vocab ORDER BY term"),
    ]);
  } finally {
    conn.close();
  }
}

describe("re-indexing", () => {
  it("skips unchanged documents, rewrites changed ones and removes deleted ones", async () => {
    const { corpus, db } = fresh();
    const engine = Engine.open(db, { create: true });
    try {
      const first = await engine.index(corpus);
      expect(first.documents).toMatchObject({ added: 14, updated: 0, unchanged: 0, removed: 0, total: 14 });
      expect(first.embeddings.computed).toBe(first.passages.written);

      const again = await engine.index(corpus);
      expect(again.documents).toMatchObject({ added: 0, updated: 0, unchanged: 14, removed: 0, total: 14 });
      expect(again.passages.written).toBe(0);
      expect(again.embeddings.computed).toBe(0);

      writeFileSync(
        join(corpus, "en/billing.md"),
        "# Cancel your subscription\n\nCancellation now takes effect immediately; refunds are pro rata.",
      );
      rmSync(join(corpus, "en/upload.md"));
      writeFileSync(join(corpus, "en/new.md"), "# Brand new\n\nA document about zeppelins.");
      const third = await engine.index(corpus);
      expect(third.documents).toMatchObject({ added: 1, updated: 1, unchanged: 12, removed: 1, total: 14 });
      expect(engine.search("zeppelins").results[0]!.docId).toBe("en/new.md");
      expect(engine.search("pro rata refunds").results[0]!.docId).toBe("en/billing.md");
      expect(engine.search("background uploads parts").results.map((h) => h.docId)).not.toContain("en/upload.md");
      // Vectors of removed text are gone; the FTS index holds no rows of removed passages.
      const conn = new Database(db, { readonly: true });
      const orphans = conn
        .prepare("SELECT count(*) FROM embeddings WHERE content_hash NOT IN (SELECT content_hash FROM passages)")
        .pluck()
        .get();
      const fts = conn.prepare("SELECT count(*) FROM passages_fts").pluck().get();
      const passages = conn.prepare("SELECT count(*) FROM passages").pluck().get();
      conn.close();
      expect(orphans).toBe(0);
      expect(fts).toBe(passages);
    } finally {
      engine.close();
    }
  });

  it("keeps collections apart: removing from one never touches another", async () => {
    const a = fresh({ "x.md": "# X\n\nalpha text" });
    const b = fresh({ "y.md": "# Y\n\nbeta text" });
    const engine = Engine.open(a.db, { create: true });
    try {
      await engine.index(a.corpus, { collection: "a" });
      await engine.index(b.corpus, { collection: "b" });
      expect(engine.stats().collections).toEqual(["a", "b"]);
      rmSync(join(a.corpus, "x.md"));
      writeFileSync(join(a.corpus, "z.md"), "# Z\n\ngamma text");
      await engine.index(a.corpus, { collection: "a" });
      expect(engine.search("beta").results.map((h) => [h.collection, h.docId])).toEqual([["b", "y.md"]]);
      expect(engine.search("text", { collection: "a" }).results.map((h) => h.docId)).toEqual(["z.md"]);
    } finally {
      engine.close();
    }
  });
});

/**
 * Indexes a fresh SMALL_CORPUS, changes one document and lets `breakCorpus` break the corpus, then
 * checks with `expectFailure` that the next run fails, and that the index is as it was before it.
 */
async function expectFailedRunLeavesIndex(
  breakCorpus: (corpus: string) => void,
  expectFailure: (run: () => Promise<unknown>, corpus: string) => Promise<void>,
): Promise<void> {
  const { corpus, db } = fresh();
  const engine = Engine.open(db, { create: true });
  try {
    await engine.index(corpus);
    const before = snapshot(db);
    writeFileSync(join(corpus, "en/billing.md"), "# Changed\n\nchanged text");
    breakCorpus(corpus);
    await expectFailure(() => engine.index(corpus), corpus);
    expect(snapshot(db)).toBe(before);
  } finally {
    engine.close();
  }
}

describe("a failed index run leaves the previous index intact", () => {
  it("a binary file stops the run before anything is written", async () => {
    await expectFailedRunLeavesIndex(
      (corpus) => writeFileSync(join(corpus, "en/image.md"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])),
      async (run) => {
        await expect(run()).rejects.toMatchObject({ code: "BINARY_FILE", message: expect.stringContaining("en/image.md") });
      },
    );
  });

  it("a NUL byte past the first 8 KiB is binary too", async () => {
    await expectFailedRunLeavesIndex(
      (corpus) =>
        writeFileSync(join(corpus, "en/late.md"), Buffer.concat([Buffer.from(`# Late\n\n${"text ".repeat(4000)}`), Buffer.from([0])])),
      async (run) => {
        await expect(run()).rejects.toMatchObject({
          code: "BINARY_FILE",
          message: expect.stringMatching(/en\/late\.md: binary file \(a NUL byte at byte 20008, 0-based\)/),
        });
      },
    );
  });

  it("broken front matter names the file and line, and nothing is indexed", async () => {
    await expectFailedRunLeavesIndex(
      (corpus) => writeFileSync(join(corpus, "en/notes.md"), "---\ntitle: [unclosed\n---\n# Notes\n"),
      async (run, corpus) => {
        await expect(run()).rejects.toMatchObject({
          code: "MALFORMED_FRONT_MATTER",
          message: expect.stringMatching(/en\/notes\.md:2: front matter is not valid YAML: /),
        });
        writeFileSync(join(corpus, "en/notes.md"), "---\ntitle: Notes\n\n# Notes\n");
        await expect(run()).rejects.toThrow(/en\/notes\.md:1: front matter opened by --- is never closed/);
      },
    );
    const first = fresh({ "a.md": "---\ntitle: [unclosed\n---\nbody" });
    const empty = Engine.open(first.db, { create: true });
    try {
      await expect(empty.index(first.corpus)).rejects.toMatchObject({ code: "MALFORMED_FRONT_MATTER" });
      expect(empty.stats().documents).toBe(0);
    } finally {
      empty.close();
    }
  });

  it("invalid UTF-8 names the file and the byte", async () => {
    const { corpus, db } = fresh();
    writeFileSync(join(corpus, "en/latin1.md"), Buffer.from("# Caf\xe9\n", "latin1"));
    const engine = Engine.open(db, { create: true });
    try {
      await expect(engine.index(corpus)).rejects.toThrow(/en\/latin1\.md: invalid UTF-8 at byte 5 \(0-based\)/);
    } finally {
      engine.close();
    }
  });

  it("a failure inside the write transaction rolls everything back", async () => {
    const { corpus, db } = fresh();
    const engine = Engine.open(db, { create: true });
    try {
      await engine.index(corpus);
      const before = snapshot(db);
      // A trigger added from outside makes SQLite abort half-way through the transaction.
      const conn = new Database(db);
      conn.exec("CREATE TRIGGER boom BEFORE INSERT ON passages WHEN NEW.text LIKE '%BOOM%' BEGIN SELECT RAISE(ABORT, 'boom'); END");
      conn.close();
      writeFileSync(join(corpus, "en/a-first.md"), "# First\n\nfine text that is inserted before the failure");
      writeFileSync(join(corpus, "en/billing.md"), "# Cancel\n\nBOOM");
      rmSync(join(corpus, "en/upload.md"));
      await expect(engine.index(corpus)).rejects.toThrow(/boom/);
      expect(snapshot(db)).toBe(before);
    } finally {
      engine.close();
    }
  });

  it("an embedding provider failure writes nothing", async () => {
    const { corpus, db } = fresh();
    const engine = Engine.open(db, { create: true });
    await engine.index(corpus);
    engine.close();
    const before = snapshot(db);
    const failing: EmbeddingModelV3 = {
      specificationVersion: "v3",
      provider: "test",
      modelId: "failing",
      maxEmbeddingsPerCall: 10,
      supportsParallelCalls: false,
      doEmbed: async () => {
        throw new Error("HTTP 500 from provider");
      },
    };
    const other = Engine.open(db, { embedder: failing });
    try {
      await expect(other.index(corpus)).rejects.toMatchObject({
        code: "PROVIDER_ERROR",
        message: expect.stringMatching(/test\/failing failed: .*HTTP 500/),
      });
      expect(snapshot(db)).toBe(before);
    } finally {
      other.close();
    }
  });
});

/** The report of one run into a new index. */
async function indexOnce(corpus: string, db: string): Promise<IndexReport> {
  const engine = Engine.open(db, { create: true });
  try {
    return await engine.index(corpus);
  } finally {
    engine.close();
  }
}

describe("what a folder holds besides documents", () => {
  it("reads regular files and links to files inside the folder; lists every other entry with the reason", async () => {
    const outside = join(dir, "outside");
    writeFiles(outside, { "secret.md": "# Secret\n\nzanzibar password outside the folder", "sub/x.md": "# X" });
    const { corpus, db } = fresh({ "en/a.md": "# Alpha\n\nalpha text", "en/b.png": "png" });
    symlinkSync(join(corpus, "en/a.md"), join(corpus, "en/inside-link.md"));
    symlinkSync(join(outside, "secret.md"), join(corpus, "en/outside-link.md"));
    symlinkSync(join(outside, "sub"), join(corpus, "en/folder-link"));
    symlinkSync(join(corpus, "en/no-such.md"), join(corpus, "en/dangling.md"));
    symlinkSync(join(corpus, "en/loop-b.md"), join(corpus, "en/loop-a.md"));
    symlinkSync(join(corpus, "en/loop-a.md"), join(corpus, "en/loop-b.md"));
    expect(spawnSync("mkfifo", [join(corpus, "en/pipe.md")]).status).toBe(0);
    const engine = Engine.open(db, { create: true });
    try {
      const report = await engine.index(corpus);
      expect(report.skippedFiles).toEqual([
        { path: "en/b.png", reason: "not-text" },
        { path: "en/dangling.md", reason: "link-dangling" },
        { path: "en/folder-link", reason: "link-outside" },
        { path: "en/loop-a.md", reason: "link-loop" },
        { path: "en/loop-b.md", reason: "link-loop" },
        { path: "en/outside-link.md", reason: "link-outside" },
        { path: "en/pipe.md", reason: "not-a-file" },
      ]);
      expect(report.documents.total).toBe(2);
      expect(engine.search("zanzibar").results).toEqual([]);
      expect(engine.search("alpha").results.map((r) => r.docId)).toEqual(["en/a.md", "en/inside-link.md"]);
    } finally {
      engine.close();
    }
  });

  it("a link to a folder inside the folder is listed, not followed (the folder is read once, by its own path)", async () => {
    const { corpus, db } = fresh({ "en/a.md": "# Alpha" });
    symlinkSync(join(corpus, "en"), join(corpus, "again"));
    const report = await indexOnce(corpus, db);
    expect(report.skippedFiles).toEqual([{ path: "again", reason: "link-to-folder" }]);
    expect(report.documents.total).toBe(1);
  });

  it("a file whose name is not UTF-8 is listed with its bytes escaped; the rest of the folder is indexed", async () => {
    const { corpus, db } = fresh({ "en/a.md": "# Alpha" });
    writeFileSync(Buffer.from(`${join(corpus, "en")}/caf\xe9 latin1.md`, "latin1"), "# Latin-1 name");
    mkdirSync(Buffer.from(`${corpus}/dir\xff`, "latin1"));
    const report = await indexOnce(corpus, db);
    expect(report.skippedFiles).toEqual([
      { path: "dir\\xFF", reason: "name-not-utf8" },
      { path: "en/caf\\xE9 latin1.md", reason: "name-not-utf8" },
    ]);
    expect(report.documents.total).toBe(1);
  });
});

describe("bounded cost of a run", () => {
  // Linear paths: each shape is indexed at 10,000 and at 100,000 characters in the same test, and
  // ten times the input may cost ten times as much, and noise; a quadratic step would cost a hundred
  // times. No absolute limit: a pass must not depend on how busy the machine is.
  const shapes = (n: number): Record<string, string> => {
    const words = "the quick brown fox cancels a subscription, Kündigung, and uploads files".split(" ");
    return {
      "prose.md": `# Prose\n\n${Array.from({ length: n / 6 }, (_, i) => words[i % words.length]).join(" ")}`,
      "one-word.md": `# Word\n\n${"x".repeat(n)}`,
      "one-line.txt": "word ".repeat(n / 5),
      "cjk.md": `# 中文\n\n${"同步客户端会在后台上传文件".repeat(n / 13)}`,
      "headings.md": Array.from({ length: n / 20 }, (_, k) => `${"#".repeat(1 + (k % 6))} h${k}\n\nt${k}`).join("\n\n"),
      "front-matter.md": `---\ntitle: "${"t".repeat(n)}"\n---\nbody`,
      "open-fence.md": `# Fence\n\n\`\`\`\n${"code line\n".repeat(n / 10)}`,
    };
  };

  async function indexTimed(name: string, text: string): Promise<number> {
    const { corpus, db } = fresh({ [name]: text });
    // One thread at both sizes: `auto` moves a run of 10,000 texts or more to a worker thread, so
    // 100,000 characters of headings (5,000 passages) would be timed on another path than 10,000,
    // and on a busy machine a worker thread waits for a core: that measures the load, not growth.
    const engine = Engine.open(db, { create: true, indexWorker: "never" });
    try {
      const started = performance.now();
      const report = await engine.index(corpus);
      const ms = performance.now() - started;
      expect(report.documents.total, name).toBe(1);
      return ms;
    } finally {
      engine.close();
    }
  }

  it.each(Object.keys(shapes(10)))(
    "a document of any shape indexes in time linear in its length: %s",
    async (name) => {
      await indexTimed(name, shapes(1_000)[name]!); // loads the analyzer, stemmers and embedder once
      // The fastest of a few runs each: a busy machine only ever adds time, so the minimum is the
      // cost. Ten times the text costs about ten times the time when linear (headings.md, the
      // steepest shape, about 12 times on a quiet machine) and a hundred times when quadratic; the
      // bound sits between them.
      const fastest = async (size: number, runs: number) => {
        let best = Number.POSITIVE_INFINITY;
        for (let i = 0; i < runs; i++) best = Math.min(best, await indexTimed(name, shapes(size)[name]!));
        return best;
      };
      const short = await fastest(10_000, 3);
      const long = await fastest(100_000, 2);
      expect(long, `100,000 characters took ${long.toFixed(0)} ms, 10,000 took ${short.toFixed(0)} ms`).toBeLessThan(
        Math.max(45 * short, 500),
      );
    },
    300_000,
  );

  it("a text file over 500 MiB is refused by its size, before it is read", async () => {
    const { corpus, db } = fresh({ "en/a.md": "# A" });
    writeFileSync(join(corpus, "en/huge.md"), "");
    truncateSync(join(corpus, "en/huge.md"), 501 * 1024 * 1024);
    const jsonl = join(dir, "huge.jsonl");
    writeFileSync(jsonl, "");
    truncateSync(jsonl, 600 * 1024 * 1024);
    const engine = Engine.open(db, { create: true });
    try {
      await expect(engine.index(corpus)).rejects.toMatchObject({
        code: "UNREADABLE",
        message: expect.stringMatching(/en\/huge\.md: 501 MiB; the engine reads text files of up to 500 MiB \(split it\)$/),
      });
      await expect(engine.index(jsonl)).rejects.toThrow(/huge\.jsonl: 600 MiB; the engine reads text files of up to 500 MiB/);
    } finally {
      engine.close();
    }
  });
});

describe("embedder changes", () => {
  it("re-embeds every passage with a clear message and never mixes dimensions", async () => {
    const { corpus, db } = fresh();
    const first = Engine.open(db, { create: true });
    await first.index(corpus);
    first.close();

    const wide = new HashedNgramEmbedder({ dimensions: 512 });
    const second = Engine.open(db, { embedder: wide });
    try {
      await expect(second.vsearch("cancel")).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
        message: expect.stringContaining("vectors were made by offline/hashed-char-ngram-v2-384 (384 dimensions)"),
      });
      const messages: string[] = [];
      const report = await second.index(corpus, { onMessage: (m) => messages.push(m) });
      expect(messages.join("\n")).toMatch(
        /embedder changed \(offline\/hashed-char-ngram-v2-384, 384 dimensions → offline\/hashed-char-ngram-v2-512\): re-embedding \d+ stored passages/,
      );
      expect(report.embeddings).toMatchObject({ embedder: "offline/hashed-char-ngram-v2-512", dimensions: 512 });
      expect((await second.vsearch("cancel subscription")).results[0]!.docId).toBe("en/billing.md");
      expect(second.fingerprint()).toMatchObject({ embedder: "offline/hashed-char-ngram-v2-512", dimensions: 512 });
    } finally {
      second.close();
    }
    // Switching back reuses the cached 384-dimensional vectors instead of embedding again.
    const back = Engine.open(db);
    try {
      const report = await back.index(corpus);
      expect(report.embeddings.computed).toBe(0);
      expect((await back.vsearch("cancel subscription")).results[0]!.docId).toBe("en/billing.md");
    } finally {
      back.close();
    }
  });
});

describe("documents without a body", () => {
  it("are still findable by their title (a heading-only file, an empty JSONL text)", async () => {
    const { corpus, db } = fresh({ "en/refunds.md": "# Refund policy\n", "en/other.md": "# Other\n\nSomething else entirely." });
    const engine = Engine.open(db, { create: true });
    try {
      const report = await engine.index(corpus);
      expect(report.passages.total).toBe(2);
      expect(engine.search("refund").results.map((h) => h.docId)).toEqual(["en/refunds.md"]);
      const file = join(dir, "titles.jsonl");
      writeFileSync(file, `${JSON.stringify({ _id: "t1", title: "Warranty terms", text: "" })}\n`);
      await engine.index(file);
      expect(engine.search("warranty").results.map((h) => h.docId)).toEqual(["t1"]);
    } finally {
      engine.close();
    }
  });
});

describe("JSONL corpora", () => {
  it("indexes BEIR-style records with _id or id, detecting language", async () => {
    const file = join(dir, "corpus.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ _id: "doc-1", title: "Cancel a plan", text: "You can cancel the plan at any time from the settings page." }),
        JSON.stringify({ id: 2, title: "Kündigung", text: "Sie können das Abonnement jederzeit kündigen und die Daten behalten." }),
        "",
        JSON.stringify({ _id: "doc-3", title: "", text: "Un texte sans titre pour la résiliation de votre abonnement." }),
      ].join("\n"),
    );
    const engine = Engine.open(join(dir, "jsonl.db"), { create: true });
    try {
      const report = await engine.index(file);
      expect(report.collection).toBe("corpus");
      expect(report.documents.added).toBe(3);
      const hit = engine.search("kündigen").results[0]!;
      expect(hit).toMatchObject({ docId: "2", language: "de", title: "Kündigung" });
      expect(engine.search("résiliation").results[0]).toMatchObject({ docId: "doc-3", language: "fr", title: "" });
    } finally {
      engine.close();
    }
  });

  it("never makes a record id searchable text; a folder keeps path search", async () => {
    const file = join(dir, "ids.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ _id: "1400", title: "", text: "Boundary layers on a flat plate in supersonic flow." }),
        JSON.stringify({ _id: "report-p05", title: "Wind tunnel", text: "Measurements of drag at low speed." }),
        JSON.stringify({ _id: "memo-p05", title: "Heat transfer", text: "Cooling of turbine blades." }),
      ].join("\n"),
    );
    const engine = Engine.open(join(dir, "ids.db"), { create: true });
    try {
      await engine.index(file);
      expect(engine.search("1400").results).toEqual([]);
      expect(engine.search("p 05").results).toEqual([]);
      expect(engine.search("p05").results).toEqual([]);
      expect(engine.search("supersonic").results.map((h) => h.docId)).toEqual(["1400"]);
      const { corpus } = fresh({ "en/dec-0054.md": "# Trash retention\n\nDeleted files are kept for 30 days." });
      await engine.index(corpus);
      expect(engine.search("dec 0054").results.map((h) => h.docId)).toEqual(["en/dec-0054.md"]);
    } finally {
      engine.close();
    }
  });

  it("names the file and line of a malformed record", async () => {
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, `${JSON.stringify({ _id: "a", text: "x" })}\n{"_id": "b", "text": 5}\n`);
    const engine = Engine.open(join(dir, "bad.db"), { create: true });
    try {
      await expect(engine.index(file)).rejects.toThrow(`${file}:2: "text" must be a string`);
      writeFileSync(file, `${JSON.stringify({ _id: "a", text: "x" })}\n{not json\n`);
      await expect(engine.index(file)).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2: not valid JSON`));
      writeFileSync(file, `${JSON.stringify({ _id: "a", text: "x" })}\n${JSON.stringify({ _id: "a", text: "y" })}\n`);
      await expect(engine.index(file)).rejects.toThrow(`${file}:2: id "a" repeats the record on line 1`);
    } finally {
      engine.close();
    }
  });
});

describe("opening indexes", () => {
  it("refuses a newer schema, a foreign SQLite file, a non-SQLite file and a missing index", () => {
    const newer = join(dir, "newer.db");
    copyFileSync(join(dir, "index1.db"), newer);
    const conn = new Database(newer);
    conn.pragma("user_version = 99");
    conn.close();
    expect(() => Engine.open(newer)).toThrow(/written by index schema version 99; this engine reads up to version 2/);

    const foreign = join(dir, "foreign.db");
    const f = new Database(foreign);
    f.exec("CREATE TABLE t (x)");
    f.close();
    expect(() => Engine.open(foreign)).toThrow(/a SQLite database, but not an index of this engine/);

    const text = join(dir, "text.db");
    writeFileSync(text, "this is not a database at all, just some text that is long enough to have a header ".repeat(20));
    expect(() => Engine.open(text)).toThrow(EngineError);
    expect(() => Engine.open(text)).toThrow(/not a SQLite database/);
    expect(readFileSync(text, "utf8")).toMatch(/^this is not a database/);

    expect(() => Engine.open(join(dir, "missing.db"))).toThrow(/no index here; build one with `pnpm engine index/);
  });

  it("rejects a misspelled parameter key, naming the closest one, instead of running on the default", () => {
    const db = join(dir, "params.db");
    expect(() => Engine.open(db, { create: true, hybrid: { rrfk: 10 } as never })).toThrow(
      /Unknown hybrid option "rrfk"; did you mean "rrfK"\?/,
    );
    expect(() => Engine.open(db, { create: true, chunker: { targetchars: 500 } as never })).toThrow(
      /Unknown chunker option "targetchars"; did you mean "targetChars"\?/,
    );
    expect(() => resolveParameters({ hybrid: { rrfK: -1 } })).toThrow(RangeError);
    expect(resolveParameters({ hybrid: { vectorWeight: 1 } }).hybrid).toMatchObject({ rrfK: 60, vectorWeight: 1 });
  });

  it("reports a write lock held by another process as DB_LOCKED", async () => {
    const { corpus, db } = fresh();
    const engine = Engine.open(db, { create: true, busyTimeoutMs: 100 });
    try {
      await engine.index(corpus);
      const before = snapshot(db);
      const holder = new Database(db);
      holder.exec("BEGIN IMMEDIATE");
      writeFileSync(join(corpus, "en/billing.md"), "# Changed\n\nchanged");
      await expect(engine.index(corpus)).rejects.toMatchObject({ code: "DB_LOCKED" });
      // Readers are not blocked by a writer in WAL mode.
      expect(engine.search("uploads").results.length).toBeGreaterThan(0);
      holder.exec("ROLLBACK");
      holder.close();
      expect(snapshot(db)).toBe(before);
    } finally {
      engine.close();
    }
  });

  it("holds the write lock for the whole run: another writer waits for it, readers do not", async () => {
    const { corpus, db } = fresh();
    let release: () => void = () => {};
    const embedder = new HashedNgramEmbedder();
    const slow: EmbeddingModelV3 = {
      ...embedder,
      specificationVersion: "v3",
      provider: embedder.provider,
      modelId: embedder.modelId,
      maxEmbeddingsPerCall: embedder.maxEmbeddingsPerCall,
      supportsParallelCalls: embedder.supportsParallelCalls,
      // The run is in its embedding step, after it compared the source with the index.
      doEmbed: async (options) => {
        await new Promise<void>((r) => (release = r));
        return embedder.doEmbed(options);
      },
    };
    const first = Engine.open(db, { create: true });
    await first.index(corpus);
    const running = Engine.open(db, { embedder: slow });
    const other = Engine.open(db, { busyTimeoutMs: 100 });
    try {
      writeFileSync(join(corpus, "en/billing.md"), "# Changed\n\nchanged");
      const run = running.index(corpus);
      await new Promise((r) => setTimeout(r, 50));
      await expect(other.index(corpus)).rejects.toMatchObject({
        code: "DB_LOCKED",
        message: expect.stringMatching(/locked by another process/),
      });
      await expect(running.index(corpus)).rejects.toMatchObject({
        code: "DB_LOCKED",
        message: expect.stringMatching(/already in progress on this engine/),
      });
      expect(first.search("cancel").results[0]!.docId).toBe("en/billing.md");
      release();
      await run;
      expect(first.search("changed").results[0]!.docId).toBe("en/billing.md");
    } finally {
      for (const e of [first, running, other]) e.close();
    }
  });

  it("refuses to write into a file that was removed since it was opened", async () => {
    const { corpus, db } = fresh();
    const first = Engine.open(db, { create: true });
    first.close();
    const engine = Engine.open(db, { create: true });
    try {
      for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      await expect(engine.index(corpus)).rejects.toMatchObject({
        code: "DB_LOCKED",
        message: expect.stringMatching(
          /the index file was removed or replaced by another process while this run waited; nothing was written/,
        ),
      });
    } finally {
      engine.close();
    }
  });
});
