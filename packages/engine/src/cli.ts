/**
 * The engine's command line (`pnpm engine ...`). Every expected failure prints one line,
 * `engine: <what went wrong>`, and exits with status 2; an existing index is never changed by a
 * failed command. Each command is a module in cli/ with its options, its arguments and its run;
 * `COMMANDS` lists them, and `main` parses, checks what every command shares and dispatches.
 */
import { parseArgs } from "node:util";
import { askCommand } from "./cli/ask.js";
import { type CliIo, type Command, OPTIONS, type OptionName, parseLimit, UsageError, type Values } from "./cli/command.js";
import { expandCommand } from "./cli/expand.js";
import { indexCommand } from "./cli/index-source.js";
import { retrievalCommand } from "./cli/retrieve.js";
import { serveCommand } from "./cli/serve.js";
import { statsCommand } from "./cli/stats.js";
import { trecRunCommand } from "./cli/trec-run.js";
import { EngineError, errorLine, quoteInput } from "./errors.js";
import { parseInstant } from "./ingest/validity.js";
import { engineModelOptions, PRESETS, selectModels } from "./models/select.js";

export type { CliIo } from "./cli/command.js";

const USAGE = `Usage:
  pnpm engine index <folder|corpus.jsonl> --db <file> [--collection <name>] [--json]
  pnpm engine search  "<text>" --db <file> [--limit <n>] [--collection <c>] [--language <l>] [--json]
  pnpm engine vsearch "<text>" --db <file> [--limit <n>] [--collection <c>] [--language <l>] [--json]
  pnpm engine query   "<text>" --db <file> [--tier fast|balanced|thorough] [--limit <n>] [--collection <c>] [--language <l>] [--json]
  pnpm engine run <queries.jsonl> --db <file> [--mode search|vsearch|query] [--tier <tier>] [--limit <n>]
                   [--out <run.txt>] [--tag <name>] [--collection <c>] [--language <l>]
  (search, vsearch, query, run and ask also take [--as-of <date>] [--include-superseded])
  pnpm engine stats --db <file> [--json]
  pnpm engine expand "<query>" [--db <file>] [--json]
  pnpm engine ask "<question>" --db <file> [--preset slim|balanced|quality] [--limit <n>] [--tier <tier>]
                   [--collection <c>] [--language <l>] [--json]
  pnpm engine ask --batch <questions.jsonl> --db <file> [--preset <p>] [--limit <n>] [--out <answers.jsonl>]
                   [--collection <c>] [--language <l>]
  pnpm engine serve --db <file> [--port 8080] [--host 127.0.0.1] [--concurrency 4] [--max-body <bytes>]
                   [--max-documents-body <bytes>] [--name <name>]

  --as-of  Evaluate document validity (validFrom, validUntil, supersedes) at this instant instead of
           now: YYYY-MM-DD or an ISO 8601 date-time, UTC unless it names an offset.
  --include-superseded  Also return superseded and expired documents, marked stale.
  index    Index a folder of Markdown/text files (language from an en/, de/… folder or front matter,
           else detected) or a BEIR-style corpus.jsonl ({"_id"|"id","title","text"}). Unchanged
           documents are skipped, deleted ones removed, all in one transaction.
  search   BM25 only.            vsearch  Vectors only (offline embedder by default).
  query    Hybrid: fast = BM25; balanced = BM25 + vectors, fused, reranked; thorough = + query expansion.
  run      Batch: a JSONL query file ({"_id"|"id","text"}) in, a TREC run file
           (qid Q0 docid rank score tag) out, top --limit (default 100) documents per query.
  stats    Collections, languages, sizes and the index fingerprint.
  expand   The thorough tier's query expansion (a model when configured, else deterministic; --db lets
           the deterministic expander use the index vocabulary).
  ask      Answer a question from the index with [n] citations, or refuse when the sources do not
           support an answer. --batch reads {"id"|"_id", "text"|"question"} lines and writes one JSON
           answer per line (id, answer, citations, refused, answerer, error, sources).
  serve    The index as an HTTP service implementing the target contract (docs/targets.md):
           GET /health, POST /search, /ask, /expand, PUT and DELETE /documents. With
           ENGINE_SERVE_TOKEN set, requests need "Authorization: Bearer <token>". Stops on
           SIGINT/SIGTERM after answering the requests it has.

Models come from the environment (docs/engine.md): OPENAI_COMPATIBLE_BASE_URL or
GOOGLE_GENERATIVE_AI_API_KEY select a provider; without them everything runs offline.

Errors print one line and exit with status 2.`;

/** Every command, in the order usage lists them. */
const COMMANDS: Readonly<Record<string, Command>> = {
  index: indexCommand,
  search: retrievalCommand("search"),
  vsearch: retrievalCommand("vsearch"),
  query: retrievalCommand("query"),
  run: trecRunCommand,
  stats: statsCommand,
  expand: expandCommand,
  ask: askCommand,
  serve: serveCommand,
};

/** The running process's streams and environment (src/entry.ts). */
export function processIo(): CliIo {
  return { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env };
}

/**
 * Runs one command line and returns its exit status: 0, or 2 with one line on `io.stderr` for any
 * failure (the stack too for an internal error when ENGINE_DEBUG is set). Never exits the process.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const { message, internal } = describeFailure(error);
    io.stderr(`engine: ${message}\n`);
    if (internal && io.env.ENGINE_DEBUG) io.stderr(`${(error as Error)?.stack}\n`);
    return 2;
  }
}

/** Parses the command line, checks what every command shares, in this order, and runs the command. */
async function dispatch(argv: string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's message quotes the option as typed: a line of at most 300 characters.
    throw new UsageError(errorLine(error));
  }
  const values = parsed.values as Values;
  const [name, ...args] = parsed.positionals;
  if (values.help || name === undefined || name === "help") {
    if (name === undefined && !values.help) {
      // No command is a mistake: the usage goes to stderr, like every error.
      io.stderr(`${USAGE}\n`);
      return 2;
    }
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command)
    throw new UsageError(`unknown command ${quoteInput(name)}; expected one of ${Object.keys(COMMANDS).join(", ")} (see --help)`);
  for (const key of Object.keys(values) as Array<keyof Values>) {
    if (key !== "help" && !command.options.includes(key as OptionName)) throw new UsageError(`--${key} does not apply to "${name}"`);
  }
  if (values.db === undefined && !command.dbOptional) throw new UsageError(`"${name}" needs --db <file>`);
  const expected = command.arguments(values);
  if (args.length !== expected.count) throw new UsageError(expected.mistake);
  const models = engineModelOptions(selectModels(io.env));
  const limit = values.limit === undefined ? undefined : parseLimit(values.limit);
  if (values.preset !== undefined && !(PRESETS as readonly string[]).includes(values.preset))
    throw new UsageError(`--preset must be one of ${PRESETS.join(", ")}, got ${quoteInput(values.preset)}`);
  command.check?.(values);
  const asOf = values["as-of"];
  if (asOf !== undefined && parseInstant(asOf) === undefined)
    throw new UsageError(
      `--as-of must be a date: YYYY-MM-DD or an ISO 8601 date-time such as 2024-09-01T08:30:00Z (UTC unless it names an offset), got ${quoteInput(asOf)}`,
    );
  const filters = {
    // Given, even empty: the engine refuses an empty name, never drops it for the default.
    ...(values.collection !== undefined ? { collection: values.collection } : {}),
    ...(values.language !== undefined ? { language: values.language } : {}),
    ...(asOf !== undefined ? { asOf } : {}),
    ...(values["include-superseded"] ? { includeSuperseded: true } : {}),
  };
  return command.run({ values, args, io, models, limit, filters });
}

/** Longest line a failure prints: messages quote at most 200 characters of the input; this bounds the rest. */
const MAX_FAILURE_LINE = 1000;

/** Turns any failure into the one-line message and exit status the CLI promises. */
export function describeFailure(error: unknown): { message: string; internal: boolean } {
  if (error instanceof EngineError || error instanceof UsageError || error instanceof TypeError || error instanceof RangeError) {
    const line = error.message.split("\n")[0]!;
    return {
      message: line.length > MAX_FAILURE_LINE ? `${line.slice(0, MAX_FAILURE_LINE)}… (${line.length} characters)` : line,
      internal: false,
    };
  }
  return {
    message: `internal error: ${((error as Error)?.message ?? String(error)).split("\n")[0]} (set ENGINE_DEBUG=1 for the stack)`,
    internal: true,
  };
}
