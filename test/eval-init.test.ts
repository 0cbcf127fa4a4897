/**
 * `pnpm eval:init` in process (bin/eval-init.ts's main): what it writes and says, and its one-line
 * errors, and the `pnpm eval search` it suggests next, run on what it wrote — the suite's one run
 * of a one-file filter on the in-process engine, so it also shows what such a filter runs and
 * builds. What the starter dataset holds is tested in helpers/starter-dataset.test.ts; the
 * compiled CLI is spawned in test/compiled-clis.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../bin/eval-init.js";
import { stripAnsi } from "../helpers/evalite-terminal.js";
import { ROOT, RUN_TIMEOUT_MS, runEval } from "./eval-run.js";

const scratch = mkdtempSync(join(tmpdir(), "eval-init-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function init(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe("pnpm eval:init", () => {
  it("bad arguments and a non-empty folder are one line and exit 2; a new folder gets the starter dataset", () => {
    expect(init([])).toEqual({ code: 2, stdout: "", stderr: "eval:init: one folder is needed, got 0; Usage: pnpm eval:init <folder>\n" });
    const full = join(scratch, "full");
    mkdirSync(full);
    writeFileSync(join(full, "x"), "");
    const refused = init([full]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/^[^\n]+ is not empty; eval:init writes only into a new or empty folder[^\n]*\n$/);
    const fresh = join(scratch, "new");
    const ok = init([fresh]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^eval:init: wrote a starter dataset to .*: 4 documents, 5 judged queries, 5 answer cases/);
  });

  it(
    "the command it suggests next measures the starter dataset: EVAL_DATASET=<folder> pnpm eval search exits 0, every query scored, running evals/search.eval.ts only (not vsearch.eval.ts) and building only the dataset's index",
    async () => {
      const folder = join(scratch, "next");
      const written = init([folder]);
      expect(written.stdout).toContain(`Next: EVAL_DATASET=${folder} pnpm eval search`);
      const r = await runEval(["search"], { EVAL_DATASET: folder });
      rmSync(r.dir, { recursive: true, force: true });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/eval: dataset next \(5 queries\)/);
      // A new dataset has no floors yet: said so, and the run passes because every eval scored something.
      expect(r.stdout).toMatch(/gate: NOT GATED: no offline@next floors/);
      const evals = r.output!.suites.find((s) => s.name === "Search (BM25)")!.evals;
      expect(evals).toHaveLength(5);
      for (const s of evals.flatMap((e) => e.scores)) expect(s.score >= 0 && s.score <= 1, `${s.name} = ${s.score}`).toBe(true);
      // `search` names one file exactly (Evalite's own filter also ran vsearch.eval.ts), and the run
      // builds only the index that file measures, not the lanes'.
      expect(new Set(r.output!.suites.map((s) => s.filepath))).toEqual(new Set([join(ROOT, "evals/search.eval.ts")]));
      const out = stripAnsi(r.stdout);
      expect(out.match(/evals\/\w+\.eval\.ts/g)).toEqual(["evals/search.eval.ts"]);
      expect(out.match(/^index: building .*$/gm)).toEqual(["index: building dataset next…"]);
    },
    RUN_TIMEOUT_MS,
  );
});
