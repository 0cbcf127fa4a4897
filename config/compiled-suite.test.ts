import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { COMPILED_MODULE, compiledCounterpart, compiledSuitePlugin, isCompiledEntry } from "./compiled-suite.js";

const root = mkdtempSync(join(tmpdir(), "compiled-suite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Writes an empty file at `path` below the scratch root, creating its folders. */
function touch(path: string): string {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "");
  return file;
}

for (const path of [
  "dist/helpers/dataset.js",
  "dist/helpers/targets/eval-target.js",
  "dist/scorers/retrieval.js",
  "packages/engine/dist/index.js",
  "packages/engine/dist/text/analyze.js",
  "dist/evals/search.eval.js",
]) {
  touch(path);
}

describe("compiledCounterpart", () => {
  it("maps the suite's sources to their compiled JavaScript", () => {
    expect(compiledCounterpart(root, join(root, "helpers/dataset.ts"))).toBe(join(root, "dist/helpers/dataset.js"));
    expect(compiledCounterpart(root, join(root, "helpers/targets/eval-target.ts"))).toBe(join(root, "dist/helpers/targets/eval-target.js"));
    expect(compiledCounterpart(root, join(root, "scorers/retrieval.ts"))).toBe(join(root, "dist/scorers/retrieval.js"));
    expect(compiledCounterpart(root, join(root, "packages/engine/src/index.ts"))).toBe(join(root, "packages/engine/dist/index.js"));
    expect(compiledCounterpart(root, join(root, "packages/engine/src/text/analyze.ts"))).toBe(
      join(root, "packages/engine/dist/text/analyze.js"),
    );
  });

  it("leaves eval files, tests, files outside the suite and uncompiled files to Vite", () => {
    expect(compiledCounterpart(root, join(root, "evals/search.eval.ts"))).toBeNull();
    expect(compiledCounterpart(root, join(root, "helpers/dataset.test.ts"))).toBeNull();
    expect(compiledCounterpart(root, join(root, "bench/engine-bench.ts"))).toBeNull();
    expect(compiledCounterpart(root, join(root, "packages/engine/bench/floors.ts"))).toBeNull();
    expect(compiledCounterpart(root, join(root, "node_modules/evalite/dist/index.ts"))).toBeNull();
    expect(compiledCounterpart(root, join(tmpdir(), "elsewhere/helpers/dataset.ts"))).toBeNull();
    // A source added since the last build has no compiled file yet: Vite compiles it as before.
    expect(compiledCounterpart(root, join(root, "helpers/new-helper.ts"))).toBeNull();
    expect(compiledCounterpart(root, join(root, "helpers/dataset.js"))).toBeNull();
  });

  it("names modules Vitest leaves to Node", () => {
    expect(COMPILED_MODULE.test(join(root, "dist/helpers/dataset.js"))).toBe(true);
    expect(COMPILED_MODULE.test(join(root, "packages/engine/dist/index.js"))).toBe(true);
    expect(COMPILED_MODULE.test(join(root, "helpers/dataset.ts"))).toBe(false);
  });
});

describe("compiledSuitePlugin", () => {
  const plugin = compiledSuitePlugin(root);
  const resolving = (id: string | null) => ({ resolve: async () => (id === null ? null : { id }) });

  it("resolves a suite import to its compiled file, external to Vite", async () => {
    const importer = join(root, "evals/search.eval.ts");
    await expect(plugin.resolveId.call(resolving(join(root, "helpers/dataset.ts")), "../helpers/dataset.js", importer)).resolves.toEqual({
      id: join(root, "dist/helpers/dataset.js"),
      external: true,
    });
    await expect(
      plugin.resolveId.call(resolving(`${join(root, "packages/engine/src/index.ts")}?v=1`), "@hybrid-search/engine", importer),
    ).resolves.toEqual({ id: join(root, "packages/engine/dist/index.js"), external: true });
  });

  it("leaves everything else to Vite's own resolution", async () => {
    const importer = join(root, "evals/search.eval.ts");
    await expect(
      plugin.resolveId.call(resolving(join(root, "node_modules/evalite/dist/index.js")), "evalite", importer),
    ).resolves.toBeNull();
    await expect(plugin.resolveId.call(resolving(null), "./missing.js", importer)).resolves.toBeNull();
    await expect(
      plugin.resolveId.call(resolving(join(root, "helpers/dataset.ts")), "../helpers/dataset.js", undefined),
    ).resolves.toBeNull();
  });
});

describe("isCompiledEntry", () => {
  it("is true for a module under the repository's own dist/ folder only", () => {
    expect(isCompiledEntry(pathToFileURL(join(root, "dist/bin/eval.js")).href, root)).toBe(true);
    expect(isCompiledEntry(pathToFileURL(join(root, "bin/eval.ts")).href, root)).toBe(false);
    expect(isCompiledEntry(pathToFileURL(join(root, "distribution/bin/eval.ts")).href, root)).toBe(false);
    expect(isCompiledEntry(pathToFileURL(join(root, "dist")).href, root)).toBe(false);
  });

  it("is false for the sources of a checkout that sits inside a folder named dist", () => {
    const checkout = join("/", "home", "dist", "project");
    expect(isCompiledEntry(pathToFileURL(join(checkout, "bin/eval-verdict.ts")).href, checkout)).toBe(false);
    expect(isCompiledEntry(pathToFileURL(join(checkout, "dist/bin/eval-verdict.js")).href, checkout)).toBe(true);
    expect(isCompiledEntry(pathToFileURL(join(checkout, "../dist/bin/eval-verdict.js")).href, checkout)).toBe(false);
  });
});
