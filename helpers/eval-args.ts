/**
 * `pnpm eval`'s command line: our flags (kebab-case) are taken out, Evalite's (camelCase) and the
 * file filter go through to `evalite run`. `--threshold` and `--outputPath` are Evalite's flags
 * that the wrapper handles itself (see bin/eval.ts).
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";

export const EVAL_USAGE = `Usage: pnpm eval [filter] [--update-baseline] [--lower-floor <eval|metric|slice> ...] [--reason "..."] [--keep-report] [--threshold N] [--outputPath file] [evalite flags]

  filter                  run only eval files whose path contains it
  --update-baseline       raise the floors of this run's mode to what it achieved (less the tolerance); never lowers
  --lower-floor <pattern> lower the matched floors to this run's results (repeatable; * matches any part); needs --reason
  --reason "..."          why, logged in the baseline with date and commit
  --keep-report           write the report set to <reports>/kept/, which git does not ignore
  --threshold N           make Evalite's mean threshold (percent) binding for this run
  --outputPath file       also keep Evalite's own JSON results there

Environment: EVAL_BASELINE (default evals/baseline.json), EVAL_REPORTS_DIR (default reports/),
EVAL_ENGINE_OPTIONS, EVAL_DATASET, EVALITE_STORAGE, EVALITE_PORT.`;

export interface EvalArgs {
  help: boolean;
  updateBaseline: boolean;
  lowerFloors: string[];
  reason: string | null;
  keepReport: boolean;
  /** `--threshold`, in percent: binding when given. */
  threshold: number | null;
  outputPath: string | null;
  /** The file filter, when given. */
  filter: string | null;
  /** What goes to `evalite run`: the filter and Evalite's other flags. */
  evaliteArgs: string[];
}

export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const args: EvalArgs = {
    help: false,
    updateBaseline: false,
    lowerFloors: [],
    reason: null,
    keepReport: false,
    threshold: null,
    outputPath: null,
    filter: null,
    evaliteArgs: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith("--"))) throw new ConfigError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--help":
      case "-h":
        args.help = true;
        break;
      case "--update-baseline":
        args.updateBaseline = true;
        break;
      case "--lower-floor":
        args.lowerFloors.push(value());
        break;
      case "--reason":
        args.reason = value().trim();
        break;
      case "--keep-report":
        args.keepReport = true;
        break;
      case "--threshold": {
        const raw = value();
        const n = Number(raw);
        if (raw.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
          throw new ConfigError(`--threshold must be a percentage from 0 to 100 (got ${raw})`);
        args.threshold = n;
        break;
      }
      case "--outputPath":
        args.outputPath = value();
        break;
      default:
        if (!arg.startsWith("-")) {
          if (args.filter !== null) throw new ConfigError(`one file filter at most (got "${args.filter}" and "${arg}")`);
          args.filter = arg;
        }
        args.evaliteArgs.push(arg);
    }
  }
  if (args.reason !== null && args.reason === "") throw new ConfigError(`--reason must not be empty`);
  if (args.lowerFloors.length > 0 && args.reason === null) throw new ConfigError(`--lower-floor needs --reason "why the floor may drop"`);
  if (args.reason !== null && !args.updateBaseline && args.lowerFloors.length === 0)
    throw new ConfigError(`--reason goes with --update-baseline or --lower-floor`);
  return args;
}

/** Eval files Evalite would pick up (`**\/*.eval.?(m)ts`, outside node_modules), relative to `root`. */
export function evalFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.eval\.m?ts$/.test(entry.name)) out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/** A filter that matches no eval file is a typo: Evalite would wait forever on it. */
export function checkFilter(root: string, filter: string): void {
  const files = evalFiles(root);
  if (!files.some((f) => join(root, f).includes(filter)))
    throw new ConfigError(`no eval file matches "${filter}" (eval files: ${files.join(", ")})`);
}
