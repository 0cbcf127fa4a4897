/**
 * The campaign's turns (issue 42): a malformed `fixtures/turn-cases.json` is an input error — one
 * line and exit 2 from the run plan, before anything runs — not a red FixtureError of the agent
 * eval's worker and exit 1, the status of a failed eval. The turn cases live in the repository's
 * `fixtures/`, so each case runs the compiled `pnpm eval --explain-target` from a shadow of the
 * repository (its compiled suite and fixtures copied, its dependencies linked) whose turn-cases.json
 * is the malformed one. And a recorded turn whose usage contradicts itself, or whose tool output
 * nests 100,000 levels deep, never reaches a grader or overflows the trace view.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { outputView } from "../helpers/trace-view.js";
import { observedTurn } from "../helpers/targets/observe.js";
import { openRecordedTarget } from "../helpers/targets/recorded-target.js";
import { Campaign } from "./campaign.js";
import { ROOT } from "./eval-run.js";

const campaign = new Campaign("turns");
const scratch = mkdtempSync(join(tmpdir(), "campaign-turns-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the repository as the compiled CLIs see it: `dist/`, `fixtures/`, `evals/`, its package files; dependencies linked. */
function shadowRepository(): string {
  const root = join(scratch, "repo");
  mkdirSync(root);
  for (const entry of ["dist", "fixtures", "evals", "package.json", "pnpm-workspace.yaml"])
    cpSync(join(ROOT, entry), join(root, entry), { recursive: true });
  for (const entry of ["node_modules", "packages"]) symlinkSync(join(ROOT, entry), join(root, entry));
  return root;
}
const shadow = shadowRepository();
const TURNS = readFileSync(join(ROOT, "fixtures/turn-cases.json"), "utf8");
type TurnFile = {
  surfaces: Record<string, string[]>;
  cases: Array<{ id: string; surface: string; expect: Array<Record<string, unknown>> }>;
};
const edited = (edit: (file: TurnFile) => void): string => {
  const file = JSON.parse(TURNS) as TurnFile;
  edit(file);
  return JSON.stringify(file, null, 2);
};

const CASES: Array<[string, string | Buffer, RegExp]> = [
  ["invalid JSON", `${TURNS.slice(0, 200)}`, /turn-cases\.json: \[invalid-json\] invalid JSON at line \d+, column \d+/],
  ["null", "null", /turn-cases\.json: must be an object \(got null\)/],
  [
    "saved as UTF-16",
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TURNS, "utf16le")]),
    /turn-cases\.json: \[encoding\] the file is UTF-16LE/,
  ],
  [
    "an unknown kind of expectation",
    edited((f) => f.cases[0]!.expect.push({ kind: "reads-minds" })),
    /case t-001 \(\/cases\/0\/expect\/\d+\/kind\): must be one of outcome/,
  ],
  [
    "a tool off the surface",
    edited((f) => f.cases[0]!.expect.push({ kind: "calls-tool", tool: "delete_everything" })),
    /case t-001 \(\/cases\/0\/expect\/\d+\/tool\): must be one of .*\(got "delete_everything"\)/,
  ],
  [
    "a duplicate id",
    edited((f) => (f.cases[1]!.id = f.cases[0]!.id)),
    /case t-001 \(\/cases\/1\/id\): id "t-001" is already used by \/cases\/0/,
  ],
  ["no expectations", edited((f) => (f.cases[0]!.expect = [])), /case t-001 \(\/cases\/0\/expect\): must list at least one item/],
  [
    "negative steps",
    edited((f) => f.cases[0]!.expect.push({ kind: "max-steps", steps: -3 })),
    /case t-001 \(\/cases\/0\/expect\/\d+\/steps\): must be at least 1 \(got -3\)/,
  ],
  ["an unknown surface", edited((f) => (f.cases[0]!.surface = "back-office")), /names no surface of the file/],
  [
    "a cited document the corpus lacks",
    edited((f) => f.cases[0]!.expect.push({ kind: "cites", doc: "en/nowhere.md" })),
    /cites en\/nowhere\.md, which does not exist in fixtures\/corpus/,
  ],
  ["__proto__ as a case id", edited((f) => (f.cases[0]!.id = "__proto__")), /case __proto__ \(\/cases\/0\/id\): must match the pattern/],
];

describe("campaign: a malformed turn-cases.json is input, exit 2, before anything runs", () => {
  it.each(CASES)("%s: one line, exit 2", (name, text, message) => {
    writeFileSync(join(shadow, "fixtures", "turn-cases.json"), text);
    const r = spawnSync(process.execPath, ["--conditions=compiled", join(shadow, "dist/bin/entry/eval.js"), "--explain-target"], {
      cwd: shadow,
      encoding: "utf8",
      env: { ...process.env, EVAL_BASELINE: join(shadow, "evals/baseline.json") },
    });
    if (process.env.CAMPAIGN_SHOW) console.log(`${name}: ${r.stderr}`);
    campaign.record({ name: `turn-cases.json: ${name}`, expect: 2, code: r.status, stdout: r.stdout, stderr: r.stderr });
    expect(r.stderr).toMatch(message);
  });

  it("the shadow reads its own fixtures: the unchanged file passes", () => {
    writeFileSync(join(shadow, "fixtures", "turn-cases.json"), TURNS);
    const r = spawnSync(process.execPath, ["--conditions=compiled", join(shadow, "dist/bin/entry/eval.js"), "--explain-target"], {
      cwd: shadow,
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("campaign: a recorded turn", () => {
  const folder = join(scratch, "run");

  it("whose tool output nests 100,000 levels deep is stored, reported and viewed cut, never a stack overflow", async () => {
    // Written as text: JSON.stringify itself cannot write a value this deep.
    const depth = 100_000;
    const deep = `${'{"inner":'.repeat(depth)}"bottom"${"}".repeat(depth)}`;
    const call = `{"name":"search","input":{"query":"x"},"output":${deep},"status":"done","needsApproval":false,"durationMs":1}`;
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, "turns.jsonl"),
      `{"id":"t-001","answer":"x","outcome":"answered","steps":[{"index":1,"toolCalls":[${call}]}],"citations":[]}\n`,
    );
    let code = 0;
    let stderr = "";
    try {
      const target = openRecordedTarget(folder, new Set(), undefined, (x) => `run:${x}`);
      const observed = observedTurn(
        await target.turn!({ id: "t-001", question: "?", tools: ["search"], maxSteps: 4, tokenBudget: 1000 } as never),
      );
      expect(JSON.stringify(observed)).toContain("[cut: nested deeper than 32 levels]");
      outputView(observed.turn.steps[0]!.toolCalls[0]!.output);
    } catch (error) {
      code = 1;
      stderr = (error as Error).stack ?? String(error);
    }
    campaign.record({ name: "a recorded turn nested 100,000 deep", expect: 0, code, stdout: "", stderr });
  });
});
