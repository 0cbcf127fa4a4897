/** Every setting a run reads is checked whether or not the run uses it: one line each, before anything runs. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { afterAll, describe, expect, it } from "vitest";
import { checkRunSettings } from "./run-settings.js";

const dir = mkdtempSync(join(tmpdir(), "run-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

function problem(env: NodeJS.ProcessEnv): string {
  try {
    checkRunSettings({ ENGINE_PROVIDER: "offline", ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.replaceAll(dir, "<dir>");
  }
  return "fine";
}

describe("checkRunSettings", () => {
  it("accepts the defaults and every documented value", () => {
    expect(problem({})).toBe("fine");
    expect(problem({ EVAL_CACHE: "off", EVAL_TRIALS: "3", EVALITE_PORT: "0", EVAL_MAX_COST: "0.50", EVAL_DRY_RUN: "1" })).toBe("fine");
    expect(problem({ EVAL_CACHE: "ON", EVAL_REPORTS_DIR: dir })).toBe("fine");
  });

  it("refuses a malformed cache, trials, port, budget or dry-run setting in an offline run", () => {
    expect(problem({ EVAL_CACHE: "sometimes" })).toBe(
      'EVAL_CACHE must be on or off (off: every model call goes to the model), got "sometimes"',
    );
    expect(problem({ EVAL_TRIALS: "0" })).toBe('EVAL_TRIALS must be a whole number from 1 to 100, got "0"');
    expect(problem({ EVALITE_PORT: "70000" })).toBe('EVALITE_PORT must be a whole number from 0 to 65535, got "70000"');
    expect(problem({ EVAL_MAX_COST: "0x10" })).toBe(
      'EVAL_MAX_COST must be a plain decimal amount in dollars, such as 0.50 or 2 (got "0x10")',
    );
    expect(problem({ EVAL_DRY_RUN: "yes" })).toBe('EVAL_DRY_RUN must be 1 or 0, got "yes"');
    expect(problem({ EVAL_CACHE_FILE: dir })).toBe('EVAL_CACHE_FILE names the folder "<dir>"; it names the model cache\'s file, a file');
    expect(problem({ EVAL_REPORTS_DIR: file("reports", "") })).toBe(
      'EVAL_REPORTS_DIR names "<dir>/reports", which is a file: it names the folder the report set is written to',
    );
  });

  it("reads EVAL_PRICES offline too: not JSON, a missing file, a negative price", () => {
    expect(problem({ EVAL_PRICES: file("prices.json", "{ nope") })).toMatch(
      /^EVAL_PRICES: .*prices\.json: \[invalid-json\] invalid JSON at line 1, column 3: expected a double-quoted property name/,
    );
    expect(problem({ EVAL_PRICES: join(dir, "none.json") })).toMatch(/^EVAL_PRICES: .*none\.json: file not found$/);
    const table = { currency: "USD", per: "1M tokens", source: "s", retrieved: "2026-01-01", models: { m: { input: -1, output: 1 } } };
    expect(problem({ EVAL_PRICES: file("negative.json", JSON.stringify(table)) })).toMatch(
      /^EVAL_PRICES: .*negative\.json: \/models\/m\/input: must be >= 0$/,
    );
  });

  it("refuses model settings out of their range: a timeout Node would fire at once", () => {
    expect(problem({ ENGINE_TIMEOUT_MS: "99999999999999999999" })).toBe(
      'ENGINE_TIMEOUT_MS must be a whole number from 1 to 2147483647, got "99999999999999999999"',
    );
    expect(problem({ ENGINE_PROVIDER: "sometimes" })).toMatch(/^ENGINE_PROVIDER must be google, openai-compatible or offline/);
  });
});
