import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "./cli-args.js";
import { REPO_ROOT } from "../../helpers/fixture-files.js";

const USAGE = "Usage: pnpm x [--runs N]";
const OPTIONS = { runs: { type: "string" }, json: { type: "boolean" } } as const;

describe("parseCommandLine", () => {
  it("reads known options strictly", () => {
    expect(parseCommandLine({ args: ["--runs", "4", "--json"], options: OPTIONS }, USAGE).values).toEqual({ runs: "4", json: true });
  });

  it("turns an unknown option, a missing value, a stray positional into one-line UsageErrors with the usage", () => {
    for (const args of [["--rnus", "4"], ["--runs"], ["extra"], ["--json=yes"]]) {
      const error = (() => {
        try {
          parseCommandLine({ args, options: OPTIONS }, USAGE);
        } catch (e) {
          return e;
        }
      })();
      expect(error, args.join(" ")).toBeInstanceOf(UsageError);
      expect((error as Error).message).not.toContain("\n");
      expect((error as Error).message).toMatch(/; Usage: pnpm x \[--runs N\]$/);
    }
  });
});

describe("positiveInteger", () => {
  it("takes integers from 1, the fallback when absent, and names the flag otherwise", () => {
    expect(positiveInteger("runs", "12", 3)).toBe(12);
    expect(positiveInteger("runs", undefined, 3)).toBe(3);
    for (const bad of ["0", "-1", "1.5", "2x", ""]) {
      expect(() => positiveInteger("runs", bad, 3)).toThrow(`--runs must be a positive integer, got "${bad}"`);
    }
  });

  it("lets other errors through argumentsOrExit: they are bugs", () => {
    expect(() =>
      argumentsOrExit("x", () => {
        throw new TypeError("a bug");
      }),
    ).toThrow("a bug");
  });
});

describe("every bench/ tool with a bad flag: one line, exit 2 (bin/ commands: test/gate.test.ts)", () => {
  const tools = [
    ["bench/eval-speed.ts", "bench:eval"],
    ["bench/watch-speed.ts", "bench:watch"],
    ["bench/beir-synthetic.ts", "bench:beir"],
    ["bench/cjk-strategies.ts", "bench:cjk"],
    ["bench/draft-speed.ts", "bench:draft"],
    ["bench/load.ts", "bench:load"],
    ["packages/trec-eval/bench/metrics-bench.ts", "bench:metrics"],
    ["packages/engine/bench/engine-bench.ts", "bench:engine"],
  ] as const;

  it.each(tools)("%s", (script, command) => {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(REPO_ROOT, script), "--no-such-flag"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^${command}: Unknown option '--no-such-flag'.*; Usage: pnpm ${command}[^\\n]*\\n$`));
  });

  it("a bad value too: bench:eval --runs 0", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench/eval-speed.ts"), "--runs", "0"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('bench:eval: --runs must be a positive integer, got "0"\n');
  });
});

describe("bench:load's sizes", () => {
  it("a size that is not a whole number is one line, exit 2", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", join(REPO_ROOT, "bench/load.ts"), "--sizes", "1000,-5"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('bench:load: --sizes must be whole numbers ≥ 1 separated by commas, got "-5"\n');
  });
});
