import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { afterAll, describe, expect, it } from "vitest";
import { readRunShape, type SuiteShape, writeShapeEvals } from "./evalite-shape.js";

const dir = mkdtempSync(join(tmpdir(), "evalite-shape-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STARTED = { input: "", expected: "", output: null, duration: 0, status: "running", renderedColumns: [] } as const;

/** Writes a run through Evalite's own storage: per suite, cases with `scores[i]` scores and `traces[i]` traces. */
async function recordRun(file: string, suites: Array<{ name: string; path: string; scores: number[]; traces: number[] }>): Promise<void> {
  const storage = await createSqliteStorage(file);
  try {
    const run = await storage.runs.create({ runType: "full" });
    for (const s of suites) {
      const suite = await storage.suites.create({ runId: run.id, name: s.name, filepath: s.path });
      for (let order = 0; order < s.scores.length; order++) {
        const row = await storage.evals.create({ suiteId: suite.id, order, ...STARTED });
        for (let k = 0; k < s.scores[order]!; k++) await storage.scores.create({ evalId: row.id, name: `m${k}`, score: 1, metadata: {} });
        for (let t = 0; t < s.traces[order]!; t++)
          await storage.traces.create({ evalId: row.id, input: t, output: t, start: 0, end: 1, order: t + 1 });
      }
    }
  } finally {
    await storage.close();
  }
}

describe("the shape of an Evalite run", () => {
  it("is read from the latest run: files, suites in order, cases, the most scores a case got, traces of all cases", async () => {
    const file = join(dir, "two-runs.db");
    await recordRun(file, [{ name: "Old", path: "/x/evals/old.eval.ts", scores: [1], traces: [0] }]);
    await recordRun(file, [
      { name: "Search (BM25)", path: "/x/evals/search.eval.ts", scores: [4, 4, 3], traces: [2, 2, 1] },
      { name: "Tier order", path: "/x/evals/thoroughness.eval.ts", scores: [2], traces: [0] },
      { name: "Empty", path: "/x/evals/thoroughness.eval.ts", scores: [], traces: [] },
    ]);
    expect(readRunShape(file)).toEqual([
      { file: "search.eval.ts", suite: "Search (BM25)", cases: 3, scoresPerCase: 4, traces: 5 },
      { file: "thoroughness.eval.ts", suite: "Tier order", cases: 1, scoresPerCase: 2, traces: 0 },
      { file: "thoroughness.eval.ts", suite: "Empty", cases: 0, scoresPerCase: 0, traces: 0 },
    ]);
  });

  it("is refused, naming the file, when the storage holds no run", async () => {
    const file = join(dir, "empty.db");
    await (await createSqliteStorage(file)).close();
    expect(() => readRunShape(file)).toThrow(`${file}: Evalite's storage holds no run`);
  });

  it("becomes one trivial eval file per file: each suite with its cases and scorers, its traces spread over its cases", async () => {
    const shape: SuiteShape[] = [
      { file: "search.eval.ts", suite: 'Search "BM25"', cases: 3, scoresPerCase: 4, traces: 7 },
      { file: "cjk.eval.ts", suite: "CJK [ja]", cases: 2, scoresPerCase: 1, traces: 0 },
      { file: "cjk.eval.ts", suite: "CJK [ko]", cases: 5, scoresPerCase: 2, traces: 5 },
    ];
    const folder = join(dir, "shape");
    const written = writeShapeEvals(folder, shape);
    expect(written.map((f) => f.slice(folder.length + 1))).toEqual(["search.eval.ts", "cjk.eval.ts"]);
    expect(readdirSync(folder).sort()).toEqual(["cjk.eval.ts", "search.eval.ts"]);
    // Each file run against stand-ins for evalite() and reportTrace: what Evalite would get from it.
    const got: Array<{ file: string; suite: string; cases: number; scores: number[]; traces: number[] }> = [];
    for (const path of written) {
      const source = readFileSync(path, "utf8").replace(/^import .*$/gm, "");
      let traced = 0;
      const reportTrace = () => traced++;
      type Options = { data: Array<{ input: number }>; task: (i: number) => number; scorers: Array<{ scorer: () => number }> };
      const evalite = (suite: string, options: Options) => {
        const traces = options.data.map(({ input }) => {
          traced = 0;
          expect(options.task(input)).toBe(input);
          return traced;
        });
        const scores = options.data.map(() => options.scorers.reduce((sum, s) => sum + s.scorer(), 0));
        got.push({ file: path.slice(folder.length + 1), suite, cases: options.data.length, scores, traces });
      };
      new Function("evalite", "reportTrace", source)(evalite, reportTrace);
    }
    expect(got).toEqual([
      { file: "search.eval.ts", suite: 'Search "BM25" (shape)', cases: 3, scores: [4, 4, 4], traces: [2, 2, 3] },
      { file: "cjk.eval.ts", suite: "CJK [ja] (shape)", cases: 2, scores: [1, 1], traces: [0, 0] },
      { file: "cjk.eval.ts", suite: "CJK [ko] (shape)", cases: 5, scores: [2, 2, 2, 2, 2], traces: [1, 1, 1, 1, 1] },
    ]);
  });
});
