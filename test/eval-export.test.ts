/**
 * `pnpm eval:export` in process (bin/eval-export.ts's main): which run it takes and says it took,
 * the pages it writes, and its one-line errors. The exported UI itself is checked in a browser
 * (test/ui/evalite-ui.test.ts).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-export.js";

const scratch = mkdtempSync(join(tmpdir(), "eval-export-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function exportWith(argv: string[], storage: string) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) }, { EVALITE_STORAGE: storage });
  return { code, stdout, stderr };
}

/** A storage with a full run (two suites) and then a watch-mode partial run (one suite). */
async function storageWithRuns(file: string): Promise<void> {
  const storage = await createSqliteStorage(file);
  const suite = async (runId: number, name: string, cases: number) => {
    const s = await storage.suites.create({ runId, name, filepath: `evals/${name}.eval.ts` });
    await storage.suites.update({ id: s.id, status: "success" });
    for (let i = 0; i < cases; i++)
      await storage.evals.create({
        suiteId: s.id,
        duration: 1,
        input: `q${i}`,
        output: "o",
        expected: null,
        order: i,
        status: "success",
        renderedColumns: [],
      });
  };
  const full = await storage.runs.create({ runType: "full" });
  await suite(full.id, "Search", 2);
  await suite(full.id, "Matrix", 1);
  const partial = await storage.runs.create({ runType: "partial" });
  await suite(partial.id, "Search", 2);
  await storage.close();
}

describe("pnpm eval:export", () => {
  it("exports the newest run, a watch-mode partial one too, says so, and writes a page at every route", async () => {
    const file = join(scratch, "evalite.db");
    await storageWithRuns(file);
    const out = join(scratch, "newest");
    const r = await exportWith(["--output", out], file);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `eval:export: run #2 (a partial run: watch mode re-ran 1 suite, only those are in it; the latest full run is #1: --runId 1) → ${out}/`,
    );
    expect(r.stdout).not.toContain("open index.html");
    for (const page of ["index.html", "suite/Search/index.html", "suite/Search/eval/0/index.html", "suite/Search/eval/1/index.html"])
      expect(existsSync(join(out, page)), page).toBe(true);

    const full = join(scratch, "full");
    const f = await exportWith(["--runId", "1", "--output", full], file);
    expect(f.stdout).toContain(`eval:export: run #1 (a full run, 2 suites) → ${full}/`);
    expect(existsSync(join(full, "suite/Matrix/eval/0/index.html"))).toBe(true);
  });

  it("stops with one line when there is no storage, no such run, or a bad flag", async () => {
    expect(await exportWith([], "/no/such/evalite.db")).toEqual({
      code: 2,
      stdout: "",
      stderr: "eval:export: no Evalite storage at /no/such/evalite.db: run pnpm eval (or pnpm eval:watch) first\n",
    });
    const file = join(scratch, "evalite.db");
    expect((await exportWith(["--runId", "9"], file)).stderr).toBe(`eval:export: ${file} has no run 9\n`);
    expect((await exportWith(["--runId", "x"], file)).stderr).toBe('eval:export: --runId must be a positive integer, got "x"\n');
  });
});
