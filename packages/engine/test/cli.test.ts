/**
 * `pnpm engine`, in process through its `main(argv, io)` (the compiled CLI itself is spawned in
 * test/compiled-clis.test.ts). Paths are absolute: the command runs in the test's own folder.
 */
import Database from "better-sqlite3";
import { readFileSync, writeFileSync, existsSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { Engine } from "../src/index.js";
import { SMALL_CORPUS, tempDir, writeFiles } from "./helpers.js";

const dir = tempDir("engine-cli-");
const corpus = join(dir, "corpus");
const db = join(dir, "index.db");
/** A path in the test's folder, as a user would pass it. */
const at = (name: string): string => join(dir, name);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** One command line through main, offline (no model variables), output collected. */
async function engine(...args: string[]): Promise<Outcome> {
  const r = { code: 0, stdout: "", stderr: "" };
  r.code = await main(args, { stdout: (s) => (r.stdout += s), stderr: (s) => (r.stderr += s), env: {} });
  return r;
}

/** The CLI's promise for a user's mistake: one line on stderr, exit 2, no stack trace. */
function expectOneLineError(r: Outcome, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^engine: .+\n$/);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout).toBe("");
}

beforeAll(async () => {
  writeFiles(corpus, SMALL_CORPUS);
  const r = await engine("index", corpus, "--db", db);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
});

describe("engine CLI", () => {
  it("indexes a folder and answers every tier, as text and as JSON", async () => {
    for (const tier of ["fast", "balanced", "thorough"]) {
      const r = await engine("query", "cancel subscription", "--db", db, "--tier", tier, "--limit", "3");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^ 1\. en\/billing\.md /);
      // BM25 alone returns only documents that share a term; the vector tiers fill the limit.
      expect(r.stdout).toMatch(tier === "fast" ? /\(fast, [1-3] results/ : new RegExp(`\\(${tier}, 3 results`));
    }
    const json = JSON.parse((await engine("search", "DEC-0054", "--db", db, "--json")).stdout);
    expect(json.results[0].docId).toBe("en/decisions/dec-0054.md");
    expect(json.results[0].snippet).toContain("keeps deleted files for 30 days");
    expect(json.trace[0].stage).toBe("bm25");
    expect(JSON.parse((await engine("vsearch", "subscripton", "--db", db, "--json")).stdout).mode).toBe("vsearch");
  });

  it("writes a TREC run file for a JSONL query batch at any tier", async () => {
    const queries = join(dir, "queries.jsonl");
    writeFileSync(
      queries,
      `${JSON.stringify({ _id: "q1", text: "cancel subscription" })}\n${JSON.stringify({ id: "q2", text: "DEC-0054" })}\n`,
    );
    for (const tier of ["fast", "balanced", "thorough"]) {
      const out = join(dir, `run-${tier}.txt`);
      const r = await engine("run", queries, "--db", db, "--tier", tier, "--limit", "5", "--out", out);
      expect(r.code).toBe(0);
      const lines = readFileSync(out, "utf8").trim().split("\n");
      const q1 = lines.filter((l) => l.startsWith("q1 "));
      const q2 = lines.filter((l) => l.startsWith("q2 "));
      if (tier !== "fast") expect(lines).toHaveLength(10);
      expect(q1[0]).toMatch(new RegExp(`^q1 Q0 en/billing\\.md 1 \\S+ hybrid-${tier}$`));
      expect(q2[0]).toMatch(/^q2 Q0 en\/decisions\/dec-0054\.md 1 /);
      for (const topic of [q1, q2]) {
        expect(topic.map((l) => Number(l.split(" ")[3]))).toEqual(topic.map((_, i) => i + 1));
        const scores = topic.map((l) => Number(l.split(" ")[4]));
        expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      }
    }
    const bm25 = await engine("run", queries, "--db", db, "--mode", "search", "--tag", "mine");
    expect(bm25.stdout.split("\n")[0]).toMatch(/ mine$/);
  });

  it("prints stats with the fingerprint", async () => {
    const r = await engine("stats", "--db", db);
    expect(r.stdout).toMatch(/collections: corpus/);
    expect(r.stdout).toMatch(/embedder: {4}offline\/hashed-char-ngram-v2-384 \(384 dimensions\)/);
    expect(r.stdout).toMatch(/corpus hash: [0-9a-f]{64}/);
  });

  it("lists what it skipped, one line per reason", async () => {
    const mixed = join(dir, "mixed");
    writeFiles(mixed, { "a.md": "# A", "b.png": "png", "c.pdf": "pdf" });
    symlinkSync(join(mixed, "gone.md"), join(mixed, "dangling.md"));
    writeFileSync(Buffer.from(`${mixed}/caf\xe9.md`, "latin1"), "# latin-1 name");
    const r = await engine("index", mixed, "--db", join(dir, "mixed.db"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "  skipped 2 (not Markdown or text): b.png, c.pdf\n" +
        "  skipped 1 (name is not valid UTF-8): caf\\xE9.md\n" +
        "  skipped 1 (dangling symbolic link): dangling.md\n",
    );
  });

  it("--as-of and --include-superseded replay validity; bad validity is one line, exit 2", async () => {
    const prices = join(dir, "prices");
    writeFiles(prices, {
      "old.md": "---\nvalidFrom: 2023-01-01\n---\n# Plus price\n\nThe Plus plan costs 4.99 euros per month.",
      "new.md": "---\nvalidFrom: 2024-09-01\nsupersedes: old.md\n---\n# Plus price\n\nThe Plus plan costs 5.99 euros per month.",
      // Other documents, so that the question's words are rare enough to count as evidence.
      "sync.md": "# Sync\n\nThe client uploads changes in the background.",
      "trash.md": "# Trash\n\nDeleted files stay in the trash for 30 days.",
      "share.md": "# Sharing\n\nLinks can expire after a week.",
    });
    const pricesDb = join(dir, "prices.db");
    expect((await engine("index", prices, "--db", pricesDb)).code).toBe(0);
    const ids = (r: Outcome): string[] =>
      (JSON.parse(r.stdout) as { results: Array<{ docId: string }> }).results
        .map((h) => h.docId)
        .filter((id) => id === "old.md" || id === "new.md");
    expect(ids(await engine("search", "Plus plan costs", "--db", pricesDb, "--json"))).toEqual(["new.md"]);
    expect(ids(await engine("query", "Plus plan costs", "--db", pricesDb, "--as-of", "2024-08-31T23:59:59Z", "--json"))).toEqual([
      "old.md",
    ]);
    const marked = await engine("search", "Plus plan costs", "--db", pricesDb, "--include-superseded");
    expect(marked.code).toBe(0);
    expect(marked.stdout).toMatch(/old\.md .*\[STALE: superseded by new\.md\]/);
    const asked = await engine("ask", "How much does the Plus plan cost per month?", "--db", pricesDb, "--as-of", "2024-01-01", "--json");
    expect(JSON.parse(asked.stdout).citations.map((c: { docId: string }) => c.docId)).toEqual(["old.md"]);
    expectOneLineError(
      await engine("search", "x", "--db", pricesDb, "--as-of", "2024-02-30"),
      /--as-of must be a date: .*UTC.*got "2024-02-30"/,
    );
    expectOneLineError(await engine("stats", "--db", pricesDb, "--as-of", "2024-01-01"), /--as-of does not apply to "stats"/);
    writeFiles(prices, { "loop.md": "---\nsupersedes: loop.md\n---\n# Loop\n\ntext" });
    expectOneLineError(await engine("index", prices, "--db", pricesDb), /prices\/loop\.md:2: supersedes names the document itself/);
    expect(ids(await engine("search", "Plus plan costs", "--db", pricesDb, "--json"))).toEqual(["new.md"]);
  });

  describe("errors: one line, exit 2, no stack, index untouched", () => {
    const untouched = (): string => readFileSync(db).toString("base64");

    it.each([
      ["missing folder", ["index", at("no-such-folder"), "--db", at("x.db")], /no-such-folder: no such folder or file/],
      ["missing index", ["search", "x", "--db", at("missing.db")], /missing\.db: no index here/],
      ["no --db", ["search", "x"], /"search" needs --db <file>/],
      ["unknown flag", ["search", "x", "--db", at("index.db"), "--limt", "3"], /Unknown option '--limt'/],
      ["flag for another command", ["search", "x", "--db", at("index.db"), "--tier", "fast"], /--tier does not apply to "search"/],
      ["bad limit", ["search", "x", "--db", at("index.db"), "--limit", "ten"], /--limit must be an integer from 1 to 10000, got "ten"/],
      ["bad tier", ["query", "x", "--db", at("index.db"), "--tier", "slow"], /--tier must be one of fast, balanced, thorough, got "slow"/],
      ["unknown command", ["serach", "x", "--db", at("index.db")], /unknown command "serach"/],
      [
        "unknown collection",
        ["search", "x", "--db", at("index.db"), "--collection", "corpsu"],
        /Unknown collection "corpsu"; this index has "corpus"/,
      ],
      ["two positionals", ["search", "a", "b", "--db", at("index.db")], /takes exactly one argument \(quote a query with spaces\)/],
      ["index as folder", ["search", "x", "--db", at("corpus")], /corpus: is a folder/],
      ["not a corpus", ["index", at("index.db"), "--db", at("other.db")], /expected a folder of Markdown\/text files or a \.jsonl corpus/],
    ])("%s", async (_name, args, pattern) => {
      const before = untouched();
      expectOneLineError(await engine(...args), pattern);
      expect(untouched()).toBe(before);
    });

    it("binary and invalid UTF-8 files", async () => {
      const before = untouched();
      const bad = join(dir, "bad");
      writeFiles(bad, { "ok.md": "# ok\n\nfine", "pic.md": Buffer.from([0x47, 0x49, 0x46, 0x00, 0x01]) });
      expectOneLineError(await engine("index", bad, "--db", db), /bad\/pic\.md: binary file/);
      writeFiles(bad, { "pic.md": "# ok", "latin1.txt": Buffer.from("caf\xe9", "latin1") });
      expectOneLineError(await engine("index", bad, "--db", db), /bad\/latin1\.txt: invalid UTF-8 at byte 3/);
      expect(untouched()).toBe(before);
    });

    it("broken front matter", async () => {
      const before = untouched();
      const broken = join(dir, "broken-front-matter");
      writeFiles(broken, { "ok.md": "# ok\n\nfine", "guide.md": "---\ntitle: [unclosed\n---\n# Guide\n" });
      expectOneLineError(await engine("index", broken, "--db", db), /broken-front-matter\/guide\.md:2: front matter is not valid YAML: /);
      expect(untouched()).toBe(before);
    });

    it("a database from a newer schema", async () => {
      const newer = join(dir, "newer.db");
      writeFileSync(newer, readFileSync(db));
      const conn = new Database(newer);
      conn.pragma("user_version = 7");
      conn.close();
      expectOneLineError(
        await engine("search", "x", "--db", newer),
        /written by index schema version 7; this engine reads up to version 2/,
      );
      expectOneLineError(await engine("index", corpus, "--db", newer), /schema version 7/);
    });

    it("a locked database", async () => {
      const holder = new Database(db);
      holder.exec("BEGIN IMMEDIATE");
      try {
        writeFileSync(join(corpus, "en/extra.md"), "# extra\n\nmore");
        expectOneLineError(await engine("index", corpus, "--db", db), /index\.db: locked by another process \(SQLITE_BUSY\)/);
      } finally {
        holder.exec("ROLLBACK");
        holder.close();
      }
      expect(existsSync(db)).toBe(true);
    });

    it("quotes at most 200 characters of the input", async () => {
      const long = "x".repeat(100_000);
      const limit = await engine("search", "x", "--db", db, "--limit", long);
      expect(limit.code).toBe(2);
      expect(limit.stderr).toBe(`engine: --limit must be an integer from 1 to 10000, got "${"x".repeat(200)}"… (100000 characters)\n`);
      expectOneLineError(await engine(long, "--db", db), /^engine: unknown command "x{200}"… \(100000 characters\); expected one of/);
      const flag = await engine("search", "x", "--db", db, `--${long}`);
      expect(flag.code).toBe(2);
      expect(flag.stderr.length).toBeLessThan(400);
      const none = await engine("search", `${long} zzz`, "--db", db);
      expect(none.code).toBe(0);
      expect(none.stdout).toMatch(/^no results for "x{200}"… \(100004 characters\) \(search, /);
    });

    it("a command named like a property every object has is an unknown command", async () => {
      for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
        expectOneLineError(
          await engine(name, "x", "--db", db),
          new RegExp(`^engine: unknown command "${name}"; expected one of index, search`),
        );
      }
    });

    it("a malformed query batch names file and line", async () => {
      const queries = join(dir, "bad-queries.jsonl");
      writeFileSync(queries, `${JSON.stringify({ _id: "q1", text: "x" })}\n${JSON.stringify({ _id: "q2" })}\n`);
      expectOneLineError(await engine("run", queries, "--db", db), /bad-queries\.jsonl:2: missing "text"/);
    });

    it("a missing query or question file, and --out naming a folder, are input errors, not internal ones", async () => {
      const missing = at("no-such.jsonl");
      expect(await engine("run", missing, "--db", db)).toEqual({ code: 2, stdout: "", stderr: `engine: ${missing}: no such file\n` });
      expect(await engine("ask", "--batch", missing, "--db", db)).toEqual({
        code: 2,
        stdout: "",
        stderr: `engine: ${missing}: no such file\n`,
      });
      expect(await engine("run", corpus, "--db", db)).toEqual({
        code: 2,
        stdout: "",
        stderr: `engine: ${corpus}: cannot read (a folder, expected a JSONL file)\n`,
      });
      const queries = join(dir, "ok-queries.jsonl");
      writeFileSync(queries, `${JSON.stringify({ _id: "q1", text: "x" })}\n`);
      expectOneLineError(
        await engine("run", queries, "--db", db, "--out", corpus),
        /--out \S+\/corpus: is a folder; give the path of a file/,
      );
    });

    it("a failed first index run leaves no empty index file behind", async () => {
      expectOneLineError(await engine("index", at("no-such-folder"), "--db", at("fresh.db")), /no-such-folder: no such folder or file/);
      const bad = join(dir, "bad-first");
      writeFiles(bad, { "latin1.txt": Buffer.from("caf\xe9", "latin1") });
      expectOneLineError(await engine("index", bad, "--db", at("fresh.db")), /invalid UTF-8/);
      for (const f of ["fresh.db", "fresh.db-wal", "fresh.db-shm"]) expect(existsSync(join(dir, f)), f).toBe(false);
    });

    it("a failed run never removes an index file it did not create, even one no run has finished on", async () => {
      Engine.open(join(dir, "theirs.db"), { create: true }).close();
      expectOneLineError(await engine("index", at("no-such-folder"), "--db", at("theirs.db")), /no-such-folder: no such folder or file/);
      expect(existsSync(join(dir, "theirs.db"))).toBe(true);
      expectOneLineError(
        await engine("search", "x", "--db", at("theirs.db")),
        /theirs\.db: the index is incomplete: no index run has finished on it/,
      );
    });
  });
});
