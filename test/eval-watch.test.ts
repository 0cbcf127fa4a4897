// pnpm eval:watch (bin/eval-watch.ts) in process, through its main, with the session's start
// replaced: what it hands Evalite's runner and evalite.config.ts (the selection), and what it
// refuses. The watch loop itself is Evalite's (pnpm bench:watch times it end to end).
import { afterEach, describe, expect, it } from "vitest";
import { main, type StartWatch } from "../bin/eval-watch.js";
import { SELECTION_ENV, unselectedEvalFiles } from "../helpers/eval-selection.js";
import { ROOT } from "./eval-run.js";

const saved = process.env[SELECTION_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[SELECTION_ENV];
  else process.env[SELECTION_ENV] = saved;
});

async function watch(args: string[]) {
  const out = {
    code: 0,
    stdout: "",
    stderr: "",
    started: [] as Array<Parameters<StartWatch>[0]>,
    selection: undefined as string | undefined,
  };
  out.code = await main(args, { stdout: (s) => (out.stdout += s), stderr: (s) => (out.stderr += s) }, async (options) => {
    out.started.push(options);
    out.selection = process.env[SELECTION_ENV];
  });
  return out;
}

describe("pnpm eval:watch", () => {
  it("watches exactly the eval file a filter names (Evalite's own filter also watched vsearch.eval.ts for search)", async () => {
    const r = await watch(["search", "--hideTable"]);
    expect(r.code).toBe(0);
    expect(r.started).toEqual([{ mode: "watch-for-file-changes", cwd: ROOT, hideTable: true }]);
    expect(JSON.parse(r.selection!)).toEqual(["evals/search.eval.ts"]);
    // What evalite.config.ts then excludes from Vitest's run.
    expect(unselectedEvalFiles(ROOT)).toContain("evals/vsearch.eval.ts");
    expect(unselectedEvalFiles(ROOT)).not.toContain("evals/search.eval.ts");
    expect(JSON.parse((await watch(["*search"])).selection!)).toEqual(["evals/search.eval.ts", "evals/vsearch.eval.ts"]);
    const all = await watch([]);
    expect(all.selection).toBeUndefined();
    expect(all.started).toHaveLength(1);
  });

  it("refuses a filter that selects nothing, and a flag of the gate, in one line with exit 2, starting nothing", async () => {
    const none = await watch(["searc"]);
    expect(none).toMatchObject({ code: 2, stdout: "", started: [] });
    expect(none.stderr).toBe(
      `eval:watch: no eval file is named "searc" (eval names: ask, cjk, expansion, lexical, multilingual, query, search, temporal, thoroughness, vsearch; a glob such as '*search' selects several)\n`,
    );
    const threshold = await watch(["search", "--threshold", "70"]);
    expect(threshold).toMatchObject({ code: 2, started: [] });
    expect(threshold.stderr).toBe("eval:watch: --threshold is pnpm eval's flag: watch mode is not gated and writes no report\n");
    expect((await watch(["--help"])).stdout).toMatch(/^Usage: pnpm eval:watch \[filter\] .*\n[\s\S]*Watch mode is not gated/);
  });

  it("says in one line, exit 2, when Evalite cannot start (every port it may take is in use)", async () => {
    const out = { stdout: "", stderr: "" };
    const code = await main(["search"], { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) }, async () => {
      throw new Error(
        "Ports 3006-3009 are all in use: set server.port in evalite.config.ts to a free port, or to 0 for any free port\n    at …",
      );
    });
    expect(code).toBe(2);
    expect(out).toEqual({
      stdout: "",
      stderr:
        "eval:watch: Evalite could not start: Ports 3006-3009 are all in use: set server.port in evalite.config.ts to a free port, or to 0 for any free port\n",
    });
  });
});
