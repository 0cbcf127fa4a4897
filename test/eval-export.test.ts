/**
 * `pnpm eval:export` in process (bin/eval-export.ts's main): which run it takes and says it took,
 * the pages it writes, and its one-line errors. The exported UI itself is checked in a browser
 * (test/ui/evalite-ui.test.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-export.js";
import { serveCommand } from "../bin/lib/ui-export.js";

const havePython = spawnSync("python3", ["--version"]).status === 0;
if (!havePython) console.warn("\n⚠  SKIPPED serving an export with the documented command: python3 not found.\n");

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

  it.skipIf(!havePython)("the serve command it prints serves every page of the export, a deep link to a trace included", async () => {
    const file = join(scratch, "serve.db");
    await storageWithRuns(file);
    const out = join(scratch, "served");
    const r = await exportWith(["--output", out], file);
    expect(r.stdout).toContain(`e.g. ${serveCommand(out).join(" ")} (then open http://127.0.0.1:8080/)`);
    // Port 0: Python binds a port the system picks and prints it ("Serving HTTP on 127.0.0.1 port N …").
    const [command, ...args] = serveCommand(out, 0);
    const server = spawn(command!, args, { stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, PYTHONUNBUFFERED: "1" } });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let printed = "";
        server.stdout!.on("data", (d: Buffer) => {
          printed += d.toString();
          const port = / port (\d+) /.exec(printed)?.[1];
          if (port) resolve(`http://127.0.0.1:${port}`);
        });
        server.on("exit", (code) => reject(new Error(`python3 -m http.server exited (${code}): ${printed}`)));
      });
      const get = async (path: string) => {
        for (let tries = 0; ; tries++) {
          try {
            return await fetch(`${base}${path}`);
          } catch (error) {
            // Not listening yet.
            if (tries > 100) throw error;
            await new Promise((res) => setTimeout(res, 100));
          }
        }
      };
      const page = readFileSync(join(out, "index.html"), "utf8");
      for (const path of ["/", "/suite/Search", "/suite/Search/eval/1?trace=0"]) {
        const response = await get(path);
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toBe(page);
      }
      const asset = page.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      expect(asset).toBeDefined();
      expect((await get(asset!)).status).toBe(200);
      expect(await (await get("/data/menu-items.json")).json()).toMatchObject({ suites: [{ name: "Search" }] });
    } finally {
      server.kill("SIGTERM");
    }
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
