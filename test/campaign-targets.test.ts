/**
 * The campaign's target modules (issue 42): a module that exits or throws as it loads is one line
 * and exit 2 (the compiled `pnpm eval --explain-target`, which loads it in its thread); a module
 * that ends its thread outside a call during a run — a throw from a timer, a rejection nobody
 * handles, a `process.exit` — fails the run (exit 1) with one line per distinct failure, where in
 * the suite's own thread it ended the run with the module's status or printed "Unhandled Errors"
 * and passed. The runs are `pnpm eval search` as a person runs it (two, of 58 cases each); what a
 * blocking module does to its time limit is asserted on the module thread itself
 * (helpers/targets/module-target.test.ts), as a full run of it would take minutes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Campaign } from "./campaign.js";
import { ROOT, RUN_TIMEOUT_MS, runEval, scriptCommand } from "./eval-run.js";

const campaign = new Campaign("targets");
const scratch = mkdtempSync(join(tmpdir(), "campaign-targets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A module that ranks every document of its corpus, and does `misbehave` after its first call. */
function module(name: string, misbehave: string, atLoad = ""): string {
  const file = join(scratch, `${name}.target.mjs`);
  writeFileSync(
    file,
    `${atLoad}
let ids = [];
let calls = 0;
export default {
  name: ${JSON.stringify(name)},
  documents: { seed: ({ collection, documents }) => { ids = documents.map((d) => d.id); return { collection, documents: ids.length }; } },
  search: { search: () => {
    if (calls++ === 1) { ${misbehave} }
    return { results: ids.slice(0, 10).map((docId, i) => ({ docId, score: 10 - i })) };
  } },
};`,
  );
  return file;
}

describe("campaign: a module that ends as it loads", () => {
  const command = scriptCommand("eval");
  it.each([
    ["exits with status 0 while loading", "process.exit(0);", /the module exited \(process\.exit\(0\)\) while loading$/m],
    ["exits with status 3 while loading", "process.exit(3);", /the module exited \(process\.exit\(3\)\) while loading$/m],
    ["throws while loading", 'throw new Error("no index here");', /loading the module failed: Error: no index here$/m],
  ])("%s: one line, exit 2", (name, atLoad, message) => {
    const file = module(name.replaceAll(" ", "-"), "", atLoad);
    const r = spawnSync(command.command, [...command.args, "--explain-target"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, EVAL_TARGET: file },
    });
    campaign.record({ name: `a module that ${name}`, expect: 2, code: r.status, stdout: "", stderr: r.stderr });
    expect(r.stderr).toMatch(message);
  });
});

describe("campaign: a module that ends its thread outside a call, during a run", () => {
  it.each([
    ["throws from a timer", 'setTimeout(() => { throw new Error("late boom"); }, 0);', "the module threw outside a call: Error: late boom"],
    ["leaves a rejection unhandled", 'Promise.reject(new Error("nobody waits"));', "the module threw outside a call: Error: nobody waits"],
  ])(
    "%s: the run fails, exit 1, with that one line",
    async (name, misbehave, how) => {
      const file = module(name.replaceAll(" ", "-"), misbehave);
      const r = await runEval(["search"], { EVAL_TARGET: file, EVALITE_PORT: "0" });
      rmSync(r.dir, { recursive: true, force: true });
      campaign.record({ name: `a module that ${name}`, expect: 1, code: r.code, stdout: r.stdout, stderr: r.stderr });
      expect(r.stdout).toMatch(/^eval: FAIL \(.*case\(s\) errored.*\); exit 1$/m);
      expect(r.stderr).toContain(how);
      expect(`${r.stdout}${r.stderr}`).not.toContain("Unhandled Error");
      // One line per distinct failure: the cases after it each fail with the same line, shown once.
      expect(r.stderr.trim().split("\n").length).toBeLessThanOrEqual(3);
    },
    RUN_TIMEOUT_MS,
  );
});
