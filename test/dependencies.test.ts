// The dependency rules of docs/architecture.md hold for the whole tree, and the check that
// enforces them (dependency-cruiser with .dependency-cruiser.cjs) fails on a planted violation.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const depcruise = join(root, "node_modules/.bin/depcruise");
const config = join(root, ".dependency-cruiser.cjs");
const require = createRequire(import.meta.url);
/** Everything that holds code. */
const CODE_FOLDERS = ["packages", "scorers", "helpers", "config", "evals", "bin", "bench", "test", "examples"];

function cruise(cwd: string, folders: readonly string[]): { status: number | null; output: string } {
  const r = spawnSync(depcruise, ["--config", config, "--output-type", "err", ...folders], { cwd, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const planted = mkdtempSync(join(tmpdir(), "deps-planted-"));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

function plant(files: Record<string, string>): void {
  copyFileSync(join(root, "tsconfig.json"), join(planted, "tsconfig.json"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(planted, path)), { recursive: true });
    writeFileSync(join(planted, path), text);
  }
}

describe("dependency rules", () => {
  it("hold for the whole tree: no rule broken, no cycle", () => {
    const r = cruise(root, CODE_FOLDERS);
    expect(r.output).toMatch(/no dependency violations found/);
    expect(r.status).toBe(0);
    // One cruise of the whole tree: about 15 s on a quiet machine, several times that on a busy one.
  }, 300_000);

  it("catch a planted violation of each kind", () => {
    plant({
      "helpers/h.ts": "export const h = 1;\n",
      "packages/engine/src/e.ts": 'import { h } from "../../../helpers/h.js";\nexport const e = h;\n',
      "packages/trec-eval/src/t.ts": 'import { e } from "../../engine/src/e.js";\nexport const t = e;\n',
      "packages/eval-gate/src/g.ts": 'import { t } from "../../trec-eval/src/t.js";\nexport const g = t;\n',
      "packages/target-contract/src/c.ts": 'import { h } from "../../../helpers/h.js";\nexport const c = h;\n',
      "packages/target-contract/src/ok.ts": "export const ok = 1;\n",
      "packages/engine/src/core.ts": 'import { ok } from "../../target-contract/src/ok.js";\nexport const core = ok;\n',
      // The contract's message types are the engine's too: not a violation.
      "packages/target-contract/src/types.ts": "export type Hit = { docId: string };\n",
      "packages/engine/src/answers.ts":
        'import type { Hit } from "../../target-contract/src/types.js";\nexport const answers: Hit[] = [];\n',
      "packages/engine/src/serve/served.ts": 'import { ok } from "../../../target-contract/src/ok.js";\nexport const served = ok;\n',
      "scorers/s.ts": 'import { h } from "../helpers/h.js";\nexport const s = h;\n',
      "helpers/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "helpers/b.ts": 'import { a } from "./a.js";\nexport const b = () => a;\n',
      "bin/c.ts": "export const main = () => 0;\n",
      "bin/entry/c.ts": 'import { main } from "../c.js";\nmain();\n',
      "evals/c.eval.ts": 'import { main } from "../bin/c.js";\nmain();\n',
      "test/c.test.ts": 'import "../bin/entry/c.js";\n',
      "examples/x.target.ts": 'import { h } from "../helpers/h.js";\nexport default { name: "x", h };\n',
      "test/x.test.ts": 'import x from "../examples/x.target.js";\nexport const y = x;\n',
      "packages/engine/src/analysis.ts": "export const analyzeQuery = () => [];\n",
      "scorers/grades-by-stems.ts": 'import { analyzeQuery } from "../packages/engine/src/analysis.js";\nexport const g = analyzeQuery;\n',
      "helpers/evals-user.ts": 'import { ok } from "../evals/ok.eval.js";\nexport const u = ok;\n',
      "evals/ok.eval.ts": "export const ok = 1;\n",
      "bench/lib/shared.ts": "export const shared = 1;\n",
      "bin/lib/args.ts": "export const args = 1;\n",
      "bench/uses-lib.ts":
        'import { shared } from "./lib/shared.js";\nimport { args } from "../bin/lib/args.js";\nexport const u = [shared, args];\n',
      "bench/uses-command.ts": 'import { main } from "../bin/c.js";\nexport const u = main;\n',
      "helpers/uses-bench-lib.ts": 'import { shared } from "../bench/lib/shared.js";\nexport const u = shared;\n',
      "config/storage.ts": "export const storage = 1;\n",
      "helpers/uses-config.ts": 'import { storage } from "../config/storage.js";\nexport const u = storage;\n',
      "helpers/datasets/reads.ts":
        'import { analyzeQuery } from "../../packages/engine/src/analysis.js";\nexport const r = analyzeQuery;\n',
      "helpers/into-package.ts": 'import { ok } from "../packages/target-contract/src/ok.js";\nexport const i = ok;\n',
      "packages/engine/bench/engine-bench.ts": "export const bench = 1;\n",
      "packages/engine/bench/corpus.ts": "export const corpus = 1;\n",
      "packages/engine/test/uses-bench.test.ts":
        'import { bench } from "../bench/engine-bench.js";\nimport { corpus } from "../bench/corpus.js";\nexport const u = [bench, corpus];\n',
    });
    const r = cruise(planted, ["packages", "scorers", "helpers", "config", "evals", "bin", "bench", "test", "examples"]);
    expect(r.status).not.toBe(0);
    for (const rule of [
      "engine-self-contained",
      "trec-eval-self-contained",
      "eval-gate-self-contained",
      "target-contract-self-contained",
      "engine-core-without-contract",
      "scorers-are-pure",
      "no-circular",
      "nothing-imports-entry-points",
      "commands-for-entries-and-tests",
      "examples-stand-alone",
      "nothing-imports-examples",
      "helpers-below-evals",
      "packages-by-name",
      "packages-by-name-between-packages",
      "grading-without-engine-analysis",
      "datasets-without-engine",
      "bench-library-for-benchmarks",
      "config-for-the-run",
      "benchmarks-use-only-bin-lib",
    ]) {
      expect(r.output, rule).toContain(`error ${rule}:`);
    }
    // Every rule of the configuration has its planted violation above.
    const rules = (require(config) as { forbidden: Array<{ name: string }> }).forbidden.map((f) => f.name);
    for (const rule of rules) expect(r.output, `no planted violation of ${rule}`).toContain(`error ${rule}:`);
    // The engine's server implements the contract: no rule about the contract flags its import
    // (the planted files can only reach another package by a relative path, which
    // packages-by-name-between-packages flags on its own).
    expect(r.output).not.toMatch(/error (engine-[a-z-]+|target-contract-[a-z-]+): packages\/engine\/src\/serve\/served\.ts/);
    // The engine's core answers in the contract's message types: importing them is no violation either.
    expect(r.output).not.toMatch(/error engine-core-without-contract: packages\/engine\/src\/answers\.ts/);
    expect(r.output).toMatch(/error engine-core-without-contract: packages\/engine\/src\/core\.ts/);
    // A package's tests may use its bench library modules; its benchmark entries are not imported.
    expect(r.output).toMatch(
      /error nothing-imports-entry-points: packages\/engine\/test\/uses-bench\.test\.ts → packages\/engine\/bench\/engine-bench\.ts/,
    );
    expect(r.output).not.toMatch(/→ packages\/engine\/bench\/corpus\.ts/);
    // A benchmark may use its own library and what the commands share; not a command.
    expect(r.output).not.toMatch(/bench\/uses-lib\.ts/);
    expect(r.output).toMatch(/error benchmarks-use-only-bin-lib: bench\/uses-command\.ts → bin\/c\.ts/);
  }, 300_000);
});

/** The source files below `folders` (TypeScript, no tests, no build output). */
function sources(folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== "dist" && entry.name !== "node_modules") walk(path);
      else if (entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return out;
}

describe("one home per shape and per kind", () => {
  it("no file outside helpers/targets/ branches on a kind of target: it asks the kind's module (helpers/targets/kinds/)", () => {
    const kinds = readdirSync(join(root, "helpers/targets/kinds"))
      .filter((name) => name.endsWith(".ts") && !["index.ts", "shared.ts"].includes(name))
      .map((name) => name.replace(/\.ts$/, ""));
    expect(kinds).toEqual(expect.arrayContaining(["http", "in-process", "module", "recorded"]));
    const names = kinds.map((k) => k.replace(/-/g, "\\-")).join("|");
    const branch = new RegExp(`(kind\\s*[!=]==?\\s*["'](${names})["']|case\\s+["'](${names})["']\\s*:)`);
    const offenders = sources(["helpers", "evals", "bin", "scorers", "bench"])
      .filter((file) => !file.startsWith("helpers/targets/"))
      .filter((file) => branch.test(readFileSync(join(root, file), "utf8")));
    expect(offenders).toEqual([]);
    // Not vacuous: the check finds a planted branch.
    expect(branch.test('if (target.kind === "module") seed();')).toBe(true);
  });

  it("the engine's types file declares none of the target contract's types: it imports and narrows them", () => {
    const declared = (file: string): string[] =>
      [...readFileSync(join(root, file), "utf8").matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
    const contract = [...declared("packages/target-contract/src/types.ts"), ...declared("packages/target-contract/src/turn.ts")];
    expect(contract).toEqual(expect.arrayContaining(["Hit", "SearchResponse", "AskResponse", "TurnResponse", "Document", "TraceStage"]));
    const engine = declared("packages/engine/src/types.ts");
    expect(engine.filter((name) => contract.includes(name))).toEqual([]);
    expect(engine).toEqual(expect.arrayContaining(["RankedHit", "SearchResult", "AskResult", "TurnResult"]));
  });
});
