/**
 * The run's own wall time. Evalite's summary prints "Duration", which is the longest single eval
 * case, not the run (it said 75 s for a 694 s run). In the process that runs Evalite (global setup
 * runs there, `pnpm eval` included), `labelEvaliteDuration` rewrites that summary line so that it
 * states the run's wall time and labels Evalite's figure as Evalite's:
 *
 *     Wall time  12.4 s (this run, from its start)
 *      Duration  3039ms (Evalite's: its longest eval case)
 *
 * A run starts when the process does (`pnpm eval`, `evalite run`, the first run of `evalite
 * watch`) or when a watch-mode rerun starts (`restartRunClock`).
 */

let runStart = 0;

/** Milliseconds since the process started (the clock of `performance.now()`). */
const sinceProcessStart = (): number => performance.now();

/** A watch-mode rerun starts now. */
export function restartRunClock(): void {
  runStart = sinceProcessStart();
}

/** Wall time of the current run so far, in seconds. */
export function runWallSeconds(): number {
  return (sinceProcessStart() - runStart) / 1000;
}

/** When this process started: a report's start, so its duration is the whole run's wall time. */
export function processStartedAt(): Date {
  return new Date(performance.timeOrigin);
}

/** Evalite's summary line `   Duration  3039ms` (its label wrapped in ANSI dim codes on a terminal). */
const EVALITE_DURATION = /^( *)(\S*?)Duration(\S*?) {2}(\d+)ms$/m;

/** The summary line rewritten: the run's wall time first, Evalite's figure labelled as its own. */
export function labelDurationLine(text: string, wallSeconds: number): string {
  return text.replace(
    EVALITE_DURATION,
    (_line, pad: string, dim: string, undim: string, ms: string) =>
      `${pad.slice(1)}${dim}Wall time${undim}  ${wallSeconds.toFixed(1)} s (this run, from its start)\n` +
      `${pad}${dim}Duration${undim}  ${ms}ms (Evalite's: its longest eval case)`,
  );
}

let installed = false;

/** Rewrites Evalite's "Duration" line wherever this process writes it to stdout (installed once). */
export function labelEvaliteDuration(stream: NodeJS.WriteStream = process.stdout): void {
  if (installed) return;
  installed = true;
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(
      typeof chunk === "string" && chunk.includes("Duration") ? labelDurationLine(chunk, runWallSeconds()) : chunk,
      ...rest,
    )) as typeof stream.write;
}
