/**
 * The engine's command line (`pnpm engine ...`). Every expected failure prints one line,
 * `engine: <what went wrong>`, and exits with status 2; an existing index is never changed by a
 * failed command.
 */
import { writeFileSync, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { Engine } from "./engine.js";
import { EngineError, errorLine, quoteInput } from "./errors.js";
import { readJsonlObjects, readQueriesJsonl } from "./formats/jsonl.js";
import { DeterministicExpander } from "./retrieval/deterministic-expander.js";
import { formatTrecRun } from "./formats/trec-run.js";
import { SKIP_REASONS } from "./ingest/source.js";
import { type EngineServer, serveEngine } from "./serve/server.js";
import { claimNewIndexFile, discardUnfinishedIndex } from "./store/database.js";
import { parseInstant } from "./ingest/validity.js";
import {
  TIERS,
  type AskResult,
  type SkippedFile,
  type SkipReason,
  type EngineOptions,
  type ExpansionResult,
  type SearchOptions,
  type SearchResponse,
  type Tier,
} from "./types.js";
import { engineModelOptions, PRESETS, selectModels, type Preset } from "./models/select.js";

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
  query    Hybrid: fast = BM25; balanced = BM25 + vectors, RRF, rerank; thorough = + query expansion.
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

class UsageError extends Error {}

const options = {
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

type Values = { [K in keyof typeof options]?: (typeof options)[K]["type"] extends "boolean" ? boolean : string };

const ALLOWED: Record<string, Array<keyof typeof options>> = {
  index: ["db", "collection", "json"],
  search: ["db", "limit", "collection", "language", "as-of", "include-superseded", "json"],
  vsearch: ["db", "limit", "collection", "language", "as-of", "include-superseded", "json"],
  query: ["db", "tier", "limit", "collection", "language", "as-of", "include-superseded", "json"],
  run: ["db", "mode", "tier", "limit", "out", "tag", "collection", "language", "as-of", "include-superseded"],
  stats: ["db", "json"],
  expand: ["db", "json"],
  ask: ["db", "preset", "limit", "tier", "collection", "language", "as-of", "include-superseded", "json", "batch", "out"],
  serve: ["db", "port", "host", "concurrency", "max-body", "max-documents-body", "name"],
};

/** What the command line touches of its process: its output streams and its environment. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

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
    return await run(argv, io);
  } catch (error) {
    const { message, internal } = describeFailure(error);
    io.stderr(`engine: ${message}\n`);
    if (internal && io.env.ENGINE_DEBUG) io.stderr(`${(error as Error)?.stack}\n`);
    return 2;
  }
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const out = io.stdout;
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's message quotes the option as typed: a line of at most 300 characters.
    throw new UsageError(errorLine(error));
  }
  const values = parsed.values as Values;
  const [command, ...positionals] = parsed.positionals;
  if (values.help || command === undefined || command === "help") {
    if (command === undefined && !values.help) {
      // No command is a mistake: the usage goes to stderr, like every error.
      io.stderr(`${USAGE}\n`);
      return 2;
    }
    out(`${USAGE}\n`);
    return 0;
  }
  const allowed = ALLOWED[command];
  if (!allowed)
    throw new UsageError(`unknown command ${quoteInput(command)}; expected one of ${Object.keys(ALLOWED).join(", ")} (see --help)`);
  for (const key of Object.keys(values) as Array<keyof typeof options>) {
    if (key !== "help" && !allowed.includes(key)) throw new UsageError(`--${key} does not apply to "${command}"`);
  }
  if (values.db === undefined && command !== "expand") throw new UsageError(`"${command}" needs --db <file>`);
  const expectedArgs = command === "stats" || command === "serve" || (command === "ask" && values.batch !== undefined) ? 0 : 1;
  if (positionals.length !== expectedArgs) {
    throw new UsageError(
      command === "stats" || command === "serve"
        ? `"${command}" takes no arguments besides its options`
        : values.batch !== undefined
          ? `"ask --batch" takes no question argument`
          : `"${command}" takes exactly one argument (quote a query with spaces)`,
    );
  }
  const selection = selectModels(io.env);
  const models: EngineOptions = engineModelOptions(selection);
  if (command === "expand") return expand(positionals[0]!, values.db, models, values.json === true, out);
  const limit = values.limit === undefined ? undefined : parseLimit(values.limit);
  if (values.preset !== undefined && !(PRESETS as readonly string[]).includes(values.preset))
    throw new UsageError(`--preset must be one of ${PRESETS.join(", ")}, got ${quoteInput(values.preset)}`);
  if (values.out !== undefined && command === "ask" && values.batch === undefined)
    throw new UsageError(`--out applies to "ask --batch" only`);
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

  if (command === "index") {
    // Made here, only when it did not exist (O_EXCL): a failed first run may then remove it. A file
    // another run created meanwhile is never removed by this one.
    const claimed = claimNewIndexFile(values.db!);
    let engine: Engine;
    try {
      engine = Engine.open(values.db!, { ...models, create: true });
    } catch (error) {
      if (claimed) discardUnfinishedIndex(values.db!);
      throw error;
    }
    let ok = false;
    try {
      const report = await engine.index(positionals[0]!, {
        ...(values.collection !== undefined ? { collection: values.collection } : {}),
        onMessage: (line) => io.stderr(`engine: ${line}\n`),
      });
      if (values.json) out(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const d = report.documents;
        const e = report.embeddings;
        out(
          `indexed ${report.source} as collection "${report.collection}" into ${values.db} in ${(report.elapsedMs / 1000).toFixed(2)} s\n` +
            `  documents: ${d.total} (${d.added} added, ${d.updated} updated, ${d.unchanged} unchanged, ${d.removed} removed)\n` +
            `  passages:  ${report.passages.total} (${report.passages.written} written, ${report.passages.removed} removed)\n` +
            `  vectors:   ${e.computed} computed, ${e.reused} reused (${e.embedder}, ${e.dimensions} dimensions)\n` +
            formatSkipped(report.skippedFiles),
        );
      }
      ok = true;
    } finally {
      engine.close();
      // A failed first run leaves no empty index behind (an existing index is left as it was; one
      // a killed run left is refused as incomplete by every reader).
      if (!ok && claimed) discardUnfinishedIndex(values.db!);
    }
    return 0;
  }

  if (command === "serve") return serve(values, models, io);
  const engine = Engine.open(values.db!, models);
  try {
    if (command === "ask") {
      const askOptions = {
        ...(values.preset ? { preset: values.preset as Preset } : {}),
        ...(limit ? { limit } : {}),
        ...(values.tier ? { tier: parseTier(values.tier) } : {}),
        ...filters,
      };
      if (values.batch !== undefined) {
        if (values.json) throw new UsageError(`--json does not apply to "ask --batch" (its output is JSONL)`);
        if (values.out) checkWritable(values.out);
        const lines: string[] = [];
        let failed = 0;
        for (const q of readQuestionsJsonl(values.batch)) {
          const r = await engine.ask(q.text, askOptions);
          if (r.error) failed++;
          lines.push(
            JSON.stringify({
              id: q.id,
              question: q.text,
              answer: r.answer,
              citations: r.citations,
              refused: r.refused,
              ...(r.refusal ? { refusal: r.refusal } : {}),
              answerer: r.answerer,
              preset: r.preset,
              ...(r.error ? { error: r.error } : {}),
              // What the answer was written from: the answer evals grade citations and faithfulness
              // against it when they score this file as recorded runs (EVAL_RUN_DIR).
              sources: r.sources,
              invalidCitations: r.invalidCitations,
            }),
          );
        }
        const jsonl = `${lines.join("\n")}\n`;
        if (values.out) {
          writeFileSync(values.out, jsonl);
          io.stderr(`engine: wrote ${lines.length} answers to ${values.out}\n`);
        } else out(jsonl);
        // Every answer is written, failed ones with their error; the status still says some failed.
        if (failed > 0) throw new EngineError("PROVIDER_ERROR", `${failed} of ${lines.length} answers failed; their lines carry the error`);
        return 0;
      }
      const r = await engine.ask(positionals[0]!, askOptions);
      if (r.error && !values.json) throw new EngineError("PROVIDER_ERROR", r.error);
      out(values.json ? `${JSON.stringify(r, null, 2)}\n` : formatAnswer(r));
      // --json prints the result with its error; the failure is still one line on stderr.
      if (r.error) io.stderr(`engine: ${r.error.split("\n")[0]}\n`);
      return r.error ? 2 : 0;
    }
    if (command === "stats") {
      const stats = { ...engine.stats(), fingerprint: engine.fingerprint() };
      out(values.json ? `${JSON.stringify(stats, null, 2)}\n` : formatStats(stats));
      return 0;
    }
    if (command === "run") {
      const mode = values.mode ?? "query";
      if (!["search", "vsearch", "query"].includes(mode))
        throw new UsageError(`--mode must be search, vsearch or query, got ${quoteInput(mode)}`);
      if (values.tier !== undefined && mode !== "query") throw new UsageError(`--tier applies to --mode query only`);
      const tier = parseTier(values.tier);
      const queries = readQueriesJsonl(positionals[0]!);
      const tag = values.tag ?? (mode === "query" ? `hybrid-${tier}` : mode);
      if (values.out) checkWritable(values.out);
      let run = "";
      for (const q of queries) {
        const response = await ask(engine, mode as "search" | "vsearch" | "query", q.text, { limit: limit ?? 100, ...filters }, tier);
        const seen = new Set<string>();
        for (const hit of response.results) {
          if (seen.has(hit.docId))
            throw new EngineError(
              "BAD_ARGUMENT",
              `document id ${quoteInput(hit.docId)} occurs in two collections; pick one with --collection`,
            );
          seen.add(hit.docId);
        }
        run += formatTrecRun(q.id, response.results, tag);
      }
      if (values.out) {
        writeFileSync(values.out, run);
        io.stderr(`engine: wrote ${queries.length} queries to ${values.out} (tag ${tag})\n`);
      } else out(run);
      return 0;
    }
    const tier = parseTier(values.tier);
    if (values.tier !== undefined && command !== "query") throw new UsageError(`--tier applies to "query" only`);
    const response = await ask(
      engine,
      command as "search" | "vsearch" | "query",
      positionals[0]!,
      { ...(limit ? { limit } : {}), ...filters },
      tier,
    );
    out(values.json ? `${JSON.stringify(response, null, 2)}\n` : formatResponse(response));
    return 0;
  } finally {
    engine.close();
  }
}

/**
 * `serve`: runs until SIGINT or SIGTERM, then stops accepting, answers what it has, closes the
 * index and returns 0. The token comes from the environment, never the command line (which `ps`
 * shows to every user of the machine).
 */
async function serve(values: Values, models: EngineOptions, io: CliIo): Promise<number> {
  const token = io.env.ENGINE_SERVE_TOKEN;
  const port = values.port === undefined ? 8080 : parseCount("--port", values.port, 0, 65_535);
  const concurrency = values.concurrency === undefined ? undefined : parseCount("--concurrency", values.concurrency, 1, 1024);
  const maxBodyBytes = values["max-body"] === undefined ? undefined : parseCount("--max-body", values["max-body"], 1, 2 ** 30);
  const maxDocumentsBytes =
    values["max-documents-body"] === undefined ? undefined : parseCount("--max-documents-body", values["max-documents-body"], 1, 2 ** 30);
  const engine = Engine.open(values.db!, models);
  let server: EngineServer;
  try {
    server = await serveEngine(engine, {
      host: values.host ?? "127.0.0.1",
      port,
      ...(concurrency ? { concurrency } : {}),
      ...(maxBodyBytes ? { maxBodyBytes } : {}),
      ...(maxDocumentsBytes ? { maxDocumentsBytes } : {}),
      ...(values.name ? { name: values.name } : {}),
      ...(token ? { token } : {}),
    });
  } catch (error) {
    engine.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL")
      throw new EngineError(
        "BAD_ARGUMENT",
        `cannot listen on ${values.host ?? "127.0.0.1"}:${port} (${code}); pick another --port or --host`,
      );
    throw error;
  }
  io.stdout(`engine: serving ${values.db} on ${server.url}${token ? " (bearer token required)" : ""}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await server.close();
  engine.close();
  io.stderr("engine: stopped\n");
  return 0;
}

function parseCount(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${quoteInput(value)}`);
  return n;
}

async function ask(
  engine: Engine,
  mode: "search" | "vsearch" | "query",
  text: string,
  opts: SearchOptions,
  tier: Tier,
): Promise<SearchResponse> {
  if (mode === "search") return engine.search(text, opts);
  if (mode === "vsearch") return engine.vsearch(text, opts);
  return engine.query(text, { ...opts, tier });
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(n) || n < 1 || n > 10_000)
    throw new UsageError(`--limit must be an integer from 1 to 10000, got ${quoteInput(value)}`);
  return n;
}

function parseTier(value: string | undefined): Tier {
  if (value === undefined) return "balanced";
  if (!(TIERS as readonly string[]).includes(value))
    throw new UsageError(`--tier must be one of ${TIERS.join(", ")}, got ${quoteInput(value)}`);
  return value as Tier;
}

function checkWritable(file: string): void {
  const dir = dirname(resolve(file));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--out ${file}: folder ${dirname(file)} does not exist`);
  if (existsSync(file) && statSync(file).isDirectory()) throw new UsageError(`--out ${file}: is a folder; give the path of a file`);
}

/** Questions for `ask --batch`: BEIR-style query lines, with `question` accepted for `text`. */
function readQuestionsJsonl(file: string): Array<{ id: string; text: string }> {
  const seen = new Map<string, number>();
  return readJsonlObjects(file).map(({ line, value }) => {
    const id = value._id ?? value.id;
    const text = value.text ?? value.question;
    if ((typeof id !== "string" || id === "") && typeof id !== "number")
      throw new EngineError("MALFORMED_RECORD", `${file}:${line}: missing "_id" or "id"`);
    if (typeof text !== "string" || text.trim() === "")
      throw new EngineError("MALFORMED_RECORD", `${file}:${line}: missing "text" (or "question")`);
    const first = seen.get(String(id));
    if (first !== undefined)
      throw new EngineError("MALFORMED_RECORD", `${file}:${line}: id ${quoteInput(String(id))} repeats the record on line ${first}`);
    seen.set(String(id), line);
    return { id: String(id), text };
  });
}

async function expand(
  query: string,
  db: string | undefined,
  models: EngineOptions,
  json: boolean,
  out: (s: string) => void,
): Promise<number> {
  let result: ExpansionResult;
  if (db !== undefined) {
    const engine = Engine.open(db, models);
    try {
      result = await engine.expand(query);
    } finally {
      engine.close();
    }
  } else {
    const expander = models.expander ?? new DeterministicExpander();
    const empty = { documentFrequency: () => 0, similarTerms: () => [], languages: [] };
    result = await expander.expand(query, { vocabulary: empty });
  }
  if (json) out(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const e = result.expansion;
    out(
      `expander: ${result.expander}${result.fallback ? ` (fell back: ${result.fallback.reason})` : ""}\n` +
        `lexical:  ${e.lexicalQueries.map((q) => JSON.stringify(q)).join(", ")}\n` +
        `vector:   ${e.vectorQueries.map((q) => JSON.stringify(q)).join(", ")}\n` +
        (e.hyde ? `hyde:     ${JSON.stringify(e.hyde)}\n` : "") +
        (e.language ? `language: ${e.language}\n` : ""),
    );
  }
  return 0;
}

/** The skipped entries, one line per reason with up to five paths each. */
function formatSkipped(skipped: readonly SkippedFile[]): string {
  const byReason = new Map<SkipReason, string[]>();
  for (const s of skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.path]);
  return [...byReason]
    .map(
      ([reason, paths]) =>
        `  skipped ${paths.length} (${SKIP_REASONS[reason]}): ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ", …" : ""}\n`,
    )
    .join("");
}

function formatAnswer(r: AskResult): string {
  const sources = r.citations.map((c) => `  [${c.ref}] ${c.passageId}`).join("\n");
  return `${r.answer}\n${sources ? `\n${sources}\n` : ""}(${r.answerer}${r.refused ? `, refused: ${r.refusal}` : ""}, evidence ${r.evidence.coverage.toFixed(2)}/${r.evidence.threshold}, ${r.elapsedMs.toFixed(0)} ms)\n`;
}

function formatResponse(response: SearchResponse): string {
  if (response.results.length === 0)
    return `no results for ${quoteInput(response.query)} (${response.mode}, ${response.elapsedMs.toFixed(1)} ms)\n`;
  const lines = response.results.map(
    (h) =>
      `${String(h.rank).padStart(2)}. ${h.docId}  ${h.score.toFixed(4)}  ${h.title}${h.heading ? ` › ${h.heading}` : ""}` +
      `${h.validity?.stale ? `  [STALE: ${h.validity.reason}]` : ""}\n    ${h.snippet}`,
  );
  return `${lines.join("\n")}\n(${response.mode}, ${response.results.length} results, ${response.elapsedMs.toFixed(1)} ms)\n`;
}

function formatStats(stats: ReturnType<Engine["stats"]> & { fingerprint: ReturnType<Engine["fingerprint"]> }): string {
  const f = stats.fingerprint;
  return (
    `collections: ${stats.collections.join(", ") || "(none)"}\n` +
    `languages:   ${stats.languages.join(", ") || "(none)"}\n` +
    `documents:   ${stats.documents}\npassages:    ${stats.passages}\n` +
    `embedder:    ${stats.embedder ?? "(none)"}${stats.dimensions ? ` (${stats.dimensions} dimensions)` : ""}\n` +
    `analyzer:    ${f.analyzer}${stats.stale ? ` (STALE: ${stats.stale})` : ""}\nchunkers:    ${f.chunkers.join(", ")}\nschema:      ${f.schemaVersion}\ncorpus hash: ${f.corpusHash}\n`
  );
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
