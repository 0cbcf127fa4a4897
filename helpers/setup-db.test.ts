import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildTempIndex, describeFingerprint, removeOnExit } from "./setup-db.js";
import { FIXTURES_DIR } from "./fixture-files.js";

const root = resolve(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "setup-db-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts a process that builds a temp index, prints its folder, then waits (or exits). */
function child(
  mode: "wait" | "exit",
): Promise<{ dirs: string[]; done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>; kill: (s: NodeJS.Signals) => void }> {
  const script = join(scratch, `child-${mode}-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    script,
    `import { buildTempIndex } from ${JSON.stringify(join(root, "helpers/setup-db.ts"))};
     const index = await buildTempIndex(${JSON.stringify(join(FIXTURES_DIR, "corpus"))}, { dataset: "fixtures", collection: "corpus" });
     const second = await buildTempIndex(${JSON.stringify(join(FIXTURES_DIR, "corpus"))}, { dataset: "fixtures", collection: "corpus" });
     console.log(index.dir + " " + second.dir);
     ${mode === "wait" ? "setInterval(() => {}, 1000);" : ""}`,
  );
  // node itself (not the tsx wrapper process) receives the signal, as in a real run.
  const proc = spawn(process.execPath, ["--import", "tsx", script], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.on("exit", (code, signal) => res({ code, signal })),
  );
  return new Promise((res, rej) => {
    let out = "";
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) res({ dirs: out.trim().split(" "), done, kill: (s) => proc.kill(s) });
    });
    proc.on("exit", () => rej(new Error(`child exited before printing its folder: ${out}`)));
  });
}

describe("buildTempIndex", () => {
  it("indexes the corpus into a fresh temp folder and fingerprints it", async () => {
    const index = await buildTempIndex(join(FIXTURES_DIR, "corpus"), { dataset: "fixtures", collection: "corpus" });
    try {
      expect(index.dir.startsWith(tmpdir())).toBe(true);
      expect(existsSync(index.dbPath)).toBe(true);
      expect(index.fingerprint).toMatchObject({
        dataset: "fixtures",
        collection: "corpus",
        schemaVersion: 2,
        embedder: "offline/hashed-char-ngram-v2-384",
        dimensions: 384,
      });
      expect(index.fingerprint.corpusHash).toMatch(/^[0-9a-f]{64}$/);
      expect(index.fingerprint.documents).toBeGreaterThanOrEqual(48);
      expect(describeFingerprint(index.fingerprint)).toMatch(
        /^index: dataset fixtures, \d+ documents \/ \d+ passages, corpus [0-9a-f]{12}, analyzer-v\d+\(/,
      );
      const again = await buildTempIndex(join(FIXTURES_DIR, "corpus"), { dataset: "fixtures", collection: "corpus" });
      expect(again.dir).not.toBe(index.dir);
      expect(again.fingerprint.corpusHash).toBe(index.fingerprint.corpusHash);
      again.remove();
      expect((await index.refresh()).documents.unchanged).toBe(index.fingerprint.documents);
    } finally {
      index.remove();
    }
    expect(existsSync(index.dir)).toBe(false);
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "removes every temp folder when the process gets %s, and ends as the signal would",
    async (signal) => {
      const c = await child("wait");
      expect(c.dirs).toHaveLength(2);
      for (const dir of c.dirs) expect(existsSync(dir)).toBe(true);
      c.kill(signal);
      const { signal: got } = await c.done;
      expect(got).toBe(signal);
      for (const dir of c.dirs) expect(existsSync(dir)).toBe(false);
    },
  );

  it("holds one exit, SIGINT and SIGTERM listener for all the folders it will remove, and none once they are gone", () => {
    const events = ["exit", "SIGINT", "SIGTERM"] as const;
    const counts = () => events.map((e) => process.listenerCount(e));
    // Another test file of this worker may hold a temp index already, and with it the listeners.
    const before = counts();
    const dirs = Array.from({ length: 12 }, (_, i) => mkdtempSync(join(scratch, `pending-${i}-`)));
    const removers = [removeOnExit(dirs[0]!)];
    const withOne = counts();
    for (const [i, n] of withOne.entries()) expect(n - before[i]!, events[i]).toBeLessThanOrEqual(1);
    expect(withOne.every((n) => n >= 1)).toBe(true);
    for (const dir of dirs.slice(1)) removers.push(removeOnExit(dir));
    expect(counts()).toEqual(withOne);
    removers[3]!();
    expect(existsSync(dirs[3]!)).toBe(false);
    expect(existsSync(dirs[4]!)).toBe(true);
    for (const remove of removers) remove();
    expect(dirs.filter((dir) => existsSync(dir))).toEqual([]);
    expect(events.map((e) => process.listenerCount(e))).toEqual(before);
  });

  it("stops on a corpus document with broken front matter, naming file and line (global setup prints it, exit 2)", async () => {
    const corpus = join(scratch, "broken-corpus");
    mkdirSync(join(corpus, "en"), { recursive: true });
    writeFileSync(join(corpus, "en/ok.md"), "# Fine\n\ntext");
    writeFileSync(join(corpus, "en/guide.md"), "---\ntitle: [unclosed\n---\n# Guide\n");
    await expect(buildTempIndex(corpus, { dataset: "fixtures", collection: "corpus" })).rejects.toMatchObject({
      name: "EngineError",
      code: "MALFORMED_FRONT_MATTER",
      message: expect.stringMatching(/broken-corpus\/en\/guide\.md:2: front matter is not valid YAML: /),
    });
    writeFileSync(join(corpus, "en/guide.md"), "---\ntitle: Never closed\n\n# Guide\n");
    await expect(buildTempIndex(corpus, { dataset: "fixtures", collection: "corpus" })).rejects.toThrow(
      /en\/guide\.md:1: front matter opened by --- is never closed/,
    );
  });

  it("removes every temp folder on a normal exit", async () => {
    const c = await child("exit");
    expect((await c.done).code).toBe(0);
    for (const dir of c.dirs) expect(existsSync(dir)).toBe(false);
  });
});
