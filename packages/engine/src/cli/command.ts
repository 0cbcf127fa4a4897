/**
 * What every command of the engine's command line shares: the option table `parseArgs` reads,
 * the shape of a command (the options it takes, its arguments, its run), usage mistakes, and the
 * parsers of option values. Each command is one module beside this one; cli.ts lists them.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { Engine } from "../engine.js";
import { quoteInput } from "../errors.js";
import { TIERS, type EngineOptions, type SearchOptions, type Tier } from "../types.js";

/** A mistake in the command line: printed as one line, exit status 2. */
export class UsageError extends Error {}

/** Every option of every command; each command names the ones it takes. */
export const OPTIONS = {
  db: { type: "string" },
  collection: { type: "string" },
  language: { type: "string" },
  limit: { type: "string" },
  tier: { type: "string" },
  mode: { type: "string" },
  preset: { type: "string" },
  batch: { type: "string" },
  out: { type: "string" },
  tag: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  concurrency: { type: "string" },
  "max-body": { type: "string" },
  "max-documents-body": { type: "string" },
  name: { type: "string" },
  json: { type: "boolean" },
  "as-of": { type: "string" },
  "include-superseded": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];

export type OptionName = Exclude<keyof typeof OPTIONS, "help">;
export type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

/** What the command line touches of its process: its output streams and its environment. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** A parsed and checked command line, as a command gets it. */
export interface CommandLine {
  values: Values;
  /** The arguments after the command's name: as many as it takes. */
  args: string[];
  io: CliIo;
  /** The models the environment selects (docs/engine.md, Models). */
  models: EngineOptions;
  /** `--limit`, checked. */
  limit: number | undefined;
  /** The retrieval filters: `--collection`, `--language`, `--as-of`, `--include-superseded`. */
  filters: Pick<SearchOptions, "collection" | "language" | "asOf" | "includeSuperseded">;
}

export interface Command {
  /** The options it takes besides --help. */
  readonly options: readonly OptionName[];
  /** How many arguments it takes, and the mistake a different count is. */
  arguments(values: Values): { count: 0 | 1; mistake: string };
  /** Whether it runs without --db. @default false */
  readonly dbOptional?: boolean;
  /** Checks of its options beyond their own values, before anything is opened. */
  check?(values: Values): void;
  run(line: CommandLine): Promise<number>;
}

/** The argument rule of a command that takes one: a query, a question, a folder or a file. */
export const oneArgument = (command: string) => (): { count: 1; mistake: string } => ({
  count: 1,
  mistake: `"${command}" takes exactly one argument (quote a query with spaces)`,
});

/** The argument rule of a command that takes none. */
export const noArguments = (command: string) => (): { count: 0; mistake: string } => ({
  count: 0,
  mistake: `"${command}" takes no arguments besides its options`,
});

/** A command run on the open index at --db, closed when it ends. */
export function onIndex(run: (engine: Engine, line: CommandLine) => Promise<number>): (line: CommandLine) => Promise<number> {
  return async (line) => {
    const engine = Engine.open(line.values.db!, line.models);
    try {
      return await run(engine, line);
    } finally {
      engine.close();
    }
  };
}

export function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError(`--limit must be an integer from 1 to 10000, got ${quoteInput(value)}`);
  return n;
}

export function parseTier(value: string | undefined): Tier {
  if (value === undefined) return "balanced";
  if (!(TIERS as readonly string[]).includes(value))
    throw new UsageError(`--tier must be one of ${TIERS.join(", ")}, got ${quoteInput(value)}`);
  return value as Tier;
}

export function parseCount(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${quoteInput(value)}`);
  return n;
}

/** `--out` must name a file in an existing folder. */
export function checkWritable(file: string): void {
  const dir = dirname(resolve(file));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--out ${file}: folder ${dirname(file)} does not exist`);
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`--out ${file}: is a folder; give the path of a file`);
}
