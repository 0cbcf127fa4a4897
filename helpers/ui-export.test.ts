import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { describeExportedRun, routeFolders } from "./ui-export.js";

const ROOT = join(import.meta.dirname, "..");

describe("routeFolders", () => {
  it("gives every suite page and every case page a folder, as the UI's routes spell them", () => {
    expect(
      routeFolders([
        { name: "Search (BM25)", evals: 2 },
        { name: "Matrix", evals: 0 },
      ]),
    ).toEqual([
      join("suite", "Search (BM25)"),
      join("suite", "Search (BM25)", "eval", "0"),
      join("suite", "Search (BM25)", "eval", "1"),
      join("suite", "Matrix"),
    ]);
  });
});

describe("describeExportedRun", () => {
  it("names a full run, and says a partial run holds only the re-run suites and which full run to ask for", () => {
    expect(describeExportedRun({ id: 3, runType: "full", suites: 24 }, 3, "out")).toBe(
      "eval:export: run #3 (a full run, 24 suites) → out/",
    );
    expect(describeExportedRun({ id: 5, runType: "partial", suites: 1 }, 3, "out")).toBe(
      "eval:export: run #5 (a partial run: watch mode re-ran 1 suite, only those are in it; the latest full run is #3: --runId 3) → out/",
    );
  });
});

describe("pnpm eval:export", () => {
  const run = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(join(ROOT, "node_modules/.bin/tsx"), ["bin/eval-export.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );

  it("stops with one line when there is no storage or a bad flag", async () => {
    const missing = await run([], { EVALITE_STORAGE: "/no/such/evalite.db" });
    expect(missing).toEqual({
      code: 2,
      stderr: "eval:export: no Evalite storage at /no/such/evalite.db: run pnpm eval (or pnpm eval:watch) first\n",
    });
    const bad = await run(["--runId", "x"], {});
    expect(bad).toEqual({ code: 2, stderr: 'eval:export: --runId must be a positive integer, got "x"\n' });
  }, 60_000);
});
