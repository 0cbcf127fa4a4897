/**
 * What `pnpm eval` shows of Evalite's terminal output. Evalite prints to the process's stdout from
 * the same process (its reporter, Vitest's relay of the evals' console lines, its runner's port
 * message, global setup's lines); `pnpm eval` passes every line through `evaliteLineKind` and
 * drops what would mislead or bury the verdict:
 *
 * - always: Evalite's "Threshold 70% (passed)" (the gate's verdict decides; its block names what
 *   did), the runner's "Port 3006 unavailable, using port 3007" (`pnpm eval` offers no UI and
 *   binds no port, helpers/evalite-socket.ts, so the line cannot concern it), and Vitest's
 *   `stdout | <file> > <suite>` header above an eval's console line: for concurrent evals Vitest
 *   names the test that started last, not the one that printed (the ja/ko lines of the CJK lane
 *   came under "CJK lane [zh-hans]"), so each such line names its suite itself
 *   (helpers/summary-line.ts);
 * - unless `--verbose`: blank lines, Evalite's banner, its summary block (Score, Eval Files,
 *   Evals, Wall time, Duration: the gate's block says it), and each file's start line, so a file
 *   shows as one line once scored. On a terminal the start line stays until that line replaces it
 *   (progress while a long file runs); in a log it is left out.
 *
 * Evalite's table of cases is not filtered here: `pnpm eval` hides it through the runner's
 * `hideTable` unless `--verbose`. Anything not recognised is passed through.
 */

import { stripVTControlCharacters } from "node:util";

/** What a line of Evalite's output is, judged on its text without ANSI colours. */
export type EvaliteLineKind =
  | "blank"
  | "banner"
  | "file-start"
  | "file-done"
  | "summary"
  | "threshold"
  | "port"
  | "console-header"
  | "other";

/** Text without its ANSI colour and cursor codes. */
export const stripAnsi = stripVTControlCharacters;

const KINDS: Array<[Exclude<EvaliteLineKind, "blank" | "other">, RegExp]> = [
  ["banner", /^ ?EVALITE (running\.\.\.|running on )/],
  ["file-start", /^ ⏳ \S.* {2}\((\d+|unknown) evals?\)$/],
  ["file-done", /^ (\d+%|✖|-) \S.* {2}\((\d+|unknown) evals?\)$/],
  ["threshold", /^ {2}Threshold {2}\S/],
  ["summary", /^ *(Score|Eval Files|Evals|Wall time|Duration) {2}\S/],
  ["port", /^Port \d+ unavailable, using port \d+$/],
  ["console-header", /^(stdout|stderr) \| \S/],
];

export function evaliteLineKind(line: string): EvaliteLineKind {
  const text = stripAnsi(line);
  if (text.trim() === "") return "blank";
  return KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? "other";
}

/** Dropped in every `pnpm eval` run. */
const ALWAYS_DROPPED = new Set<EvaliteLineKind>(["threshold", "port", "console-header"]);
/** Dropped unless `--verbose`. */
const QUIET_DROPPED = new Set<EvaliteLineKind>(["blank", "banner", "summary"]);

export interface TerminalOptions {
  verbose: boolean;
  /** A terminal, where a line can be replaced: a file's start line shows until the file is done. */
  tty: boolean;
}

const CLEAR_LINE = "\r\x1b[2K";

/**
 * A line filter over a stream of text chunks: whole lines go to `write` (a chunk's unfinished
 * last line waits for its end). `end()` writes what is left.
 */
export class EvaliteTerminal {
  private pending = "";
  /** The start line on screen without its newline (a terminal only). */
  private transient: string | null = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: TerminalOptions,
  ) {}

  push(chunk: string): void {
    const lines = (this.pending + chunk).split("\n");
    this.pending = lines.pop()!;
    for (const line of lines) this.line(line);
  }

  end(): void {
    if (this.pending !== "") this.line(this.pending);
    this.pending = "";
    // A file that never finished keeps its start line: it says what was running.
    if (this.transient !== null) this.write("\n");
    this.transient = null;
  }

  private line(line: string): void {
    const kind = evaliteLineKind(line);
    if (ALWAYS_DROPPED.has(kind)) return;
    if (this.options.verbose) {
      this.write(`${line}\n`);
      return;
    }
    if (QUIET_DROPPED.has(kind)) return;
    const shown = this.transient;
    if (shown !== null) this.write(CLEAR_LINE);
    if (kind === "file-start") {
      this.transient = this.options.tty ? line : null;
      if (this.transient !== null) this.write(line);
      return;
    }
    this.write(`${line}\n`);
    // Another line came while a file runs: its start line goes back under it.
    if (kind === "file-done") this.transient = null;
    else if (shown !== null) this.write(shown);
  }
}

/**
 * Routes everything written to `stream` through an EvaliteTerminal until `restore()` (which writes
 * what is left and puts the stream's own write back).
 */
export function filterEvaliteOutput(stream: NodeJS.WriteStream, options: TerminalOptions): { restore(): void } {
  const original = stream.write;
  const terminal = new EvaliteTerminal((text) => original.call(stream, text), options);
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    terminal.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof stream.write;
  return {
    restore: () => {
      terminal.end();
      stream.write = original;
    },
  };
}

/**
 * What `pnpm eval` shows of what Evalite's run prints on stderr: a case whose target call failed
 * makes Vitest print its error, which for a target failure is one line (`TargetError: POST /ask:
 * HTTP 500: …`, helpers/targets/target.ts) and a separator. Unless `--verbose`, each distinct such
 * line is shown once, the first time, without its separator, and at most `SHOWN_FAILURES` of them
 * (a service that is down fails every case, each with its own URL); the rest are counted in one
 * line at the end (the verdict counts the cases too: `"the task threw: TargetError: …" ×164`).
 * Anything else passes through.
 */
/** How many distinct target failures `pnpm eval` shows before it only counts them. */
export const SHOWN_FAILURES = 10;

export class EvaliteErrors {
  private pending = "";
  private readonly seen = new Set<string>();
  /** The last line was a target failure's: its separator and serialized fields follow. */
  private inTargetError = false;
  /** Repeats of a target failure's line that were dropped. */
  dropped = 0;
  /** Distinct target failures past the first SHOWN_FAILURES, not shown. */
  unshown = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: Pick<TerminalOptions, "verbose">,
  ) {}

  push(chunk: string): void {
    const lines = (this.pending + chunk).split("\n");
    this.pending = lines.pop()!;
    for (const line of lines) this.line(line);
  }

  end(): void {
    if (this.pending !== "") this.line(this.pending);
    this.pending = "";
    if (this.unshown > 0)
      this.write(
        `eval: ${this.unshown} more distinct target failure(s) not shown (pnpm eval --verbose shows every case's; the report names each errored case)\n`,
      );
    this.unshown = 0;
  }

  private line(line: string): void {
    if (this.options.verbose) {
      this.write(`${line}\n`);
      return;
    }
    const text = stripAnsi(line).trim();
    if (text.startsWith("TargetError: ")) {
      this.inTargetError = true;
      if (this.seen.has(text)) {
        this.dropped++;
        return;
      }
      this.seen.add(text);
      if (this.seen.size > SHOWN_FAILURES) {
        this.unshown++;
        return;
      }
      this.write(`${line}\n`);
      return;
    }
    if (this.inTargetError && (/^⎯+$/.test(text) || text.startsWith("Serialized Error:") || text === "")) return;
    this.inTargetError = false;
    this.write(`${line}\n`);
  }
}

/** Routes everything written to `stream` (stderr) through EvaliteErrors until `restore()`. */
export function filterEvaliteErrors(stream: NodeJS.WriteStream, options: Pick<TerminalOptions, "verbose">): { restore(): void } {
  const original = stream.write;
  const errors = new EvaliteErrors((text) => original.call(stream, text), options);
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    errors.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof stream.write;
  return {
    restore: () => {
      errors.end();
      stream.write = original;
    },
  };
}
