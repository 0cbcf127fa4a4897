/**
 * `pnpm eval`'s command line, parsed with node's `util.parseArgs`: our flags (kebab-case), the
 * flags of Evalite's runner that we pass on (camelCase, as `evalite run` spells them), and one
 * file filter. Anything else stops with one line before any eval runs (the `evalite` CLI took
 * about 20 s to reject an unknown flag, with status 252). `--threshold` and `--outputPath` are
 * Evalite's flags that the gate handles itself (see bin/eval.ts).
 */
import { join } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError, quoteInput } from "@hybrid-search/eval-gate";
import { parsePassMark } from "@hybrid-search/eval-gate/pass-marks";
import type { runEvalite } from "evalite/runner";
import { evalFiles } from "./index-plan.js";

export { evalFiles };

export const EVAL_USAGE = `Usage: pnpm eval [filter] [--update-baseline] [--lower-floor <eval|metric|slice> ...] [--accept-failure <suite|id> ...] [--reason "..."] [--pass-mark <metric>=<mark> ...] [--keep-report] [--threshold N] [--outputPath file] [--hideTable] [--noCache]

  filter                  run only eval files whose path contains it
  --update-baseline       raise the floors of this run's mode to what it achieved (less the tolerance), tighten its
                          latency ceilings (never below 3x the p95), record which cases pass; never lowers
  --lower-floor <pattern> lower the matched floors (loosen the matched ceilings, eval|p95 ms|slice) to this run's
                          results (repeatable; * matches any part); needs --reason
  --accept-failure <suite|id>  record the matched failing cases as known failures (a regression accepted;
                          repeatable; * matches any); needs --reason
  --reason "..."          why, logged in the baseline with date and commit
  --pass-mark <metric>=<mark>  the value at which a case's metric passes, for this run (repeatable; '*' sets the
                          default; the baseline's passMarks otherwise, 0.5 by default)
  --keep-report           write the report set to <reports>/kept/, which git does not ignore
  --threshold N           make Evalite's mean threshold (percent) binding for this run
  --outputPath file       also write this run's results there, as Evalite's JSON export
  --hideTable             Evalite: no table of cases after a run of one eval file
  --noCache               Evalite: cacheEnabled false (in 1.0.0-beta.16 only cache-hit reporting stops; the cache is still used)

Environment: EVAL_BASELINE (default evals/baseline.json), EVAL_REPORTS_DIR (default reports/),
EVAL_ENGINE_OPTIONS, EVAL_DATASET, EVALITE_STORAGE, EVALITE_PORT.`;

/** The options of Evalite's runner that its flags set. */
export type EvaliteRunOptions = Pick<Parameters<typeof runEvalite>[0], "hideTable" | "cacheEnabled">;

/**
 * Evalite's flags (those of `evalite run`) that `pnpm eval` passes on, and the runner option each
 * sets: typed against `runEvalite`'s options, so a flag can only name what the runner takes.
 */
const EVALITE_FLAGS = {
  hideTable: (options) => {
    options.hideTable = true;
  },
  noCache: (options) => {
    options.cacheEnabled = false;
  },
} satisfies Record<string, (options: EvaliteRunOptions) => void>;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  "update-baseline": { type: "boolean" },
  "lower-floor": { type: "string", multiple: true },
  "accept-failure": { type: "string", multiple: true },
  "pass-mark": { type: "string", multiple: true },
  reason: { type: "string" },
  "keep-report": { type: "boolean" },
  threshold: { type: "string" },
  outputPath: { type: "string" },
  hideTable: { type: "boolean" },
  noCache: { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

export interface EvalArgs {
  help: boolean;
  updateBaseline: boolean;
  lowerFloors: string[];
  /** `--accept-failure` patterns (`<suite>|<id>`). */
  acceptFailures: string[];
  /** `--pass-mark` values, parsed. */
  passMarks: Array<{ metric: string; mark: number }>;
  reason: string | null;
  keepReport: boolean;
  /** `--threshold`, in percent: binding when given. */
  threshold: number | null;
  outputPath: string | null;
  /** The file filter, when given. */
  filter: string | null;
  /** What Evalite's own flags set on its runner. */
  evalite: EvaliteRunOptions;
}

export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  checkTokens(argv);
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 1)
    throw new ConfigError(`one file filter at most (got ${quoteInput(positionals[0])} and ${quoteInput(positionals[1])})`);
  const evalite: EvaliteRunOptions = {};
  for (const flag of Object.keys(EVALITE_FLAGS) as Array<keyof typeof EVALITE_FLAGS>) if (values[flag]) EVALITE_FLAGS[flag](evalite);
  const args: EvalArgs = {
    help: values.help ?? false,
    updateBaseline: values["update-baseline"] ?? false,
    lowerFloors: values["lower-floor"] ?? [],
    acceptFailures: values["accept-failure"] ?? [],
    passMarks: (values["pass-mark"] ?? []).map(parsePassMark),
    reason: values.reason?.trim() ?? null,
    keepReport: values["keep-report"] ?? false,
    threshold: values.threshold === undefined ? null : percentage(values.threshold),
    outputPath: values.outputPath ?? null,
    filter: positionals[0] ?? null,
    evalite,
  };
  if (args.reason !== null && args.reason === "") throw new ConfigError(`--reason must not be empty`);
  if (args.lowerFloors.length > 0 && args.reason === null) throw new ConfigError(`--lower-floor needs --reason "why the floor may drop"`);
  if (args.acceptFailures.length > 0 && args.reason === null)
    throw new ConfigError(`--accept-failure needs --reason "why the case may fail"`);
  if (args.reason !== null && !args.updateBaseline && args.lowerFloors.length === 0 && args.acceptFailures.length === 0)
    throw new ConfigError(`--reason goes with --update-baseline, --lower-floor or --accept-failure`);
  return args;
}

/**
 * What the strict parse would refuse, said in one line of ours: an unknown flag (with the flag it
 * likely meant: `--no-cache` is `--noCache`), a flag without its value, a switch given a value.
 */
function checkTokens(argv: readonly string[]): void {
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const option = token.name in OPTIONS ? OPTIONS[token.name as keyof typeof OPTIONS] : undefined;
    const flag = quoteInput(token.rawName, { bare: true });
    if (!option) throw new ConfigError(`unknown flag ${flag}${suggestion(token.name)}; pnpm eval --help lists the flags`);
    if (option.type === "boolean" && token.value !== undefined) throw new ConfigError(`${flag} takes no value`);
    // A value that looks like a flag is a flag: `--lower-floor --reason x` lacks the pattern.
    if (option.type === "string" && (token.value === undefined || (!token.inlineValue && token.value.startsWith("-"))))
      throw new ConfigError(`${token.rawName} needs a value`);
  }
}

function suggestion(name: string): string {
  const normalized = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const meant = Object.keys(OPTIONS).find((known) => normalized(known) === normalized(name));
  return meant ? ` (did you mean --${meant}?)` : "";
}

function percentage(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
    throw new ConfigError(`--threshold must be a percentage from 0 to 100 (got ${quoteInput(raw, { bare: true })})`);
  return n;
}

/**
 * A filter that matches no eval file is a typo, and Evalite cannot take it: its runner throws
 * "No test files found" with its UI server still listening, so the run would never end.
 */
export function checkFilter(root: string, filter: string): void {
  const files = evalFiles(root);
  if (!files.some((f) => join(root, f).includes(filter)))
    throw new ConfigError(`no eval file matches ${quoteInput(filter)} (eval files: ${files.join(", ")})`);
}
