/**
 * What `pnpm test` prints at its end (test/slowest-files.ts), and how the shared runs' global setup
 * finds the configurations a file reads (test/shared-runs/declared.ts), on built inputs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { declaredIn } from "./shared-runs/declared.js";
import { needed } from "./shared-runs/setup.js";
import { summary } from "./slowest-files.js";

const scratch = mkdtempSync(join(tmpdir(), "slowest-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("pnpm test's closing summary", () => {
  it("names the ten slowest files, slowest first, with their seconds, then the eval commands and the shared configurations that ran most", () => {
    const files = Array.from({ length: 12 }, (_, i) => ({ name: `f${i}.test.ts`, seconds: i * 1.25 }));
    const lines = summary(files, [
      { command: "pnpm eval", configuration: "fixtures", ms: 30_000, code: 0 },
      { command: "pnpm eval search", configuration: "init:search", ms: 8_000, code: 0 },
      { command: "pnpm eval search", configuration: "init:search", ms: 7_000, code: 0 },
      { command: "pnpm eval --help", ms: 500, code: 0 },
    ]);
    expect(lines[0]).toBe("Slowest test files (of 12):");
    expect(lines.slice(1, 11)).toEqual(
      [11, 10, 9, 8, 7, 6, 5, 4, 3, 2].map((i) => `  ${(i * 1.25).toFixed(1).padStart(6)} s  f${i}.test.ts`),
    );
    expect(lines[11]).toBe(
      "Commands that ran evals: 4 (45.5 s in all, overlapping): 3 by 2 shared configuration(s), 1 by the tests themselves",
    );
    expect(lines[12]).toBe("  longest shared: fixtures 30.0 s (1), init:search 15.0 s (2)");
    expect(lines).toHaveLength(13);
  });

  it("with no eval command, says so and names no configuration", () => {
    expect(summary([{ name: "a.test.ts", seconds: 0.04 }], [])).toEqual([
      "Slowest test files (of 1):",
      "     0.0 s  a.test.ts",
      "Commands that ran evals: 0 (0.0 s in all, overlapping): 0 by 0 shared configuration(s), 0 by the tests themselves",
    ]);
  });
});

describe("the configurations a test file declares", () => {
  // The declarations are written into files here, never in this file's own text: the global setup
  // reads every test file's text, and would start what this one names.
  const call = (quote: string, name: string) => `${"shared"}Run(${quote}${name}${quote})`;

  it("are its literal sharedRun names, each once, in the order they first appear", () => {
    const file = join(scratch, "reader.test.ts");
    writeFileSync(
      file,
      [`const a = ${call('"', "gate:weakened")};`, `const b = ${call("'", "fixtures")};`, `const c = ${call("`", "gate:weakened")};`].join(
        "\n",
      ),
    );
    expect(declaredIn(file)).toEqual(["gate:weakened", "fixtures"]);
  });

  it("start in CONFIGURATIONS' order, one marked alone (the fixtures' gated run) before any other", () => {
    const file = join(scratch, "order.test.ts");
    writeFileSync(file, [call('"', "gate:weakened"), call('"', "models:faults"), call('"', "fixtures")].join(";\n"));
    expect(needed([file])).toEqual(["fixtures", "models:faults", "gate:weakened"]);
  });

  it("stop the run when a file names a configuration nobody made", () => {
    const file = join(scratch, "unknown.test.ts");
    writeFileSync(file, call('"', "no-such-run"));
    expect(() => needed([file])).toThrow(/^sharedRun: no configuration named "no-such-run" in test\/shared-runs\/configurations\//);
  });

  it("are none for a file that reads no shared run, or that cannot be read", () => {
    const file = join(scratch, "plain.test.ts");
    writeFileSync(file, "const run = sharedRunner(name);\n");
    expect(declaredIn(file)).toEqual([]);
    expect(declaredIn(join(scratch, "missing.test.ts"))).toEqual([]);
  });
});
