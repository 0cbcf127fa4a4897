/**
 * `pnpm eval`'s and `pnpm eval:watch`'s command lines, parsed with node's `util.parseArgs`: our
 * flags (kebab-case), the flags of Evalite's runner that we pass on (camelCase, as `evalite run`
 * spells them), and one file filter (helpers/eval-selection.ts). Anything else stops with one
 * line before any eval runs (the `evalite` CLI took about 20 s to reject an unknown flag, with
 * status 252). `--threshold` and `--outputPath` are Evalite's flags that the gate handles itself
 * (see bin/eval.ts).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError, quoteInput } from "@hybrid-search/eval-gate";
import { parsePassMark } from "@hybrid-search/eval-gate/pass-marks";
import type { runEvalite } from "evalite/runner";
import { evalNames, selectEvalFiles } from "../../helpers/eval-selection.js";
import { dollarAmount } from "../../helpers/models.js";
import { joinNegativeValues } from "./cli-args.js";
import { evalFiles } from "../../helpers/index-plan.js";

export { evalFiles };

const FILTER_HELP = `  filter                  the eval file named so (search: evals/search.eval.ts only), a glob over names
                          ('*search': search and vsearch) or an eval file's path; all eval files without one`;

export const EVAL_USAGE = `Usage: pnpm eval [filter] [--verbose] [--explain-target] [--update-baseline] [--lower-floor <eval|metric|slice> ...] [--accept-failure <suite|id> ...] [--reason "..."] [--pass-mark <metric>=<mark> ...] [--keep-report] [--trials N] [--max-flip-rate R] [--dry-run] [--max-cost AMOUNT] [--no-cache] [--threshold N] [--outputPath file] [--hideTable] [--noCache]

${FILTER_HELP}
  --verbose               print Evalite's own output as it comes: its start and summary lines, the console
                          lines of the evals, and its table of cases after a run of one eval file
  --explain-target        print how the run would call its target (EVAL_TARGET, EVAL_TARGET_ADAPTER, EVAL_RUN_DIR or the
                          in-process engine): the request for one query and one question, credentials redacted; runs no eval
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
  --trials N              run every case N times: per case the spread and whether it flips, per judged metric and
                          method the flip rate; a judged metric flipping on more than --max-flip-rate of its cases
                          is unstable and fails the run (default 1)
  --max-flip-rate R       the flip rate (0..1) above which a judged metric is unstable (default 0.1)
  --dry-run               make no model call: run every eval with placeholder replies and print the calls per role and
                          model it would make, with estimated tokens and cost; scores nothing, writes nothing
  --max-cost AMOUNT       a budget in dollars: a model call whose estimated cost would pass it is not made, and the run
                          fails saying so, keeping what was scored (every model needs a price: evals/model-prices.json,
                          EVAL_PRICES)
  --no-cache              every model call goes to the model: the model cache is neither read nor written (EVAL_CACHE=off)
  --threshold N           make Evalite's mean over every score (percent) part of the verdict for this run
  --outputPath file       also write this run's results there, as Evalite's JSON export
  --hideTable             Evalite: no table of cases, even with --verbose
  --noCache               Evalite's spelling of --no-cache: also Evalite's cacheEnabled false

Environment: EVAL_BASELINE (default evals/baseline.json), EVAL_REPORTS_DIR (default reports/),
EVAL_ENGINE_OPTIONS, EVAL_DATASET, EVAL_TARGET and its companions (docs/targets.md), EVALITE_STORAGE, EVALITE_PORT, EVAL_CACHE (off), EVAL_CACHE_FILE, EVAL_PRICES.`;

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
  verbose: { type: "boolean" },
  "explain-target": { type: "boolean" },
  "update-baseline": { type: "boolean" },
  "lower-floor": { type: "string", multiple: true },
  "accept-failure": { type: "string", multiple: true },
  "pass-mark": { type: "string", multiple: true },
  reason: { type: "string" },
  "keep-report": { type: "boolean" },
  trials: { type: "string" },
  "max-flip-rate": { type: "string" },
  "dry-run": { type: "boolean" },
  "max-cost": { type: "string" },
  "no-cache": { type: "boolean" },
  threshold: { type: "string" },
  outputPath: { type: "string" },
  hideTable: { type: "boolean" },
  noCache: { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

/** The one file filter, if any. */
function oneFilter(positionals: readonly string[]): string | null {
  if (positionals.length > 1)
    throw new ConfigError(`one file filter at most (got ${quoteInput(positionals[0])} and ${quoteInput(positionals[1])})`);
  return positionals[0] ?? null;
}

/** What Evalite's flags among `values` set on its runner. */
function evaliteOptions(values: { hideTable?: boolean; noCache?: boolean }): EvaliteRunOptions {
  const options: EvaliteRunOptions = {};
  for (const flag of Object.keys(EVALITE_FLAGS) as Array<keyof typeof EVALITE_FLAGS>) if (values[flag]) EVALITE_FLAGS[flag](options);
  return options;
}

export interface EvalArgs {
  help: boolean;
  /** `--verbose`: Evalite's own output, table included; otherwise one line per eval file (bin/eval.ts). */
  verbose: boolean;
  /** `--explain-target`: print how the target would be called, run nothing (bin/lib/explain-target.ts). */
  explainTarget: boolean;
  updateBaseline: boolean;
  lowerFloors: string[];
  /** `--accept-failure` patterns (`<suite>|<id>`). */
  acceptFailures: string[];
  /** `--pass-mark` values, parsed. */
  passMarks: Array<{ metric: string; mark: number }>;
  reason: string | null;
  keepReport: boolean;
  /** `--trials N`: Evalite's trial count for this run. */
  trials: number;
  /** `--max-flip-rate`: the flip rate above which a judged metric is unstable; null for the default. */
  maxFlipRate: number | null;
  /** `--dry-run`: no model call; the calls are counted and estimated. */
  dryRun: boolean;
  /** `--max-cost`, in dollars; null for no budget. */
  maxCost: number | null;
  /** `--no-cache` (or `--noCache`): the model cache is neither read nor written. */
  noCache: boolean;
  /** `--threshold`, in percent: binding when given. */
  threshold: number | null;
  outputPath: string | null;
  /** The file filter, when given. */
  filter: string | null;
  /** What Evalite's own flags set on its runner. */
  evalite: EvaliteRunOptions;
}

export function parseEvalArgs(given: readonly string[]): EvalArgs {
  const argv = joinNegativeValues(given, OPTIONS);
  checkTokens(argv, OPTIONS, "pnpm eval");
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  const filter = oneFilter(positionals);
  const evalite = evaliteOptions(values);
  const args: EvalArgs = {
    help: values.help ?? false,
    verbose: values.verbose ?? false,
    explainTarget: values["explain-target"] ?? false,
    updateBaseline: values["update-baseline"] ?? false,
    lowerFloors: values["lower-floor"] ?? [],
    acceptFailures: values["accept-failure"] ?? [],
    passMarks: (values["pass-mark"] ?? []).map(parsePassMark),
    reason: values.reason?.trim() ?? null,
    keepReport: values["keep-report"] ?? false,
    trials: values.trials === undefined ? 1 : countOf("--trials", values.trials),
    maxFlipRate: values["max-flip-rate"] === undefined ? null : shareOf("--max-flip-rate", values["max-flip-rate"]),
    dryRun: values["dry-run"] ?? false,
    maxCost: values["max-cost"] === undefined ? null : amountOf("--max-cost", values["max-cost"]),
    noCache: (values["no-cache"] ?? false) || (values.noCache ?? false),
    threshold: values.threshold === undefined ? null : percentage(values.threshold),
    outputPath: values.outputPath ?? null,
    filter,
    evalite,
  };
  if (args.reason !== null && args.reason === "") throw new ConfigError(`--reason must not be empty`);
  if (args.dryRun && (args.updateBaseline || args.lowerFloors.length > 0 || args.acceptFailures.length > 0))
    throw new ConfigError(
      `--dry-run scores nothing, so it cannot change the baseline (drop --update-baseline, --lower-floor, --accept-failure)`,
    );
  if (args.dryRun && args.maxCost !== null)
    throw new ConfigError(`--dry-run makes no call, so --max-cost has nothing to hold: use one or the other`);
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
function checkTokens(argv: readonly string[], options: ParseArgsConfig["options"] & {}, command: string): void {
  const { tokens } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const option = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    const flag = quoteInput(token.rawName, { bare: true });
    if (!option) throw new ConfigError(`unknown flag ${flag}${suggestion(token.name, options)}; ${command} --help lists the flags`);
    if (option.type === "boolean" && token.value !== undefined) throw new ConfigError(`${flag} takes no value`);
    // A value that looks like a flag is a flag: `--lower-floor --reason x` lacks the pattern.
    if (option.type === "string" && (token.value === undefined || (!token.inlineValue && token.value.startsWith("-"))))
      throw new ConfigError(`${token.rawName} needs a value`);
  }
}

function suggestion(name: string, options: ParseArgsConfig["options"] & {}): string {
  const normalized = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  const meant = Object.keys(options).find((known) => normalized(known) === normalized(name));
  return meant ? ` (did you mean --${meant}?)` : "";
}

function countOf(flag: string, raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1 || n > 100)
    throw new ConfigError(`${flag} must be a whole number from 1 to 100 (got ${quoteInput(raw, { bare: true })})`);
  return n;
}

function shareOf(flag: string, raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1)
    throw new ConfigError(`${flag} must be a share from 0 to 1 (got ${quoteInput(raw, { bare: true })})`);
  return n;
}

function amountOf(flag: string, raw: string): number {
  return dollarAmount(flag, raw);
}

function percentage(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
    throw new ConfigError(`--threshold must be a percentage from 0 to 100 (got ${quoteInput(raw, { bare: true })})`);
  return n;
}

/**
 * The eval files `filter` selects (helpers/eval-selection.ts), relative to `root`. One that selects
 * none is a typo, and Evalite cannot take it: its runner throws "No test files found" with its UI
 * server still listening, so the run would never end.
 */
export function selectFiles(root: string, filter: string): string[] {
  const files = evalFiles(root);
  const selected = selectEvalFiles(root, files, filter);
  if (selected.length === 0)
    throw new ConfigError(
      `no eval file is named ${quoteInput(filter)} (eval names: ${evalNames(files).join(", ")}; a glob such as '*search' selects several)`,
    );
  return selected;
}

export const WATCH_USAGE = `Usage: pnpm eval:watch [filter] [--hideTable] [--no-cache]

${FILTER_HELP}
  --hideTable             Evalite: no table of cases after a run of one eval file
  --no-cache              every model call goes to the model: the model cache is neither read nor written
  --noCache               Evalite's spelling of --no-cache: also Evalite's cacheEnabled false

Watch mode is not gated: no floors, ceilings or case verdicts (pnpm eval gives the verdict).
Environment: EVAL_ENGINE_OPTIONS, EVAL_DATASET, EVALITE_STORAGE, EVALITE_PORT.`;

const WATCH_OPTIONS = {
  help: { type: "boolean", short: "h" },
  hideTable: { type: "boolean" },
  noCache: { type: "boolean" },
  "no-cache": { type: "boolean" },
} as const satisfies ParseArgsConfig["options"];

export interface WatchArgs {
  help: boolean;
  filter: string | null;
  evalite: EvaliteRunOptions;
  /** `--no-cache` (or `--noCache`): the model cache is neither read nor written. */
  noCache: boolean;
}

/** `pnpm eval:watch`'s command line: a filter and Evalite's flags; a gate's flag is refused, saying where it belongs. */
export function parseWatchArgs(argv: readonly string[]): WatchArgs {
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const evalOnly = tokens.find((t) => t.kind === "option" && Object.hasOwn(OPTIONS, t.name) && !Object.hasOwn(WATCH_OPTIONS, t.name));
  if (evalOnly?.kind === "option")
    throw new ConfigError(`${evalOnly.rawName} is pnpm eval's flag: watch mode is not gated and writes no report`);
  checkTokens(argv, WATCH_OPTIONS, "pnpm eval:watch");
  const { values, positionals } = parseArgs({ args: [...argv], options: WATCH_OPTIONS, allowPositionals: true, strict: true });
  const filter = oneFilter(positionals);
  const evalite = evaliteOptions(values);
  return { help: values.help ?? false, filter, evalite, noCache: (values["no-cache"] ?? false) || (values.noCache ?? false) };
}
