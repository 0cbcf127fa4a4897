/**
 * The campaign's target modules (issue 42): a module that exits or throws as it loads is one line
 * and exit 2 (the compiled `pnpm eval --explain-target`, which loads it in its thread); a module
 * that ends its thread outside a call during a run — a throw from a timer, a rejection nobody
 * handles, a `process.exit` — fails the run (exit 1) with one line per distinct failure, where in
 * the suite's own thread it ended the run with the module's status or printed "Unhandled Errors"
 * and passed. The runs are `pnpm eval search` as a person runs it (two, of 58 cases each: the
 * shared run `campaign:modules-that-end`, test/shared-runs/configurations/campaign.ts); what a
 * blocking module does to its time limit is asserted on the module thread itself
 * (helpers/targets/module-target.test.ts), as a full run of it would take minutes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Campaign } from "./campaign.js";
import { ROOT, RUN_TIMEOUT_MS, scriptCommand } from "./eval-run.js";
import { MODULES_THAT_END, misbehavingModule } from "./shared-runs/configurations/campaign.js";
import { sharedRun } from "./shared-runs/read.js";

const campaign = new Campaign("targets");
const modulesThatEnd = sharedRun("campaign:modules-that-end");
const scratch = mkdtempSync(join(tmpdir(), "campaign-targets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("campaign: a module that ends as it loads", () => {
  const command = scriptCommand("eval");
  it.each([
    ["exits with status 0 while loading", "process.exit(0);", /the module exited \(process\.exit\(0\)\) while loading$/m],
    ["exits with status 3 while loading", "process.exit(3);", /the module exited \(process\.exit\(3\)\) while loading$/m],
    ["throws while loading", 'throw new Error("no index here");', /loading the module failed: Error: no index here$/m],
  ])("%s: one line, exit 2", (name, atLoad, message) => {
    const file = misbehavingModule(scratch, name, "", atLoad);
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
  it.each(MODULES_THAT_END)(
    "%s: the run fails, exit 1, with that one line",
    async (name, _misbehave, how) => {
      const r = await modulesThatEnd.run(name);
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
