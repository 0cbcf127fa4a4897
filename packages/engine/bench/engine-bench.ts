/**
 * Engine benchmark (`pnpm bench:engine`): builds an index of ≥ 100,000 passages and measures
 * ingest, BM25 (against raw FTS5 on the same database in the same run), vectors, every tier and
 * memory. Speed is measured here, never in unit tests; BM25 is reported as a ratio against a
 * baseline measured in the same run, because machines are noisy.
 *
 *   pnpm bench:engine [corpus-folder|corpus.jsonl] [--queries 500] [--seed 42] [--passages 100000]
 *                     [--warmup 20] [--index-worker auto|always|never] [--json results.json]
 *
 * Without a corpus argument, a deterministic synthetic corpus (bench/corpus.ts) is written as
 * Markdown files under a temp folder until the engine's own chunker yields `--passages` passages.
 * The index and the generated files live in one temp folder that is removed at the end, on error
 * and on Ctrl-C / SIGTERM (`removeAtExit` below; a signal is handled at the next await,
 * so during a phase that never yields, such as `index()`, when that phase ends).
 *
 * What is compared for BM25: the engine's `search(text, { limit: 10 })` against the statement the
 * engine runs inside it — `SELECT rowid, bm25(passages_fts, 4, 1, 2) … MATCH ? ORDER BY s, rowid
 * LIMIT ?` with the same MATCH expression (`prepareLexicalQuery`, computed before timing) and the
 * same LIMIT (depth × 3 + 20 = 50 for limit 10, see retrieval/bm25.ts) — prepared on a separate
 * read-only connection to the same file. The two are interleaved per query, alternating which goes
 * first, so drift and noise hit both.
 *
 * Ingest and vector search are reported against floors measured in the same run on the same data
 * (bench/floors.ts): ingest against a bare FTS5 insert loop of the same passages' terms, with
 * nothing subtracted (a large run analyzes and embeds on a worker thread while it writes, so the
 * embedder's time is no longer a separate phase of the wall time), with the analysis and the
 * offline embedder timed apart, and with the ingest's CPU time (all threads) beside its wall time; vsearch against a bare scan of the same unit
 * vectors with a top-k heap (the JavaScript loop, `dotRows`: the vsearch floor; and
 * the same scan with the engine's WebAssembly SIMD kernel, which the engine runs where the runtime
 * has it), the three interleaved per query in rotating order, with the engine's time beyond the
 * scan it runs split into query embedding, the rest of the vector stage, and the work outside it. Floors run after the engine's first calls, so the engine's peak RSS is
 * read before they hold their own copies of the data.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Engine } from "../src/index.js";
import { prepareLexicalQuery } from "../src/retrieval/bm25.js";
import { HashedNgramEmbedder } from "../src/embed/hashed-ngram.js";
import { makeSnippet } from "../src/retrieval/snippet.js";
import { wasmResidentRows } from "../src/retrieval/dot-rows-wasm.js";
import { PARALLEL_SCAN_MIN_VALUES, scanThreadsFor } from "../src/retrieval/scan-threads.js";
import { unitQuery } from "../src/retrieval/vector.js";
import { DEFAULT_ANALYZER } from "../src/text/analyze.js";
import type { IndexReport, IndexWorkerMode, SearchResult } from "../src/types.js";
import {
  type BenchQuery,
  buildVocabulary,
  type GeneratedCorpus,
  generateQueries,
  queriesFromSample,
  seededRandom,
  writeCorpus,
} from "./corpus.js";
import { bareScan, loadUnitRows, measureIngestFloors } from "./floors.js";

const USAGE = `Usage: pnpm bench:engine [corpus-folder|corpus.jsonl] [--queries N] [--seed N] [--passages N] [--warmup N] [--index-worker auto|always|never] [--json file]`;

const TARGETS = {
  bm25Ratio: 1.3,
  vsearchP95Ms: 30,
  vsearchOverBareScan: 1.2,
  ingestOverFtsInsert: 1.5,
  ingestPerSec: 5000,
  peakRssBytes: 1024 ** 3,
  passages: 100_000,
  queries: 500,
};

/** The engine's inner LIMIT for `search(…, { limit: 10 })` without filters: depth × 3 + 20. */
const LIMIT = 10;
const ENGINE_FTS_LIMIT = LIMIT * 3 + 20;
const FTS_SQL = "SELECT rowid, bm25(passages_fts, 4, 1, 2) AS s FROM passages_fts WHERE passages_fts MATCH ? ORDER BY s, rowid LIMIT ?";

interface Summary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  const mean = sorted.reduce((s, v) => s + v, 0) / (sorted.length || 1);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), mean, max: sorted[sorted.length - 1] ?? NaN };
}

const mib = (bytes: number): number => bytes / 1024 ** 2;
const fmt = (n: number, digits = 2): string => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const int = (n: number): string => Math.round(n).toLocaleString("en-US");
const say = (line: string): void => void process.stderr.write(`bench: ${line}\n`);
/** Lets signal handlers run between synchronous stretches. */
const yieldToEventLoop = (): Promise<void> => new Promise((r) => setImmediate(r));

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
}

/** CPU milliseconds (user + system) this process used since `start` (a `process.cpuUsage()`). */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

function memory(): { rssMiB: number; heapUsedMiB: number } {
  const m = process.memoryUsage();
  return { rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed) };
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

interface IngestResult {
  report: IndexReport;
  wallMs: number;
  /** CPU time (user + system) of the whole process during `index()`: every thread, the worker's included. */
  cpuMs: number;
  passagesPerSec: number;
  /** Whether the engine prepared the passages on a worker thread (its progress line says so). */
  onWorker: boolean;
  /**
   * On one thread: estimated from the engine's progress messages ("embedded k/n passages", every
   * 10%): embedding runs at a steady rate, so its start is extrapolated back from the first message.
   */
  phases: { readChunkHashMs: number; embedMs: number; writeTransactionMs: number } | null;
  /** On a worker thread: read + chunk + hash until the worker starts, then the write transaction with analysis and embedding beside it. */
  workerPhases: { readChunkHashMs: number; writeTransactionMs: number } | null;
}

async function ingest(engine: Engine, location: string): Promise<IngestResult> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const progress: Array<{ at: number; done: number; total: number }> = [];
  let workerAt: number | undefined;
  const report = await engine.index(location, {
    collection: "bench",
    onMessage: (line) => {
      const m = /^embedded (\d+)\/(\d+) passages/.exec(line);
      if (m) progress.push({ at: performance.now() - t0, done: Number(m[1]), total: Number(m[2]) });
      if (/ on a worker thread /.test(line)) workerAt ??= performance.now() - t0;
      say(`engine: ${line}`);
    },
  });
  const wallMs = performance.now() - t0;
  const cpuMs = cpuMsSince(cpu0);
  let phases: IngestResult["phases"] = null;
  const first = progress[0];
  const last = progress[progress.length - 1];
  if (workerAt === undefined && first && last && last !== first && last.done === last.total) {
    const msPerPassage = (last.at - first.at) / (last.done - first.done);
    const embedStart = first.at - msPerPassage * first.done;
    phases = { readChunkHashMs: embedStart, embedMs: last.at - embedStart, writeTransactionMs: wallMs - last.at };
  }
  const workerPhases = workerAt === undefined ? null : { readChunkHashMs: workerAt, writeTransactionMs: wallMs - workerAt };
  return {
    report,
    wallMs,
    cpuMs,
    passagesPerSec: report.passages.written / (wallMs / 1000),
    onWorker: workerAt !== undefined,
    phases,
    workerPhases,
  };
}

function stageMsOf(name: string, response: SearchResult): number {
  const stage = response.trace.find((s) => s.stage === name);
  return stage ? stage.end - stage.start : NaN;
}
const bm25StageMs = (response: SearchResult): number => stageMsOf("bm25", response);
const vectorStageMs = (response: SearchResult): number => stageMsOf("vector", response);

/** Removes the bench's temp folder at exit and on Ctrl-C / SIGTERM (then ends the process as the signal would). */
function removeAtExit(dir: string): () => void {
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals): void => {
    remove();
    process.kill(process.pid, signal);
  };
  process.once("exit", remove);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return remove;
}

/** The command line (strict util.parseArgs); a bad argument is one line on stderr and exit 2. */
function readArguments() {
  try {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        queries: { type: "string" },
        seed: { type: "string" },
        passages: { type: "string" },
        warmup: { type: "string" },
        "index-worker": { type: "string" },
        json: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (positionals.length > 1) throw new Error(`expected at most one corpus argument, got ${positionals.length}`);
    const indexWorker = values["index-worker"] ?? "auto";
    if (indexWorker !== "auto" && indexWorker !== "always" && indexWorker !== "never")
      throw new Error(`--index-worker must be auto, always or never, got "${indexWorker}"`);
    return {
      help: values.help === true,
      json: values.json,
      queryCount: positiveInt("queries", values.queries, TARGETS.queries),
      seed: positiveInt("seed", values.seed, 42),
      targetPassages: positiveInt("passages", values.passages, TARGETS.passages),
      warmupCount: positiveInt("warmup", values.warmup, 20),
      indexWorker: indexWorker as IndexWorkerMode,
      userCorpus: positionals[0] === undefined ? undefined : resolve(positionals[0]),
    };
  } catch (error) {
    process.stderr.write(`bench:engine: ${(error as Error).message}; ${USAGE}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { help, json, queryCount, seed, targetPassages, warmupCount, indexWorker, userCorpus } = readArguments();
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  // Other work on the machine slows the engine and its floors alike; the ratios are what compare across runs.
  const loadAtStart = os.loadavg();
  const tmp = mkdtempSync(join(os.tmpdir(), "engine-bench-"));
  const cleanup = removeAtExit(tmp);

  const dbFile = join(tmp, "index.db");
  let engine: Engine | undefined;
  let raw: Database.Database | undefined;
  try {
    // ---- corpus ----
    let corpus: GeneratedCorpus | undefined;
    let location: string;
    if (userCorpus) {
      location = userCorpus;
      say(`indexing ${userCorpus}`);
    } else {
      say(`writing a synthetic corpus of ≥ ${int(targetPassages)} passages (seed ${seed}) to ${tmp}`);
      corpus = await writeCorpus(join(tmp, "corpus"), seed, targetPassages);
      location = corpus.folder;
      say(
        `wrote ${int(corpus.documents)} Markdown files (${fmt(mib(corpus.bytes), 1)} MiB, ${int(corpus.passages)} passages by the chunker) in ${fmt(corpus.ms / 1000, 1)} s`,
      );
    }
    const memAfterCorpus = memory();

    // ---- ingest ----
    engine = Engine.open(dbFile, { create: true, indexWorker });
    const ingestResult = await ingest(engine, location);
    const { report } = ingestResult;
    say(`indexed ${int(report.passages.written)} passages in ${fmt(ingestResult.wallMs / 1000, 1)} s`);
    if (corpus && report.passages.written !== corpus.passages) {
      throw new Error(`the engine wrote ${report.passages.written} passages, the chunker predicted ${corpus.passages}`);
    }
    const memAfterIngest = memory();

    // ---- baseline connection ----
    raw = new Database(dbFile, { readonly: true });
    const sqliteVersion = raw.prepare("SELECT sqlite_version()").pluck().get() as string;
    const rawStatement = raw.prepare(FTS_SQL).raw();
    const documentOf = new Int32Array(((raw.prepare("SELECT max(id) FROM passages").pluck().get() as number | null) ?? 0) + 1);
    for (const [id, doc] of raw.prepare("SELECT id, document_id FROM passages").raw().iterate() as IterableIterator<[number, number]>)
      documentOf[id] = doc;

    const stats = engine.stats();
    const languages = stats.languages;

    // ---- queries ----
    let queries: BenchQuery[];
    let warmups: BenchQuery[];
    if (corpus) {
      const vocab = buildVocabulary(seed);
      queries = generateQueries(vocab, queryCount, seededRandom(seed ^ 0x51ed270b));
      warmups = generateQueries(vocab, warmupCount, seededRandom(seed ^ 0x2545f491));
    } else {
      const step = Math.max(1, Math.floor(stats.passages / 5000));
      const sample = raw.prepare("SELECT text FROM passages WHERE id % ? = 0 LIMIT 5000").pluck().all(step) as string[];
      const rng = seededRandom(seed ^ 0x51ed270b);
      queries = queriesFromSample(sample, queryCount, rng);
      warmups = queriesFromSample(sample, warmupCount, rng);
    }
    const matches = queries.map((q) => prepareLexicalQuery(q.text, languages, DEFAULT_ANALYZER).match);

    // ---- first calls: one-time loads ----
    const e = engine;
    const first = warmups[0]!;
    const [, firstSearchMs] = time(() => e.search(first.text, { limit: LIMIT }));
    const [, firstVsearchMs] = await timeAsync(() => e.vsearch(first.text, { limit: LIMIT }));
    const memAfterVectors = memory();
    const typoQuery = warmups.find((q) => q.kind === "typo") ?? first;
    const [, firstThoroughMs] = await timeAsync(() => e.query(typoQuery.text, { tier: "thorough", limit: LIMIT }));
    say(`first calls: search ${fmt(firstSearchMs, 0)} ms, vsearch ${fmt(firstVsearchMs, 0)} ms, thorough ${fmt(firstThoroughMs, 0)} ms`);
    // The engine's peak, before the floors below hold their own copies of the data.
    const enginePeakRssBytes = process.resourceUsage().maxRSS * 1024;

    // ---- floors, on the same data in the same run ----
    say("ingest floors: analysis, offline embedder, bare FTS5 insert loop");
    const ingestFloors = measureIngestFloors(dbFile, tmp);
    const { embedder: vectorEmbedder, dimensions } = stats;
    if (vectorEmbedder === null || dimensions === null) throw new Error("the index holds no vectors");
    const floorRows = loadUnitRows(dbFile, vectorEmbedder, dimensions);
    const floorMatrix = floorRows.matrix;
    const rowCount = floorRows.scores.length;
    // The SIMD kernel's floor: the same unit matrix, copied once into WebAssembly memory.
    const wasmFloorRows = wasmResidentRows(rowCount, dimensions);
    if (!wasmFloorRows) throw new Error("no WebAssembly SIMD (or no memory for it) in this runtime: the engine falls back to dotRows");
    wasmFloorRows.matrix.set(floorMatrix);
    const queryEmbedder = new HashedNgramEmbedder();
    const queryVectors = queries.map((q) => unitQuery(queryEmbedder.embedOne(q.text)));
    say(
      `floors: analysis ${fmt(ingestFloors.analysisMs / 1000, 1)} s, embedding ${fmt(ingestFloors.embedMs / 1000, 1)} s, FTS5 insert ${fmt(ingestFloors.ftsInsertMs / 1000, 1)} s; vector matrix ${int(rowCount)} × ${dimensions}`,
    );

    // ---- warm-up ----
    for (const q of warmups) {
      const m = prepareLexicalQuery(q.text, languages, DEFAULT_ANALYZER).match;
      if (m !== "") rawStatement.all(m, ENGINE_FTS_LIMIT);
      e.search(q.text, { limit: LIMIT });
      await e.vsearch(q.text, { limit: LIMIT });
      for (const tier of ["fast", "balanced", "thorough"] as const) await e.query(q.text, { tier, limit: LIMIT });
    }

    // ---- timed run ----
    const t = {
      raw: [] as number[],
      search: [] as number[],
      bareScan: [] as number[],
      bareScanWasm: [] as number[],
      vsearch: [] as number[],
      fast: [] as number[],
      balanced: [] as number[],
      thorough: [] as number[],
    };
    /** CPU time (user + system of this process) of the vector runs: a loaded machine inflates it less than wall time. */
    const cpu = { bareScan: [] as number[], bareScanWasm: [] as number[], vsearch: [] as number[] };
    const stageMs: number[] = [];
    /** Per query, paired: where engine vsearch time goes beyond the bare scan of the kernel it runs (WASM SIMD). */
    const vectorParts = {
      overBare: [] as number[],
      queryEmbedding: [] as number[],
      stageBeyondEmbeddingAndScan: [] as number[],
      outsideStage: [] as number[],
      /** The SIMD kernel's bare scan over the JavaScript loop's, same query. */
      wasmOverJs: [] as number[],
    };
    /** Per query, paired: engine search − raw, bm25 stage − raw, engine-clocked time outside the bm25 stage. */
    const paired = { overhead: [] as number[], stageOverRaw: [] as number[], outsideStage: [] as number[] };
    const kinds = new Map<string, { raw: number[]; search: number[] }>();
    const searchResults: SearchResult[] = [];
    let emptyMatches = 0;
    let retries = 0;
    const runStarted = performance.now();
    for (let i = 0; i < queries.length; i++) {
      const q = queries[i]!;
      const match = matches[i]!;
      let rawMs = NaN;
      let rows: Array<[number, number]> = [];
      const runRaw = (): void => {
        [rows, rawMs] = time(() => rawStatement.all(match, ENGINE_FTS_LIMIT) as Array<[number, number]>);
      };
      let response: SearchResult | undefined;
      let searchMs = NaN;
      const runSearch = (): void => {
        [response, searchMs] = time(() => e.search(q.text, { limit: LIMIT }));
      };
      if (match === "") {
        emptyMatches++;
        runSearch();
      } else {
        if (i % 2 === 0) {
          runRaw();
          runSearch();
        } else {
          runSearch();
          runRaw();
        }
        t.raw.push(rawMs);
        t.search.push(searchMs);
        const stage = bm25StageMs(response!);
        stageMs.push(stage);
        paired.overhead.push(searchMs - rawMs);
        paired.stageOverRaw.push(stage - rawMs);
        paired.outsideStage.push(response!.elapsedMs - stage);
        const k = kinds.get(q.kind) ?? { raw: [], search: [] };
        k.raw.push(rawMs);
        k.search.push(searchMs);
        kinds.set(q.kind, k);
        // The engine re-runs the statement with 4× the LIMIT when 50 passages hold < 10 documents.
        if (rows.length === ENGINE_FTS_LIMIT && new Set(rows.map(([id]) => documentOf[id])).size < LIMIT) retries++;
      }
      searchResults.push(response!);
      const queryVector = queryVectors[i];
      let vsearchMs = NaN;
      let vresponse: SearchResult | undefined;
      const runVsearch = async (): Promise<void> => {
        const cpu0 = process.cpuUsage();
        [vresponse, vsearchMs] = await timeAsync(() => e.vsearch(q.text, { limit: LIMIT }));
        cpu.vsearch.push(cpuMsSince(cpu0));
      };
      let bareMs = NaN;
      let bareWasmMs = NaN;
      const runBare = async (): Promise<void> => {
        if (!queryVector) return;
        const cpu0 = process.cpuUsage();
        bareMs = time(() => bareScan(floorRows, queryVector, LIMIT))[1];
        cpu.bareScan.push(cpuMsSince(cpu0));
      };
      const runBareWasm = async (): Promise<void> => {
        if (!queryVector) return;
        const cpu0 = process.cpuUsage();
        bareWasmMs = time(() => bareScan(wasmFloorRows, queryVector, LIMIT))[1];
        cpu.bareScanWasm.push(cpuMsSince(cpu0));
      };
      // Rotating order: each of the three goes first, second and third on a third of the queries.
      const vectorRuns = [runBare, runBareWasm, runVsearch];
      for (let k = 0; k < 3; k++) await vectorRuns[(i + k) % 3]!();
      t.vsearch.push(vsearchMs);
      if (queryVector) {
        t.bareScan.push(bareMs);
        t.bareScanWasm.push(bareWasmMs);
        const stage = vectorStageMs(vresponse!);
        const embedMs = time(() => queryEmbedder.embedOne(q.text))[1];
        vectorParts.queryEmbedding.push(embedMs);
        vectorParts.stageBeyondEmbeddingAndScan.push(stage - embedMs - bareWasmMs);
        vectorParts.outsideStage.push(vresponse!.elapsedMs - stage);
        vectorParts.overBare.push(vsearchMs - bareWasmMs);
        vectorParts.wasmOverJs.push(bareWasmMs / bareMs);
      }
      for (const tier of ["fast", "balanced", "thorough"] as const)
        t[tier].push((await timeAsync(() => e.query(q.text, { tier, limit: LIMIT })))[1]);
      if ((i + 1) % 100 === 0) say(`${i + 1}/${queries.length} queries (${fmt((performance.now() - runStarted) / 1000, 1)} s)`);
      await yieldToEventLoop();
    }

    // ---- where engine BM25 time goes (diagnostic pass, after the timed run) ----
    const analysisMs = queries.map((q) => time(() => prepareLexicalQuery(q.text, languages, DEFAULT_ANALYZER))[1]);
    const rawLimit10Ms = matches.filter((m) => m !== "").map((m) => time(() => rawStatement.all(m, LIMIT))[1]);
    const dataVersionMs =
      time(() => {
        for (let i = 0; i < 10_000; i++) raw!.pragma("data_version", { simple: true });
      })[1] / 10_000;
    const passageText = raw
      .prepare("SELECT p.text FROM passages p JOIN documents d ON d.id = p.document_id WHERE d.path = ? AND p.seq = ?")
      .pluck();
    const snippetMs = searchResults.map((r, i) => {
      const lexical = prepareLexicalQuery(queries[i]!.text, languages, DEFAULT_ANALYZER);
      const tokens = new Set(lexical.terms.flatMap((term) => term.alternatives.flat()));
      const texts = r.results.map((h) => ({
        text: passageText.get(h.docId, Number(h.passageId.slice(h.passageId.lastIndexOf("#") + 1))) as string,
        language: h.language?.split("-")[0],
      }));
      return time(() => {
        for (const x of texts) makeSnippet(x.text, tokens, x.language, DEFAULT_ANALYZER);
      })[1];
    });

    const usage = process.resourceUsage();
    const memEnd = memory();
    const peakRssBytes = usage.maxRSS * 1024;

    // ---- results ----
    const latency = {
      rawFts: summarize(t.raw),
      search: summarize(t.search),
      vsearch: summarize(t.vsearch),
      bareScan: summarize(t.bareScan),
      bareScanWasm: summarize(t.bareScanWasm),
      fast: summarize(t.fast),
      balanced: summarize(t.balanced),
      thorough: summarize(t.thorough),
    };
    const ratios = {
      p50: latency.search.p50 / latency.rawFts.p50,
      p95: latency.search.p95 / latency.rawFts.p95,
      mean: latency.search.mean / latency.rawFts.mean,
    };
    const breakdown = {
      analysisPrepareLexicalQuery: summarize(analysisMs),
      bm25StageFtsAndMapping: summarize(stageMs),
      pairedSearchMinusRaw: summarize(paired.overhead),
      pairedStageMinusRaw: summarize(paired.stageOverRaw),
      pairedOutsideStage: summarize(paired.outsideStage),
      rawFtsLimit10: summarize(rawLimit10Ms),
      snippetsFor10Results: summarize(snippetMs),
      dataVersionPragmaMs: dataVersionMs,
      retriedStatements: retries,
    };
    const vectorCpuMs = { bareScan: summarize(cpu.bareScan), bareScanWasm: summarize(cpu.bareScanWasm), vsearch: summarize(cpu.vsearch) };
    /** Against the issue's floor, the JavaScript loop's bare scan. */
    const vectorRatio = { p50: latency.vsearch.p50 / latency.bareScan.p50, p95: latency.vsearch.p95 / latency.bareScan.p95 };
    /** Against the bare scan with the kernel the engine runs. */
    const vectorRatioWasm = { p50: latency.vsearch.p50 / latency.bareScanWasm.p50, p95: latency.vsearch.p95 / latency.bareScanWasm.p95 };
    const vectorBreakdown = {
      /** The SIMD kernel's bare scan ÷ the JavaScript loop's: median of the per-query ratios. */
      pairedWasmOverJsScan: summarize(vectorParts.wasmOverJs),
      pairedVsearchMinusBareScanWasm: summarize(vectorParts.overBare),
      queryEmbedding: summarize(vectorParts.queryEmbedding),
      vectorStageBeyondEmbeddingAndScan: summarize(vectorParts.stageBeyondEmbeddingAndScan),
      outsideVectorStage: summarize(vectorParts.outsideStage),
      /** Matrix bytes read per second by the bare scan at its median. */
      bareScanGBps: floorMatrix.byteLength / (latency.bareScan.p50 / 1000) / 1e9,
      bareScanWasmGBps: floorMatrix.byteLength / (latency.bareScanWasm.p50 / 1000) / 1e9,
    };
    const embedMs = ingestFloors.embedMs;
    const ingestRatios = {
      /**
       * The target's measure: the engine's whole ingest, nothing subtracted, against the bare FTS5
       * insert. Nothing is subtracted: the embedder runs beside the writes on another thread, so its
       * time is not part of the wall time.
       */
      overFtsInsert: ingestResult.wallMs / ingestFloors.ftsInsertMs,
      /** The earlier measure, kept for comparison with older runs; it means little when embedding overlaps the writes. */
      withoutEmbeddingOverFtsInsert: (ingestResult.wallMs - embedMs) / ingestFloors.ftsInsertMs,
      /** The whole ingest against the sum of its floors (analysis + embedding + FTS5 insert). */
      overSumOfFloors: ingestResult.wallMs / (ingestFloors.analysisMs + embedMs + ingestFloors.ftsInsertMs),
      /** CPU time of the ingest (all threads) over its wall time: above 1 when two threads ran at once. */
      cpuOverWall: ingestResult.cpuMs / ingestResult.wallMs,
    };
    const byKind = Object.fromEntries(
      [...kinds.entries()].map(([kind, k]) => {
        const r = summarize(k.raw);
        const s = summarize(k.search);
        return [kind, { queries: k.raw.length, rawFtsP50: r.p50, searchP50: s.p50, ratioP50: s.p50 / r.p50 }];
      }),
    );
    const ingestPerSec = ingestResult.passagesPerSec;
    const targets = [
      {
        name: "corpus ≥ 100,000 passages",
        measured: `${int(report.passages.total)} passages`,
        pass: report.passages.total >= TARGETS.passages,
      },
      {
        name: "≥ 500 timed queries",
        measured: `${int(t.search.length)} BM25 / ${int(t.vsearch.length)} vector`,
        pass: t.search.length >= TARGETS.queries,
      },
      { name: "engine BM25 p50 ≤ 1.3 × raw FTS5 p50", measured: `${fmt(ratios.p50)}×`, pass: ratios.p50 <= TARGETS.bm25Ratio },
      {
        name: "vsearch p95 ≤ 1.2 × bare scan p95 (JS)",
        measured: `${fmt(vectorRatio.p95)}×`,
        pass: vectorRatio.p95 <= TARGETS.vsearchOverBareScan,
      },
      { name: "vsearch p95 < 30 ms", measured: `${fmt(latency.vsearch.p95, 1)} ms`, pass: latency.vsearch.p95 < TARGETS.vsearchP95Ms },
      {
        name: "ingest ≤ 1.5 × bare FTS5 insert (nothing subtracted)",
        measured: `${fmt(ingestRatios.overFtsInsert)}×`,
        pass: ingestRatios.overFtsInsert <= TARGETS.ingestOverFtsInsert,
      },
      { name: "ingest ≥ 5,000 passages/s", measured: `${int(ingestPerSec)} passages/s`, pass: ingestPerSec >= TARGETS.ingestPerSec },
      {
        name: "engine peak RSS < 1 GiB",
        measured: `${fmt(mib(enginePeakRssBytes), 0)} MiB`,
        pass: enginePeakRssBytes < TARGETS.peakRssBytes,
      },
    ];
    const machine = {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      totalMemoryGiB: os.totalmem() / 1024 ** 3,
      node: process.version,
      sqlite: sqliteVersion,
      platform: `${os.platform()} ${os.release()}`,
      loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    };

    const lines: string[] = [];
    lines.push(`Engine benchmark — ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, SQLite ${machine.sqlite}`);
    const load = (l: number[]): string => l.map((x) => fmt(x)).join(" ");
    lines.push(`load average (1, 5, 15 min): ${load(machine.loadAverage.atStart)} at start, ${load(machine.loadAverage.atEnd)} at end`);
    lines.push(
      corpus
        ? `corpus: generated, seed ${seed}: ${int(corpus.documents)} Markdown files, ${fmt(mib(corpus.bytes), 1)} MiB, ${int(report.passages.total)} passages, languages ${languages.join(", ")}, ~${int(corpus.wordTypes)} word types`
        : `corpus: ${userCorpus}: ${int(report.documents.total)} documents, ${int(report.passages.total)} passages, languages ${languages.join(", ") || "(unknown)"}`,
    );
    const ph = ingestResult.phases;
    const wph = ingestResult.workerPhases;
    lines.push(
      `ingest: ${int(report.passages.written)} passages in ${fmt(ingestResult.wallMs / 1000, 1)} s = ${int(ingestPerSec)} passages/s` +
        `, CPU ${fmt(ingestResult.cpuMs / 1000, 1)} s (user + system, all threads) = ${fmt(ingestRatios.cpuOverWall)}× wall` +
        (ph
          ? ` (one thread, phases ≈ read+chunk+hash ${fmt(ph.readChunkHashMs / 1000, 1)} s, embed ${fmt(ph.embedMs / 1000, 1)} s, write transaction (analysis, FTS, vectors) ${fmt(ph.writeTransactionMs / 1000, 1)} s)`
          : "") +
        (wph
          ? ` (analysis and embedding on a worker thread; read+chunk+hash ${fmt(wph.readChunkHashMs / 1000, 1)} s, then writes with analysis and embedding beside them ${fmt(wph.writeTransactionMs / 1000, 1)} s)`
          : ""),
    );
    lines.push(
      `  floors, same passages: bare FTS5 insert (one transaction) ${fmt(ingestFloors.ftsInsertMs / 1000, 1)} s, analysis ${fmt(ingestFloors.analysisMs / 1000, 1)} s, offline embedder ${fmt(embedMs / 1000, 1)} s` +
        `; ingest = ${fmt(ingestRatios.overFtsInsert)}× FTS5 insert (nothing subtracted; ingest − embedding = ${fmt(ingestRatios.withoutEmbeddingOverFtsInsert)}×, the measure before the worker thread); ingest = ${fmt(ingestRatios.overSumOfFloors)}× (analysis + embedding + FTS5 insert)`,
    );
    lines.push(
      `first calls: search ${fmt(firstSearchMs, 0)} ms (catalog), vsearch ${fmt(firstVsearchMs, 0)} ms (vector load), thorough ${fmt(firstThoroughMs, 0)} ms (term list for spelling)`,
    );
    lines.push(
      `queries: ${int(queries.length)} timed after ${warmups.length} warm-up, limit ${LIMIT}${emptyMatches ? `, ${emptyMatches} with no searchable terms left out of the BM25 comparison` : ""}`,
    );
    lines.push("");
    lines.push(`${"method".padEnd(34)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"mean ms".padStart(9)}${"max ms".padStart(9)}`);
    const row = (name: string, s: Summary): void =>
      void lines.push(
        `${name.padEnd(34)}${fmt(s.p50).padStart(9)}${fmt(s.p95).padStart(9)}${fmt(s.mean).padStart(9)}${fmt(s.max).padStart(9)}`,
      );
    row(`raw FTS5 MATCH (LIMIT ${ENGINE_FTS_LIMIT})`, latency.rawFts);
    row("engine search (BM25)", latency.search);
    row("bare scan, JS dotRows (+ heap)", latency.bareScan);
    row("bare scan, WASM SIMD (+ heap)", latency.bareScanWasm);
    row("engine vsearch", latency.vsearch);
    row("engine query fast", latency.fast);
    row("engine query balanced", latency.balanced);
    row("engine query thorough", latency.thorough);
    lines.push("");
    lines.push(`engine BM25 / raw FTS5: p50 ${fmt(ratios.p50)}×, p95 ${fmt(ratios.p95)}×, mean ${fmt(ratios.mean)}×`);
    lines.push(
      `  by query kind (p50 raw → engine): ${Object.entries(byKind)
        .map(([k, v]) => `${k} ${fmt(v.rawFtsP50)} → ${fmt(v.searchP50)} (${fmt(v.ratioP50)}×)`)
        .join("; ")}`,
    );
    lines.push(
      `  per query, paired (median): engine − raw ${fmt(breakdown.pairedSearchMinusRaw.p50, 3)} ms = bm25 stage (FTS, rowid → document mapping, trace, re-runs) − raw ${fmt(breakdown.pairedStageMinusRaw.p50, 3)} ms` +
        ` + outside the bm25 stage (analysis, data_version check, passage rows, snippets, hits) ${fmt(breakdown.pairedOutsideStage.p50, 3)} ms`,
    );
    lines.push(
      `  measured apart (median): prepareLexicalQuery ${fmt(breakdown.analysisPrepareLexicalQuery.p50, 3)} ms, 10 snippets ${fmt(breakdown.snippetsFor10Results.p50, 3)} ms, ` +
        `data_version pragma ${fmt(dataVersionMs * 1000, 1)} µs, raw FTS5 with LIMIT ${LIMIT} ${fmt(breakdown.rawFtsLimit10.p50, 3)} ms; statement re-run with LIMIT ${ENGINE_FTS_LIMIT * 4} on ${retries}/${t.search.length} queries`,
    );
    lines.push(
      `engine vsearch / bare scan (JS dotRows): p50 ${fmt(vectorRatio.p50)}×, p95 ${fmt(vectorRatio.p95)}×; bare scan reads the ${fmt(mib(floorMatrix.byteLength), 0)} MiB matrix at ${fmt(vectorBreakdown.bareScanGBps, 1)} GB/s`,
    );
    lines.push(
      `engine vsearch / bare scan (WASM SIMD, the engine's kernel): p50 ${fmt(vectorRatioWasm.p50)}×, p95 ${fmt(vectorRatioWasm.p95)}×; at ${fmt(vectorBreakdown.bareScanWasmGBps, 1)} GB/s; ` +
        `WASM / JS bare scan, per query (median) ${fmt(vectorBreakdown.pairedWasmOverJsScan.p50)}×`,
    );
    lines.push(
      `  the engine scans on ${scanThreadsFor(rowCount, dimensions)} thread(s) (scan-threads.ts: two from ${int(PARALLEL_SCAN_MIN_VALUES)} values on, with two cores or more); the bare scans on one`,
    );
    lines.push(
      `  CPU time per query, p50 / p95: bare scan JS ${fmt(vectorCpuMs.bareScan.p50)} / ${fmt(vectorCpuMs.bareScan.p95)} ms, ` +
        `WASM ${fmt(vectorCpuMs.bareScanWasm.p50)} / ${fmt(vectorCpuMs.bareScanWasm.p95)} ms, engine vsearch ${fmt(vectorCpuMs.vsearch.p50)} / ${fmt(vectorCpuMs.vsearch.p95)} ms`,
    );
    lines.push(
      `  per query, paired (median): vsearch − WASM bare scan ${fmt(vectorBreakdown.pairedVsearchMinusBareScanWasm.p50, 3)} ms; query embedding ${fmt(vectorBreakdown.queryEmbedding.p50, 3)} ms, ` +
        `vector stage beyond embedding and scan (per-document best, top-k) ${fmt(vectorBreakdown.vectorStageBeyondEmbeddingAndScan.p50, 3)} ms, ` +
        `outside the vector stage (query analysis, passage rows, hits) ${fmt(vectorBreakdown.outsideVectorStage.p50, 3)} ms`,
    );
    lines.push(
      `memory: engine peak RSS ${fmt(mib(enginePeakRssBytes), 0)} MiB (before the floors), peak with the floors' data ${fmt(mib(peakRssBytes), 0)} MiB; RSS after corpus ${fmt(memAfterCorpus.rssMiB, 0)}, after ingest ${fmt(memAfterIngest.rssMiB, 0)}, after vector load ${fmt(memAfterVectors.rssMiB, 0)}, at end ${fmt(memEnd.rssMiB, 0)} MiB; heap used at end ${fmt(memEnd.heapUsedMiB, 0)} MiB`,
    );
    lines.push("");
    lines.push("targets:");
    for (const target of targets) lines.push(`  ${target.pass ? "PASS" : "MISS"}  ${target.name.padEnd(56)}${target.measured}`);
    process.stdout.write(`${lines.join("\n")}\n`);

    if (json) {
      const result = {
        machine,
        config: {
          seed,
          queries: queries.length,
          warmup: warmups.length,
          limit: LIMIT,
          engineFtsLimit: ENGINE_FTS_LIMIT,
          corpus: userCorpus ?? "generated",
          targetPassages,
          indexWorker,
        },
        corpus: corpus
          ? {
              kind: "generated-markdown",
              documents: corpus.documents,
              bytes: corpus.bytes,
              passages: report.passages.total,
              wordTypes: corpus.wordTypes,
              languages,
              generationMs: corpus.ms,
            }
          : { kind: "user", location: userCorpus, documents: report.documents.total, passages: report.passages.total, languages },
        ingest: {
          passages: report.passages.written,
          wallMs: ingestResult.wallMs,
          engineElapsedMs: report.elapsedMs,
          cpuMs: ingestResult.cpuMs,
          passagesPerSec: ingestPerSec,
          indexWorker,
          onWorkerThread: ingestResult.onWorker,
          phases: ingestResult.phases,
          workerPhases: ingestResult.workerPhases,
          floors: ingestFloors,
          ratios: ingestRatios,
        },
        firstCalls: { searchMs: firstSearchMs, vsearchMs: firstVsearchMs, thoroughMs: firstThoroughMs },
        latencyMs: latency,
        bm25Ratio: ratios,
        vectorRatio,
        vectorRatioWasm,
        vsearchScanThreads: scanThreadsFor(rowCount, dimensions),
        vectorCpuMs,
        vectorBreakdown,
        bm25ByKind: byKind,
        breakdown,
        memory: {
          enginePeakRssMiB: mib(enginePeakRssBytes),
          peakRssMiB: mib(peakRssBytes),
          afterCorpus: memAfterCorpus,
          afterIngest: memAfterIngest,
          afterVectorLoad: memAfterVectors,
          end: memEnd,
        },
        targets,
        emptyMatches,
      };
      writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
      say(`wrote ${json}`);
    }
  } finally {
    raw?.close();
    engine?.close();
    cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exitCode = 1;
});
