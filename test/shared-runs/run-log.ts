/**
 * The test run's log of the commands it spawned that run evals (`pnpm eval`, `evalite run`,
 * `pnpm eval:calibrate`): one JSON line each, in the file RUN_LOG_ENV names. The shared runs' global
 * setup names the file before any worker starts (workers inherit the environment), so the runs a
 * test makes itself and the shared ones land in one log, which `pnpm test` sums up at its end
 * (test/slowest-files.ts): the number of full runs is what makes the suite slow, so it is counted.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync, existsSync, readFileSync } from "node:fs";

export const RUN_LOG_ENV = "TEST_EVAL_RUNS_LOG";

export interface LoggedCommand {
  /** What ran, as a person would type it (`pnpm eval ask --dry-run`). */
  command: string;
  /** The shared configuration that ran it; absent for a run a test made itself. */
  configuration?: string;
  ms: number;
  code: number | null;
  signal?: NodeJS.Signals | null;
}

/** The shared configuration whose steps are running (set by the scheduler around them). */
export const runningConfiguration = new AsyncLocalStorage<string>();

/** Appends one command to the log, when the test run keeps one, naming the shared configuration that ran it. */
export function logCommand(entry: LoggedCommand): void {
  const file = process.env[RUN_LOG_ENV];
  const configuration = runningConfiguration.getStore();
  if (file) appendFileSync(file, `${JSON.stringify(configuration ? { ...entry, configuration } : entry)}\n`);
}

/** Every command logged so far. */
export function readLog(file: string): LoggedCommand[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LoggedCommand);
}
