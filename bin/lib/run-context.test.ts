import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../../helpers/dataset.js";
import { loadAskCases, loadQueries, REPO_ROOT } from "../../helpers/fixture-files.js";
import { evaliteSetup, fixtureInfo, gitInfo } from "./run-context.js";

const work = mkdtempSync(join(tmpdir(), "run-context-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function beirFolder(name: string, qrels: string): string {
  const folder = join(work, name);
  mkdirSync(join(folder, "qrels"), { recursive: true });
  writeFileSync(join(folder, "corpus.jsonl"), `${JSON.stringify({ _id: "d1", title: "T", text: "solar power" })}\n`);
  writeFileSync(join(folder, "queries.jsonl"), `${JSON.stringify({ _id: "q1", text: "solar" })}\n`);
  writeFileSync(join(folder, "qrels", "test.tsv"), qrels);
  return folder;
}

describe("where a run comes from", () => {
  it("git: the commit and whether tracked files changed; nulls outside a repository", () => {
    const git = gitInfo(REPO_ROOT);
    expect(git.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(typeof git.dirty).toBe("boolean");
    expect(gitInfo(work)).toEqual({ commit: null, dirty: null });
  });

  it("fixtures: their version, counts and a hash over every JSON fixture", () => {
    const info = fixtureInfo(loadDataset({}));
    expect(info).toEqual({
      dataset: "fixtures",
      kind: "fixtures",
      version: expect.any(Number),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      queries: loadQueries().length,
      judgedQueries: 58,
      askCases: loadAskCases().length,
    });
    expect(fixtureInfo(loadDataset({})).hash).toBe(info.hash);
  });

  it("a BEIR folder: a hash over its queries and judgments (the corpus is in the index fingerprint)", () => {
    const a = fixtureInfo(loadDataset({ EVAL_DATASET: beirFolder("a", "query-id\tcorpus-id\tscore\nq1\td1\t1\n") }));
    expect(a).toMatchObject({ dataset: "a", kind: "beir", version: null, queries: 1, judgedQueries: 1, askCases: null });
    const b = fixtureInfo(loadDataset({ EVAL_DATASET: beirFolder("b", "query-id\tcorpus-id\tscore\nq1\td1\t2\n") }));
    expect(b.hash).not.toBe(a.hash);
    writeFileSync(join(work, "a", "corpus.jsonl"), `${JSON.stringify({ _id: "d1", title: "T", text: "wind power" })}\n`);
    expect(fixtureInfo(loadDataset({ EVAL_DATASET: join(work, "a") })).hash).toBe(a.hash);
  });
});

describe("Evalite's configuration, as Evalite loads it", () => {
  it("the suite's: no threshold (the gate's floors decide), SQLite storage at EVALITE_STORAGE", async () => {
    const setup = await evaliteSetup(REPO_ROOT);
    expect(setup.threshold).toBeNull();
    const db = join(work, "storage", "evalite.db");
    const before = process.env.EVALITE_STORAGE;
    process.env.EVALITE_STORAGE = db;
    try {
      const storage = await setup.openStorage();
      expect((await storage.runs.create({ runType: "full" })).id).toBe(1);
      await storage.close();
    } finally {
      if (before === undefined) delete process.env.EVALITE_STORAGE;
      else process.env.EVALITE_STORAGE = before;
    }
    expect(existsSync(db)).toBe(true);
  });

  it("no config: no threshold and Evalite's default, in-memory storage", async () => {
    const setup = await evaliteSetup(work);
    expect(setup.threshold).toBeNull();
    const storage = await setup.openStorage();
    await storage.runs.create({ runType: "full" });
    expect(await storage.runs.getMany()).toHaveLength(1);
  });

  it("a configured threshold is read (pnpm eval reports it, not applying it)", async () => {
    const dir = join(work, "threshold");
    mkdirSync(dir);
    writeFileSync(join(dir, "evalite.config.mjs"), "export default { scoreThreshold: 60 };\n");
    expect((await evaliteSetup(dir)).threshold).toBe(60);
  });

  it("a config that does not load is one line, not Evalite's stack trace and exit 1", async () => {
    const dir = join(work, "broken");
    mkdirSync(dir);
    writeFileSync(join(dir, "evalite.config.mjs"), 'throw new Error("no storage here\\nsecond line");\n');
    await expect(evaliteSetup(dir)).rejects.toThrow(/^evalite\.config\.mjs does not load: no storage here$/);
  });
});
