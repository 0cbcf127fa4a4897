/**
 * `pnpm trec-eval [-q] [-c] [-n] [-l N] [-M N] [-N N] [-m measure[.params]]... <qrels> <run>`
 *
 * trec_eval 10.0's command line for the measures in registry.ts. Options follow
 * getopt: `-l2` and `-l 2`, `-mP.5` and `-m P.5`, clustered flags (`-qc`), options after the
 * file names. Every failure is one line on stderr, `trec-eval: <file>:<line>: <problem>` for bad
 * input; exit status 2 for usage and input errors, 1 for a bug. A message quotes at most 200
 * characters of what it complains about (an option, a line, an id).
 */
import { FormatError, quote } from "./formats/format-error.js";
import { MeasureSpecError, parseMeasureArg, type MeasureRequest } from "./measure-spec.js";
import { describeAllowed, MEASURES, PRESETS } from "./registry.js";
import { trecEval, type TrecEvalOptions } from "./trec-eval.js";
import { MAX_GRADE } from "./types.js";

class UsageError extends Error {}

const USAGE = "usage: trec-eval [-h] [-q] [-c] [-n] [-l level] [-M depth] [-N docs] [-m measure[.params]]... <qrels> <run>";

const WITH_ARGUMENT = new Set(["m", "l", "M", "N", "R", "T"]);
const FLAGS = new Set(["h", "q", "c", "n", "v"]);
const UNSUPPORTED: Record<string, string> = {
  J: "-J (judged documents only) is not supported",
  Z: "-Z (z-scores) is not supported",
  D: "-D (debug output) is not supported",
  o: "-o (old output format) is not supported",
};

interface Parsed extends TrecEvalOptions {
  readonly help: boolean;
  readonly version: boolean;
}

/**
 * An integer option within [min, max]. trec_eval reads these with atol (no check at all); -l is
 * capped at the largest grade a qrels line may hold, -M and -N at the largest integer a double
 * holds exactly.
 */
function integerOption(flag: string, text: string, min: number, max: number): number {
  if (!/^[+-]?\d+$/.test(text)) throw new UsageError(`-${flag} expects an integer, got '${quote(text)}'`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`-${flag} must be from ${min} to ${max}, got ${quote(text)}`);
  return value;
}

export function parseArgs(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const measures: MeasureRequest[] = [];
  let perTopic = false;
  let complete = false;
  let summary = true;
  let help = false;
  let version = false;
  let relevanceLevel = 1;
  let maxDepth = Infinity;
  let numDocsInCollection = 0;
  const longNames: Record<string, string> = {
    help: "h",
    version: "v",
    query_eval_wanted: "q",
    complete_rel_info_wanted: "c",
    nosummary: "n",
    measure: "m",
    level_for_rel: "l",
    Max_retrieved_per_topic: "M",
    Number_docs_in_coll: "N",
  };

  const apply = (flag: string, value: string | undefined): void => {
    switch (flag) {
      case "h":
        help = true;
        break;
      case "v":
        version = true;
        break;
      case "q":
        perTopic = true;
        break;
      case "c":
        complete = true;
        break;
      case "n":
        summary = false;
        break;
      case "m":
        measures.push(parseMeasureArg(value!));
        break;
      case "l":
        relevanceLevel = integerOption("l", value!, 0, MAX_GRADE);
        break;
      case "M":
        maxDepth = integerOption("M", value!, 1, Number.MAX_SAFE_INTEGER);
        break;
      case "N":
        numDocsInCollection = integerOption("N", value!, 0, Number.MAX_SAFE_INTEGER);
        break;
      case "R":
        if (value !== "qrels") throw new UsageError(`-R ${quote(value ?? "")}: only the 'qrels' rel_info format is supported`);
        break;
      case "T":
        if (value !== "trec_results") throw new UsageError(`-T ${quote(value ?? "")}: only the 'trec_results' format is supported`);
        break;
    }
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const flag = longNames[name];
      if (!flag) throw new UsageError(`unknown option '${quote(arg)}'`);
      if (WITH_ARGUMENT.has(flag)) {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`option '--${quote(name)}' needs a value`);
        apply(flag, value);
      } else apply(flag, undefined);
      continue;
    }
    if (arg.length < 2 || arg[0] !== "-") {
      positional.push(arg);
      continue;
    }
    for (let c = 1; c < arg.length; c++) {
      const flag = arg[c]!;
      if (WITH_ARGUMENT.has(flag)) {
        const value = c + 1 < arg.length ? arg.slice(c + 1) : argv[++i];
        if (value === undefined) throw new UsageError(`option '-${flag}' needs a value`);
        apply(flag, value);
        break;
      }
      if (FLAGS.has(flag)) apply(flag, undefined);
      else throw new UsageError(UNSUPPORTED[flag] ?? `unknown option '-${flag}'`);
    }
  }
  if (!help && !version && positional.length !== 2) {
    throw new UsageError(
      positional.length < 2
        ? "expected two files: <qrels> <run>"
        : `expected two files, got ${positional.length}: ${quote(positional.join(" "))}`,
    );
  }
  return {
    qrelsFile: positional[0] ?? "",
    runFile: positional[1] ?? "",
    measures,
    perTopic,
    complete,
    summary,
    relevanceLevel,
    maxDepth,
    numDocsInCollection,
    help,
    version,
  };
}

/** `-h`: usage, options and every measure, generated from the registry. */
export function helpText(): string {
  const lines = [
    USAGE,
    "",
    "Scores a TREC run against TREC qrels exactly as trec_eval 10.0 does (same numbers, same output).",
    "",
    "  -q          also print every measure per topic (topics in byte order of their ids)",
    "  -c          average over every judged topic; a judged topic missing from the run scores 0",
    "              (without -c such a topic is an error, as in trec_eval 10.0)",
    "  -n          print no summary ('all') lines",
    `  -l N        relevant means grade >= N (default 1; 0 to ${MAX_GRADE})`,
    "  -M N        evaluate at most the top N documents of each topic",
    "  -N N        number of documents in the collection (utility)",
    "  -m NAME[.P] add a measure or preset; P are its parameters (P.5,10  ndcg_cut.10  ndcg.1=3,2=9)",
    "  -h          this help",
    "",
    "Ranking: by score descending, ties by document id descending (byte order); the rank column is ignored.",
    "",
    `Presets: ${Object.entries(PRESETS)
      .map(([name, ids]) => `${name} (${name === "all" ? "every measure below" : ids.join(" ")})`)
      .join("; ")}`,
    "Default (no -m): official.",
    "",
    "Measures:",
  ];
  for (const m of MEASURES) {
    const params = m.params === "none" ? "" : `  -m ${m.id}.${m.defaults ?? "<grade=gain,...>"}`;
    lines.push(`  ${m.id}${m.origin === "ours" ? " (ours, not trec_eval)" : ""}${params}`, `      ${m.describe}`);
    if (m.params !== "none") lines.push(`      Allowed: ${describeAllowed(m)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** What the command line touches of its process: its output streams (stdout gets trec_eval's bytes). */
export interface CliIo {
  stdout(chunk: string | Uint8Array): void;
  stderr(text: string): void;
}

/** The running process's streams (src/entry.ts). */
export function processIo(): CliIo {
  return { stdout: (chunk) => process.stdout.write(chunk), stderr: (text) => process.stderr.write(text) };
}

/** Runs one command line and returns its exit status (0, 1 for a bug, 2 for usage or input). Never exits the process. */
export function main(argv: readonly string[], io: CliIo = processIo()): number {
  try {
    const args = parseArgs(argv);
    if (args.help) {
      io.stdout(helpText());
      return 0;
    }
    if (args.version) {
      io.stdout("trec-eval (hybrid-search-evals): trec_eval 10.0 measures\n");
      return 0;
    }
    io.stdout(Buffer.from(trecEval(args), "latin1"));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`trec-eval: ${error.message} (${USAGE.replace("usage: ", "usage: ")}; -h for help)\n`);
      return 2;
    }
    if (error instanceof FormatError || error instanceof MeasureSpecError) {
      io.stderr(`trec-eval: ${error.message}\n`);
      return 2;
    }
    io.stderr(`trec-eval: internal error (a bug, please report): ${quote(String((error as Error)?.message ?? error))}\n`);
    return 1;
  }
}
