/**
 * The campaign's settings (issue 42): every setting a run reads is checked whether or not the run
 * uses it, so a typo in CI cannot pass quietly — the model cache, the price table (offline too),
 * the budget's format, trials, Evalite's port, the target's timeouts, retries and concurrency within
 * their documented range (a timeout past 2^31 − 1 ms would fire at once), the model settings — and
 * a negative number given to a flag is told what is wrong with it. Replayed through `pnpm eval
 * --explain-target` in process (bin/eval.ts's `main`: the run plan checks them before anything
 * runs) and `pnpm eval:calibrate`'s `main`. Each is one line and exit 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main as calibrate } from "../bin/eval-calibrate.js";
import { Campaign } from "./campaign.js";
import { evalInProcess } from "./eval-run.js";

const campaign = new Campaign("settings");
const scratch = mkdtempSync(join(tmpdir(), "campaign-settings-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};
const PRICES = { currency: "USD", per: "1M tokens", source: "s", retrieved: "2026-01-01" };
const MODULE = "examples/targets/minisearch.target.ts";

const CASES: Array<[string, string[], Record<string, string>, RegExp]> = [
  ["EVAL_CACHE=sometimes", [], { EVAL_CACHE: "sometimes" }, /^eval: EVAL_CACHE must be on or off/],
  [
    "EVAL_PRICES that is not JSON, offline",
    [],
    { EVAL_PRICES: file("p1.json", "{ prices") },
    /^eval: EVAL_PRICES: .*p1\.json: \[invalid-json\]/,
  ],
  [
    "EVAL_PRICES naming a missing file",
    [],
    { EVAL_PRICES: join(scratch, "none.json") },
    /^eval: EVAL_PRICES: .*none\.json: file not found$/m,
  ],
  [
    "EVAL_PRICES with a negative price",
    [],
    { EVAL_PRICES: file("p2.json", JSON.stringify({ ...PRICES, models: { m: { input: -1, output: 1 } } })) },
    /^eval: EVAL_PRICES: .*p2\.json: \/models\/m\/input: must be >= 0$/m,
  ],
  ["EVAL_PRICES holding null", [], { EVAL_PRICES: file("p3.json", "null") }, /^eval: EVAL_PRICES: .*p3\.json: \[schema\] the file is null/],
  ["EVAL_TRIALS=0", [], { EVAL_TRIALS: "0" }, /^eval: EVAL_TRIALS must be a whole number from 1 to 100/],
  ["EVALITE_PORT=99999", [], { EVALITE_PORT: "99999" }, /^eval: EVALITE_PORT must be a whole number from 0 to 65535/],
  [
    "ENGINE_TIMEOUT_MS past 2^31 − 1",
    [],
    { ENGINE_TIMEOUT_MS: "99999999999999999999" },
    /^eval: ENGINE_TIMEOUT_MS must be a whole number from 1 to 2147483647/,
  ],
  [
    "--max-cost '$1'",
    ["--max-cost", "$1"],
    {},
    /^eval: --max-cost must be a plain decimal amount in dollars, such as 0\.50 or 2 \(got "\$1"\)$/m,
  ],
  ["--max-cost 0x10", ["--max-cost", "0x10"], {}, /^eval: --max-cost must be a plain decimal amount in dollars.*\(got "0x10"\)$/m],
  ["--max-cost 1e3", ["--max-cost", "1e3"], {}, /^eval: --max-cost must be a plain decimal amount in dollars.*\(got "1e3"\)$/m],
  ["--max-cost -5", ["--max-cost", "-5"], {}, /^eval: --max-cost must be a plain decimal amount in dollars.*\(got "-5"\)$/m],
  ["--trials -1", ["--trials", "-1"], {}, /^eval: --trials must be a whole number from 1 to 100 \(got -1\)$/m],
  [
    "EVAL_TARGET_TIMEOUT_MS=99999999999999999999 for a module",
    [],
    { EVAL_TARGET: MODULE, EVAL_TARGET_TIMEOUT_MS: "99999999999999999999" },
    /^eval: EVAL_TARGET_TIMEOUT_MS must be a whole number from 1 to 2147483647/,
  ],
  [
    "EVAL_TARGET_TIMEOUT_MS=3000000000 for a service",
    [],
    { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_TIMEOUT_MS: "3000000000" },
    /^eval: EVAL_TARGET_TIMEOUT_MS must be a whole number from 1 to 2147483647/,
  ],
  [
    "EVAL_TARGET_CONCURRENCY=100000",
    [],
    { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_CONCURRENCY: "100000" },
    /^eval: EVAL_TARGET_CONCURRENCY must be a whole number from 1 to 256/,
  ],
  [
    "EVAL_TARGET_RETRIES=50",
    [],
    { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_RETRIES: "50" },
    /^eval: EVAL_TARGET_RETRIES must be a whole number from 0 to 10/,
  ],
  [
    "EVAL_TARGET_SEED_TIMEOUT_MS=-1",
    [],
    { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_SEED: "c", EVAL_TARGET_SEED_TIMEOUT_MS: "-1" },
    /^eval: EVAL_TARGET_SEED_TIMEOUT_MS must be/,
  ],
  ["a timeout set for the in-process engine", [], { EVAL_TARGET_TIMEOUT_MS: "100" }, /^eval: EVAL_TARGET_TIMEOUT_MS is a setting of/],
  [
    "EVAL_DATASET_SPLIT=../outside",
    [],
    { EVAL_DATASET: "test/datasets/beir-answers", EVAL_DATASET_SPLIT: "../outside" },
    /^eval: EVAL_DATASET_SPLIT: split "\.\.\/outside" is not a split name/,
  ],
  [
    "a one-character token",
    [],
    { EVAL_TARGET: "http://127.0.0.1:9", EVAL_TARGET_TOKEN: "x" },
    /^eval: EVAL_TARGET_TOKEN is 1 character long: a credential shorter than 8 characters/,
  ],
];

describe("campaign: settings, checked whether or not the run uses them", () => {
  it.each(CASES)("%s: one line, exit 2", async (name, argv, env, message) => {
    const r = await evalInProcess(["--explain-target", ...argv], env);
    campaign.record({ name, expect: 2, ...r });
    expect(r.stderr).toMatch(message);
  });

  it("eval:calibrate --trials -1: told what is wrong with the number, not that it needs a value", async () => {
    const r = { code: 0, stdout: "", stderr: "" };
    r.code = await calibrate(["labels.jsonl", "--trials", "-1"], { stdout: (s) => (r.stdout += s), stderr: (s) => (r.stderr += s) });
    campaign.record({ name: "eval:calibrate --trials -1", expect: 2, ...r });
    expect(r.stderr).toBe('eval:calibrate: --trials must be a positive integer, got "-1"\n');
  });
});
