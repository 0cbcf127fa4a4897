/**
 * Vitest global setup (vitest.config.ts): compiles the CLIs (`pnpm build`, `tsc -b`, incremental:
 * about a second when nothing changed) before any test, so the end-to-end tests spawn the code the
 * sources say. A type error in the build stops the run with tsc's own output.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

export default function buildClis(): void {
  const root = resolve(import.meta.dirname, "..");
  const r = spawnSync(join(root, "node_modules/.bin/tsc"), ["-b", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pnpm build (tsc -b tsconfig.build.json) failed:\n${r.stdout}${r.stderr}`);
}
