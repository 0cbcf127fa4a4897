/**
 * Evalite configuration for the suite. Read ../shared/reference/evalite-1.0.0-beta.16.md for the
 * traps of this Evalite version (one threshold over every score, camelCase CLI flags, no 0–1 check).
 *
 * No `scoreThreshold`: the gate's floors, latency ceilings and recorded cases decide (`pnpm eval`,
 * docs/gate.md). Evalite's one mean over every score is no verdict of this project, so a plain
 * `evalite run <file>` fails only when an eval fails, as `pnpm eval` does on that account; global
 * setup prints that such a run is not gated and which command gives the verdict.
 *
 * Environment overrides (used by tests, so they never touch a user's history):
 *   EVALITE_PORT         UI port (default 3006)
 *   EVALITE_STORAGE      SQLite storage file (default .evalite/evalite.db, git-ignored)
 *   EVAL_SELECTED_FILES  the eval files a filter selected, set by `pnpm eval` and `pnpm eval:watch`
 *                        (helpers/eval-selection.ts); every other eval file is excluded
 *   EVAL_TARGET_CONCURRENCY  with EVAL_TARGET: cases at once, when more than 5 (helpers/targets/case-concurrency.ts)
 *   EVAL_TRIALS          how many times each case runs (`pnpm eval --trials N`; default 1)
 *
 * `cache: false`: no model call goes through Evalite's AI SDK wrapper, whose cache could not be
 * keyed by everything that decides a reply nor turned off; the suite caches its calls itself
 * (helpers/model-cache.ts, docs/evals.md "The model cache").
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults } from "vitest/config";
import { defineConfig } from "evalite/config";
import { createFastSqliteStorage } from "./config/fast-sqlite-storage.js";
import { unselectedEvalFiles, selectedEvalFiles } from "./helpers/eval-selection.js";
import { fixtureWatchTrigger } from "./helpers/index-plan.js";
import { COMPILED_MODULE, COMPILED_SUITE_ENV, compiledSuitePlugin } from "./config/compiled-suite.js";
import { caseConcurrency } from "./helpers/targets/case-concurrency.js";

const ROOT = dirname(fileURLToPath(import.meta.url));
const COMPILED = process.env[COMPILED_SUITE_ENV] === "1";

export default defineConfig({
  testTimeout: 120_000,
  // Five cases at once; as many as another target takes calls at once (EVAL_TARGET_CONCURRENCY) when more.
  maxConcurrency: caseConcurrency(),
  trialCount: Number(process.env.EVAL_TRIALS ?? 1),
  cache: false,
  server: { port: Number(process.env.EVALITE_PORT ?? 3006) },
  // Evalite's SQLite storage with indexes, fewer syncs and lazily parsed reads (helpers/fast-sqlite-storage.ts).
  storage: () => createFastSqliteStorage(process.env.EVALITE_STORAGE ?? ".evalite/evalite.db"),
  // Evalite's list replaces Vitest's defaults, so they are kept explicitly. Engine source and prompt
  // files re-run every selected file in watch mode (a prompt file is not in the import graph).
  // Scorers and helpers are in the import graph, so Vitest re-runs just the files that import
  // them; fixtures are data, so `watchTriggerPatterns` below says which files read which fixture.
  forceRerunTriggers: [
    ...configDefaults.forceRerunTriggers,
    // Vitest matches these against absolute paths: a pattern needs a leading **/ to match.
    "**/packages/engine/src/**",
    "**/packages/engine/prompts/**",
  ],
  viteConfig: {
    plugins: COMPILED ? [compiledSuitePlugin(ROOT)] : [],
    test: {
      ...(COMPILED ? { server: { deps: { external: [COMPILED_MODULE] } }, execArgv: ["--conditions=compiled"] } : {}),
      // Builds the indexes the selected files measure, once per run (and re-indexes what changed
      // on watch-mode reruns).
      globalSetup: [COMPILED ? "./dist/helpers/global-setup.js" : "./helpers/global-setup.ts"],
      // Every eval file in one worker process: the engine, the scorers and the open indexes are
      // loaded once instead of once per file, each distinct engine call is computed once and
      // shared by every eval (helpers/run-cache.ts), and ranking calls run one at a time across
      // the whole run, so measured latencies are the engine's own.
      isolate: false,
      maxWorkers: 1,
      // An edited fixture re-runs the selected eval files that read it, and only those (helpers/index-plan.ts).
      watchTriggerPatterns: [fixtureWatchTrigger(ROOT, () => selectedEvalFiles(ROOT))],
      // A filter selects eval files by name (helpers/eval-selection.ts): Evalite's own path filter
      // matches substrings, and takes one string where a glob selects several files.
      exclude: [...configDefaults.exclude, ...unselectedEvalFiles(ROOT)],
    },
  },
});
