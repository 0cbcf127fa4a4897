/**
 * What `pnpm eval` (bin/eval.ts, bin/eval-verdict.ts) writes to besides Evalite, and its one way
 * of reporting bad input: one line on stderr, exit status 2.
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import { type CommandIo, processIo } from "./lib/cli-args.js";
import { DatasetError } from "../helpers/dataset.js";
import { formatFixtureError, isFixtureError } from "../helpers/fixture-files/errors.js";

/**
 * What `pnpm eval` writes to besides Evalite (which prints to the process's own streams and reads its
 * environment, as this command does).
 */
export interface EvalIo extends CommandIo {
  /** Ends the process now: the one way out when Evalite throws with its UI server still listening. */
  exit(status: number): never;
}

/** The running process's streams and exit (bin/entry/eval.ts). */
export function processEvalIo(): EvalIo {
  return { ...processIo(), exit: (status) => process.exit(status) };
}

/** One line on stderr, exit status 2. */
export function configError(error: unknown, io: EvalIo): number {
  const known = isFixtureError(error) || error instanceof DatasetError || error instanceof ConfigError;
  if (!known) throw error;
  io.stderr(`eval: ${isFixtureError(error) ? formatFixtureError(error) : (error as Error).message}\n`);
  return 2;
}
