/**
 * `pnpm eval:watch [filter] [--hideTable] [--noCache]`: Evalite's watch mode with its live UI, on
 * the eval files the filter selects by name (helpers/eval-selection.ts, as `pnpm eval`), which
 * `evalite watch <filter>` cannot do (its filter matches any path containing the string). Runs
 * Evalite's Node API in this process (`runEvalite`, mode "watch-for-file-changes": what
 * `evalite watch` runs), with the selection in EVAL_SELECTED_FILES for evalite.config.ts.
 *
 * Not gated: global setup prints so, and which `pnpm eval` command gives the verdict.
 * Exit status: 2 a bad argument, a filter that selects no eval file, or Evalite failing to start
 * (one line); otherwise the session runs until Evalite's `q` or Ctrl-C.
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import type { runEvalite } from "evalite/runner";
import { type CommandIo, processIo } from "./lib/cli-args.js";
import { type EvaliteRunOptions, parseWatchArgs, selectFiles, WATCH_USAGE } from "./lib/eval-args.js";
import { SELECTION_ENV } from "../helpers/eval-selection.js";
import { REPO_ROOT } from "../helpers/fixture-files.js";

/** Starts the watch session: Evalite's runner, imported only now (it loads vitest and vite). */
export type StartWatch = (options: Parameters<typeof runEvalite>[0]) => Promise<unknown>;

const startEvaliteWatch: StartWatch = async (options) => (await import("evalite/runner")).runEvalite(options);

/** Checks the command line and starts the session; returns 0 once it runs (the process stays up), 2 on a bad argument. */
export async function main(argv: string[], io: CommandIo = processIo(), start: StartWatch = startEvaliteWatch): Promise<number> {
  let selected: string[] | null;
  let evalite: EvaliteRunOptions;
  try {
    const args = parseWatchArgs(argv);
    if (args.help) {
      io.stdout(`${WATCH_USAGE}\n`);
      return 0;
    }
    selected = args.filter === null ? null : selectFiles(REPO_ROOT, args.filter);
    evalite = args.evalite;
    // The workers read it (helpers/model-cache.ts): every model call goes to the model.
    if (args.noCache) process.env.EVAL_CACHE = "off";
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`eval:watch: ${error.message}\n`);
    return 2;
  }
  // evalite.config.ts is loaded in this process: it reads the selection from the environment.
  if (selected === null) delete process.env[SELECTION_ENV];
  else process.env[SELECTION_ENV] = JSON.stringify(selected);
  try {
    await start({ mode: "watch-for-file-changes", cwd: REPO_ROOT, ...evalite });
  } catch (error) {
    // E.g. every port from server.port to three after it taken (patched Evalite binds, then says so).
    io.stderr(`eval:watch: Evalite could not start: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}\n`);
    return 2;
  }
  return 0;
}
