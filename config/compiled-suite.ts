/**
 * Runs the eval files over the compiled suite: when `pnpm eval` starts Evalite (bin/eval-verdict.ts, whose
 * build check has just confirmed that dist/ is newer than every source), each import an eval file
 * makes of the suite's TypeScript (helpers/, scorers/, packages/<name>/src/) resolves to its
 * compiled JavaScript in dist/ and is loaded by Node itself instead of being transformed by Vite
 * and evaluated through Vitest's module runner. The code is the same; what goes is Vite compiling
 * several hundred modules on every run, in the main process for the worker (about 2 of the ~6
 * seconds a one-file run took).
 *
 * Only the eval files themselves go through Vite. Watch mode (`pnpm eval:watch`, `evalite watch`)
 * keeps the TypeScript sources, where an edit must show without a build.
 *
 * Kept free of heavy imports: evalite.config.ts loads it.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Set to "1" by `pnpm eval` after its build check: the config then loads the suite compiled. */
export const COMPILED_SUITE_ENV = "EVAL_COMPILED_SUITE";

/**
 * Whether the module at `url` runs compiled, from the repository's own dist/ folder (the CLIs'
 * build-checked entries). Compared with `root`/dist, not with any folder named dist: a checkout
 * that sits inside a folder called dist still runs its sources as sources.
 */
export function isCompiledEntry(url: string, root: string): boolean {
  const path = relative(join(root, "dist"), fileURLToPath(url));
  return path !== "" && !path.startsWith(`..${sep}`) && path !== ".." && !isAbsolute(path);
}

/**
 * The compiled counterpart of a suite source file, or null when `file` is not one (an eval file, a
 * test, a file outside the suite, a package's file outside its src/) or was not compiled.
 * `helpers/x.ts` → `dist/helpers/x.js`; `packages/engine/src/a/b.ts` → `packages/engine/dist/a/b.js`.
 */
export function compiledCounterpart(root: string, file: string): string | null {
  if (!file.endsWith(".ts") || file.endsWith(".d.ts") || /\.(eval|test)\.m?ts$/.test(file)) return null;
  const path = relative(root, file).split(sep);
  if (path[0] === ".." || path.includes("node_modules")) return null;
  let compiled: string[] | null = null;
  if (path[0] === "helpers" || path[0] === "scorers") compiled = ["dist", ...path];
  else if (path[0] === "packages" && path[2] === "src") compiled = ["packages", path[1] as string, "dist", ...path.slice(3)];
  if (compiled === null) return null;
  const target = join(root, ...compiled).replace(/\.ts$/, ".js");
  return existsSync(target) ? target : null;
}

/** Matches a compiled suite module's path: Vitest leaves these to Node (`server.deps.external`). */
export const COMPILED_MODULE = /[\\/]dist[\\/].*\.js$/;

/** Vite's part of the plugin contract this needs (vite's Plugin type, kept structural so the config stays light). */
interface ResolvePlugin {
  name: string;
  enforce: "pre";
  resolveId(
    this: { resolve(source: string, importer?: string, options?: { skipSelf?: boolean }): Promise<{ id: string } | null> },
    source: string,
    importer: string | undefined,
  ): Promise<{ id: string; external: true } | null>;
}

/** The Vite plugin that resolves the suite's TypeScript to its compiled JavaScript, left to Node. */
export function compiledSuitePlugin(root: string): ResolvePlugin {
  return {
    name: "hybrid-search:compiled-suite",
    enforce: "pre",
    async resolveId(source, importer) {
      if (importer === undefined || source.startsWith("\0")) return null;
      const resolved = await this.resolve(source, importer, { skipSelf: true });
      const target = resolved === null ? null : compiledCounterpart(root, resolved.id.split("?")[0] as string);
      return target === null ? null : { id: target, external: true };
    },
  };
}
