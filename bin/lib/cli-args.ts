/**
 * The one argument style of the suite's command-line tools (bin/, bench/): node's `util.parseArgs`,
 * strict, so an unknown option, a missing value or an unexpected positional is an error. A bad
 * argument is one line, `<command>: <problem>; Usage: …`, and exit status 2, never a stack trace.
 * (The packages' own benches follow the same style with their own few lines: a package imports
 * nothing outside itself.)
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

/** A bad command-line argument; its message is one line and ends with the usage where that helps. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * `argv` with a negative number given to a flag that takes a value joined to it (`--trials -1` →
 * `--trials=-1`): `util.parseArgs` reads `-1` as a flag ("argument is ambiguous"), and the flag's
 * own check then says what is wrong with the number, not that it "needs a value".
 */
export function joinNegativeValues(argv: readonly string[], options: ParseArgsConfig["options"] = {}): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    const next = argv[i + 1];
    if (
      name !== undefined &&
      Object.hasOwn(options, name) &&
      options[name]!.type === "string" &&
      next !== undefined &&
      /^-(\d|\.\d)/.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Strict `util.parseArgs`; whatever it rejects becomes a UsageError of one line with the usage appended. */
export function parseCommandLine<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs({ ...config, args: joinNegativeValues(config.args ?? process.argv.slice(2), config.options) } as T);
  } catch (error) {
    throw new UsageError(`${(error as Error).message.replace(/\s*\n\s*/g, " ")}; ${usage}`);
  }
}

/** A flag's value as an integer ≥ 1, or `fallback` when the flag was not given. */
export function positiveInteger(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${flag} must be a positive integer, got "${value}"`);
  return n;
}

/** What a command's `main` writes to: the process's streams when run, collected ones in a test. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The running process's stdout and stderr (bin/entry/). */
export function processIo(): CommandIo {
  return { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };
}

/** For a script's top level: runs `read` (the argument handling); a UsageError prints one line and exits 2. */
export function argumentsOrExit<T>(command: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${command}: ${error.message}\n`);
    process.exit(2);
  }
}

/**
 * A benchmark's one count flag (`pnpm <command> [--<flag> N]`), or its default; a bad value or an
 * unknown flag prints one line with the usage and exits 2.
 */
export function countFlagOrExit(command: string, flag: string, fallback: number): number {
  return argumentsOrExit(command, () => {
    const { values } = parseCommandLine({ options: { [flag]: { type: "string" } } }, `Usage: pnpm ${command} [--${flag} N]`);
    return positiveInteger(flag, values[flag] as string | undefined, fallback);
  });
}
