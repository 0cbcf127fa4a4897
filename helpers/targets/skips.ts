/**
 * An eval the run's target cannot run is skipped, said on the terminal, and reported: under
 * `pnpm eval` the eval files (in Vitest's worker) append each skip as one JSON line to the file
 * `EVAL_SKIPPED_FILE` names, which bin/eval.ts creates per run and reads back after the run
 * (`readSkippedEvals` of the gate checks each line), so that the report lists the skip and the
 * gate reports the eval's floors as skipped — never as missing, never as passed. Kept free of heavy
 * imports: bin/eval.ts loads it before Evalite.
 */
import { appendFileSync } from "node:fs";
import { type SkippedEval, skippedName } from "@hybrid-search/eval-gate/run-info";

/** The environment variable naming the file a gated run collects its skipped evals in. */
export const SKIPPED_FILE_ENV = "EVAL_SKIPPED_FILE";

/**
 * Records that an eval (or one variant of it) is skipped, and why, for the run's report when the
 * run is gated: its verdict then names every skipped eval with its reason, grouped, in one line.
 * Otherwise (`evalite run`, `pnpm eval:watch`) nothing else would say so: it is said here.
 */
export function reportSkip(skip: SkippedEval, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[SKIPPED_FILE_ENV];
  if (file) appendFileSync(file, `${JSON.stringify(skip)}\n`);
  else console.log(`eval: skipped "${skippedName(skip)}": ${skip.reason}`);
}
