/**
 * Evalite configuration for the suite. Read ../shared/reference/evalite-1.0.0-beta.16.md for the
 * traps of this Evalite version (one threshold over every score, camelCase CLI flags, no 0–1 check).
 *
 * Environment overrides (used by tests, so they never touch a user's history):
 *   EVALITE_PORT     UI port (default 3006)
 *   EVALITE_STORAGE  SQLite storage file (default .evalite/evalite.db, git-ignored)
 */
import { configDefaults } from "vitest/config";
import { defineConfig } from "evalite/config";
import { createFastSqliteStorage } from "./helpers/evalite-storage.js";

export default defineConfig({
  testTimeout: 120_000,
  maxConcurrency: 5,
  scoreThreshold: 70,
  trialCount: 1,
  cache: true,
  server: { port: Number(process.env.EVALITE_PORT ?? 3006) },
  // Evalite's SQLite storage with indexes, fewer syncs and lazily parsed reads (helpers/evalite-storage.ts).
  storage: () => createFastSqliteStorage(process.env.EVALITE_STORAGE ?? ".evalite/evalite.db"),
  // Evalite's list replaces Vitest's defaults, so they are kept explicitly. Fixtures, prompts and
  // engine source re-run the suite in watch mode (the engine is also in the import graph, but a
  // prompt file or a corpus document is not).
  forceRerunTriggers: [
    ...configDefaults.forceRerunTriggers,
    // Vitest matches these against absolute paths: a pattern needs a leading **/ to match.
    "**/fixtures/**",
    "**/packages/engine/src/**",
    "**/packages/engine/prompts/**",
    "**/scorers/**/*.ts",
    "**/helpers/**/*.ts",
  ],
  viteConfig: {
    test: {
      // Builds the indexes the selected files measure, once per run (and re-indexes what changed
      // on watch-mode reruns).
      globalSetup: ["./helpers/global-setup.ts"],
      // Every eval file in one worker process: the engine, the scorers and the open indexes are
      // loaded once instead of once per file, each distinct engine call is computed once and
      // shared by every eval (helpers/run-cache.ts), and ranking calls run one at a time across
      // the whole run, so measured latencies are the engine's own.
      isolate: false,
      maxWorkers: 1,
    },
  },
});
