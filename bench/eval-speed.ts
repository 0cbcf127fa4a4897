/**
 * `pnpm bench:eval`: how long the suite takes, against a baseline measured in the same session
 * (runs interleaved, medians reported with the machine's load next to each number).
 *
 * On the fixtures (default): the README command, `npx -y pnpm@<version> eval` (pnpm's start-up
 * included), against the framework's floor — `evalite run` of one trivial eval (one case, one
 * scorer, SQLite storage like ours) in a scratch folder. Goal: at most 3×. Beside it, a second
 * floor: `evalite run` of trivial eval files of the suite run's shape (its files, suites, cases,
 * scores per case and traces, read from that run's storage; helpers/evalite-shape.ts) with the
 * suite's Evalite settings: what Evalite itself costs for that many cases, whatever they do.
 *
 * On a dataset (`--dataset <folder>`, any format `EVAL_DATASET` reads, e.g. one written by `pnpm
 * bench:beir`, with `--answers N` for answer cases): the suite's wall time for `pnpm eval` with
 * EVAL_DATASET=<folder>, against the engine doing the same distinct work with its own command
 * line: `pnpm engine index` of the corpus, one `pnpm engine run` batch of the judged queries per
 * mode the suite measures (search, vsearch, query at fast, balanced, thorough; top 10), and, when
 * the dataset has answer cases, one `pnpm engine ask --batch` of its questions. With answer cases
 * it also times the answer side alone: `pnpm eval ask` against `pnpm engine index` and `pnpm
 * engine ask --batch` of the same questions (`--answers-only`: that alone). Both run as package.json's scripts with
 * node_modules/.bin on the PATH, as pnpm runs them, without pnpm's own start-up. Reports each time,
 * their ratio (goal: at most 1.5×) and the peak memory (resident set, summed over the process and
 * its children).
 *
 * Usage: pnpm bench:eval [--runs N] [--dataset <folder> [--answers-only]]
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "../bin/lib/cli-args.js";
import { type Dataset, judgedCases, loadDataset } from "../helpers/dataset.js";
import { readRunShape, writeShapeEvals } from "./lib/evalite-shape.js";
import { endedChildrenCpuMs, treeRss } from "./lib/process-tree.js";

const USAGE = "Usage: pnpm bench:eval [--runs N] [--dataset <folder> [--answers-only]]";
const root = resolve(import.meta.dirname, "..");
const options = argumentsOrExit("bench:eval", () => {
  const { values } = parseCommandLine(
    { options: { runs: { type: "string" }, dataset: { type: "string" }, "answers-only": { type: "boolean" } } },
    USAGE,
  );
  const dataset = values.dataset === undefined ? null : resolve(values.dataset);
  if (dataset !== null && !existsSync(dataset))
    throw new UsageError(`--dataset: ${values.dataset} does not exist; pnpm bench:beir <folder> writes one`);
  if (values["answers-only"] && dataset === null)
    throw new UsageError(`--answers-only times a dataset's answer side; name it with --dataset`);
  return { runs: positiveInteger("runs", values.runs, dataset === null ? 3 : 2), dataset, answersOnly: values["answers-only"] === true };
});

const scratch = mkdtempSync(join(tmpdir(), "bench-eval-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

interface Measured {
  ms: number;
  /** CPU time (user + system) of the command's process tree: what it cost, whatever the load. */
  cpuMs: number;
  peakRss: number;
  /** 1-minute load average when the command started. */
  load: number;
}

/**
 * Runs a command to its end, timing it, sampling its process tree's memory every 100 ms and taking
 * its CPU time once it has been waited for (one command at a time, so nothing else ends between).
 */
function measure(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  allowed: readonly number[] = [0],
): Promise<Measured> {
  const load = loadavg()[0]!;
  const cpuBefore = endedChildrenCpuMs();
  const started = performance.now();
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, treeRss(child.pid!));
  }, 100);
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(sampler);
      const ms = performance.now() - started;
      if (code === null || !allowed.includes(code)) fail(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${stderr}`));
      else done({ ms, cpuMs: endedChildrenCpuMs() - cpuBefore, peakRss, load });
    });
  });
}

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { packageManager: string; scripts: Record<string, string> };
/** A package.json script as pnpm runs it (`sh -c`, node_modules/.bin first on the PATH), without pnpm's start-up. */
function script(name: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, allowed: readonly number[] = [0]): Promise<Measured> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return measure(
    "sh",
    ["-c", `${pkg.scripts[name]} ${quoted}`],
    root,
    { ...process.env, ...env, PATH: `${join(root, "node_modules/.bin")}${delimiter}${process.env.PATH}` },
    allowed,
  );
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number): string => (bytes === 0 ? "n/a" : `${Math.round(bytes / 2 ** 20)} MiB`);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
/** Evalite's storage, port and reports for a timed run go to the scratch folder, never the user's. */
const suiteEnv = (run: string): NodeJS.ProcessEnv => ({
  EVALITE_STORAGE: join(scratch, `${run}.db`),
  EVALITE_PORT: "0",
  EVAL_REPORTS_DIR: join(scratch, "reports"),
});

/** A scratch Evalite project in `folder` on the repository's node_modules, with `config` as its evalite.config.ts. */
function evaliteProject(folder: string, config: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "package.json"), JSON.stringify({ type: "module", private: true }));
  symlinkSync(join(root, "node_modules"), join(folder, "node_modules"), "dir");
  writeFileSync(join(folder, "evalite.config.ts"), config);
}

/** Evalite's defaults, with its SQLite storage. */
const STOCK_CONFIG = `import { defineConfig } from "evalite/config";
import { createSqliteStorage } from "evalite/sqlite-storage";
export default defineConfig({ storage: () => createSqliteStorage(process.env.EVALITE_STORAGE!) });
`;

/**
 * The suite's own Evalite settings (evalite.config.ts): its storage (helpers/fast-sqlite-storage.ts),
 * one worker, one module graph, 5 cases at once; so the floor is what the suite's cases cost in
 * Evalite as the suite runs it, not more.
 */
const SUITE_SETTINGS_CONFIG = `import { defineConfig } from "evalite/config";
import { createFastSqliteStorage } from ${JSON.stringify(join(root, "helpers/fast-sqlite-storage.ts"))};
export default defineConfig({
  storage: () => createFastSqliteStorage(process.env.EVALITE_STORAGE!),
  maxConcurrency: 5,
  viteConfig: { test: { isolate: false, maxWorkers: 1 } },
});
`;

async function onFixtures(runs: number): Promise<void> {
  const floorDir = join(scratch, "floor");
  evaliteProject(floorDir, STOCK_CONFIG);
  writeFileSync(
    join(floorDir, "trivial.eval.ts"),
    `import { evalite } from "evalite";\nevalite("Trivial", { data: [{ input: "a", expected: "a" }], task: (i) => i, scorers: [{ name: "same", scorer: ({ output, expected }) => (output === expected ? 1 : 0) }] });\n`,
  );
  const readme = ["-y", pkg.packageManager, "eval"];
  const suite: Measured[] = [];
  const floor: Measured[] = [];
  const shaped: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    floor.push(
      await measure(join(root, "node_modules/.bin/evalite"), ["run"], floorDir, { ...process.env, ...suiteEnv(`floor-${i}`) }, [0, 1]),
    );
    suite.push(await measure("npx", readme, root, { ...process.env, ...suiteEnv(`suite-${i}`) }, [0, 1]));
    // Evalite's own cost of the run just measured: its files, suites, cases, scores and traces, with trivial tasks.
    const shape = readRunShape(join(scratch, `suite-${i}.db`));
    const shapeDir = join(scratch, `shape-${i}`);
    evaliteProject(shapeDir, SUITE_SETTINGS_CONFIG);
    writeShapeEvals(shapeDir, shape);
    shaped.push(
      await measure(join(root, "node_modules/.bin/evalite"), ["run"], shapeDir, { ...process.env, ...suiteEnv(`shape-${i}`) }, [0, 1]),
    );
    const count = (key: "cases" | "traces") => shape.reduce((n, s) => n + s[key], 0);
    const scores = shape.reduce((n, s) => n + s.cases * s.scoresPerCase, 0);
    console.log(
      `run ${i + 1}: npx ${readme.join(" ")} ${seconds(suite[i]!.ms)} (CPU ${seconds(suite[i]!.cpuMs)}, load ${suite[i]!.load.toFixed(2)}, peak ${mib(suite[i]!.peakRss)}); evalite run, one trivial eval ${seconds(floor[i]!.ms)} (CPU ${seconds(floor[i]!.cpuMs)}, load ${floor[i]!.load.toFixed(2)}); evalite run, trivial evals of the suite's shape (${new Set(shape.map((s) => s.file)).size} files, ${shape.length} suites, ${count("cases")} cases, ${scores} scores, ${count("traces")} traces) ${seconds(shaped[i]!.ms)} (CPU ${seconds(shaped[i]!.cpuMs)}, load ${shaped[i]!.load.toFixed(2)})`,
    );
  }
  const ratios = suite.map((s, i) => s.ms / floor[i]!.ms);
  console.log(
    `pnpm eval (the README command, offline, every eval file): median ${seconds(median(suite.map((s) => s.ms)))} over ${runs} runs [${suite.map((s) => seconds(s.ms)).join(", ")}]`,
  );
  console.log(
    `evalite run, one trivial eval:                         median ${seconds(median(floor.map((s) => s.ms)))} over ${runs} runs [${floor.map((s) => seconds(s.ms)).join(", ")}]`,
  );
  console.log(
    `evalite run, trivial evals of the suite's shape:       median ${seconds(median(shaped.map((s) => s.ms)))} over ${runs} runs [${shaped.map((s) => seconds(s.ms)).join(", ")}]`,
  );
  const ratio = median(ratios);
  const cpuRatio = median(suite.map((s, i) => s.cpuMs / floor[i]!.cpuMs));
  console.log(
    `ratio: median ${ratio.toFixed(2)}× the framework's floor [${ratios.map((r) => `${r.toFixed(2)}×`).join(", ")}]; goal ≤ 3× — ${ratio <= 3 ? "met" : "MISSED"}; CPU time ratio ${cpuRatio.toFixed(2)}×; load average now ${load()}`,
  );
  const shapeRatio = median(shaped.map((s, i) => s.ms / floor[i]!.ms));
  const suiteOverShape = median(suite.map((s, i) => s.ms / shaped[i]!.ms));
  console.log(
    `Evalite alone, for the suite's cases, scores and traces: median ${shapeRatio.toFixed(2)}× the one-case floor (CPU ${median(shaped.map((s, i) => s.cpuMs / floor[i]!.cpuMs)).toFixed(2)}×), without pnpm's start-up; the suite ${suiteOverShape.toFixed(2)}× that (CPU ${median(suite.map((s, i) => s.cpuMs / shaped[i]!.cpuMs)).toFixed(2)}×)`,
  );
}

const ENGINE_BATCHES = [
  { label: "search", args: ["--mode", "search"] },
  { label: "vsearch", args: ["--mode", "vsearch"] },
  { label: "fast", args: ["--mode", "query", "--tier", "fast"] },
  { label: "balanced", args: ["--mode", "query", "--tier", "balanced"] },
  { label: "thorough", args: ["--mode", "query", "--tier", "thorough"] },
] as const;

/** The corpus as `pnpm engine index` takes it: the dataset's folder or corpus.jsonl, or its documents written as a corpus.jsonl. */
function engineCorpus(dataset: Dataset): string {
  const corpus = dataset.corpusSource;
  if (corpus.kind !== "documents") return corpus.path;
  const path = join(scratch, "corpus.jsonl");
  writeFileSync(
    path,
    `${corpus.documents.map((d) => JSON.stringify({ _id: d.id, title: d.title ?? "", text: d.text, ...(d.language ? { language: d.language } : {}) })).join("\n")}\n`,
  );
  return path;
}

async function onDataset(folder: string, runs: number, answersOnly: boolean): Promise<void> {
  // The engine gets exactly the queries the suite's retrieval evals rank (the judged ones), and the questions its answer evals ask.
  const dataset = argumentsOrExit("bench:eval", () => {
    try {
      return loadDataset({ EVAL_DATASET: folder });
    } catch (error) {
      throw new UsageError(`--dataset: ${(error as Error).message.split("\n")[0]}`);
    }
  });
  const judged = judgedCases(dataset.cases);
  const queries = join(scratch, "queries.jsonl");
  writeFileSync(queries, `${judged.map((c) => JSON.stringify({ _id: c.id, text: c.query })).join("\n")}\n`);
  const questions = join(scratch, "questions.jsonl");
  writeFileSync(questions, `${dataset.askCases.map((c) => JSON.stringify({ _id: c.id, text: c.question })).join("\n")}\n`);
  const answers = dataset.askCases.length > 0;
  const corpus = engineCorpus(dataset);
  const batches = [
    ...(judged.length > 0
      ? ENGINE_BATCHES.map((b) => ({
          label: b.label,
          args: ["run", queries, ...b.args, "--limit", "10", "--out", join(scratch, "run.txt")],
        }))
      : []),
    ...(answers ? [{ label: "ask", args: ["ask", "--batch", questions, "--out", join(scratch, "answers.jsonl")] }] : []),
  ];
  console.log(
    `bench:eval --dataset ${folder}: ${dataset.format}, ${dataset.corpusIds.length} documents, ${judged.length} judged queries, ${dataset.askCases.length} answer questions; load average ${load()}`,
  );
  const suites: Measured[] = [];
  const engines: Array<{
    index: Measured;
    batches: Measured[];
    startup: Measured;
    total: number;
    work: number;
    cpuMs: number;
    workCpuMs: number;
    peakRss: number;
  }> = [];
  const answerRounds: Array<{ suite: Measured; index: Measured; ask: Measured }> = [];
  if (answersOnly && !answers) throw new Error(`--answers-only: dataset ${dataset.name} has no answer cases`);
  for (let i = 0; i < runs; i++) {
    if (!answersOnly) await fullRound(i);
    if (answers) await answerRound(i);
  }
  /** The whole suite against the engine's whole work. */
  async function fullRound(i: number): Promise<void> {
    // Status 1 is a verdict (a floor fell, an eval failed), not a failure to run.
    const suite = await script("eval", [], { ...suiteEnv(`suite-${i}`), EVAL_DATASET: folder }, [0, 1]);
    suites.push(suite);
    const db = join(scratch, `engine-${i}.db`);
    const index = await script("engine", ["index", corpus, "--db", db, "--collection", dataset.collection]);
    const measuredBatches: Measured[] = [];
    for (const batch of batches) measuredBatches.push(await script("engine", [...batch.args, "--db", db]));
    // What one engine command costs before it does any work: each of the commands above paid it.
    const startup = await script("engine", ["stats", "--db", db]);
    const commands = 1 + batches.length;
    const total = index.ms + measuredBatches.reduce((s, b) => s + b.ms, 0);
    const cpuMs = index.cpuMs + measuredBatches.reduce((s, b) => s + b.cpuMs, 0);
    // The engine's commands each paid the CLI's start-up; without it, what the work itself took.
    const work = total - commands * startup.ms;
    const workCpuMs = cpuMs - commands * startup.cpuMs;
    const peakRss = Math.max(index.peakRss, ...measuredBatches.map((b) => b.peakRss));
    engines.push({ index, batches: measuredBatches, startup, total, work, cpuMs, workCpuMs, peakRss });
    console.log(`run ${i + 1} of ${runs}:`);
    console.log(
      `  suite:  pnpm eval ${seconds(suite.ms)} (CPU ${seconds(suite.cpuMs)}, load ${suite.load.toFixed(2)}), peak ${mib(suite.peakRss)}`,
    );
    console.log(
      `  engine: index ${seconds(index.ms)} (load ${index.load.toFixed(2)}); ${batches.map((b, j) => `${b.label} ${seconds(measuredBatches[j]!.ms)}`).join(", ")}; total ${seconds(total)} (CPU ${seconds(cpuMs)}), peak ${mib(peakRss)} (one command's start-up: ${seconds(startup.ms)}, CPU ${seconds(startup.cpuMs)})`,
    );
    console.log(
      `  ratio:  suite ÷ engine ${(suite.ms / total).toFixed(2)}× wall, ${(suite.cpuMs / cpuMs).toFixed(2)}× CPU; ÷ the engine without its ${commands} start-ups (${seconds(work)}, CPU ${seconds(workCpuMs)}) ${(suite.ms / work).toFixed(2)}× wall, ${(suite.cpuMs / workCpuMs).toFixed(2)}× CPU`,
    );
  }
  /** The answer side alone: the answer evals against the engine indexing and answering the same questions. */
  async function answerRound(i: number): Promise<void> {
    const askSuite = await script("eval", ["ask"], { ...suiteEnv(`ask-${i}`), EVAL_DATASET: folder }, [0, 1]);
    const askDb = join(scratch, `engine-ask-${i}.db`);
    const askIndex = await script("engine", ["index", corpus, "--db", askDb, "--collection", dataset.collection]);
    const ask = await script("engine", ["ask", "--batch", questions, "--db", askDb, "--out", join(scratch, "answers.jsonl")]);
    answerRounds.push({ suite: askSuite, index: askIndex, ask });
    const engineMs = askIndex.ms + ask.ms;
    if (answersOnly) console.log(`run ${i + 1} of ${runs}:`);
    console.log(
      `  answers: pnpm eval ask ${seconds(askSuite.ms)} (CPU ${seconds(askSuite.cpuMs)}, load ${askSuite.load.toFixed(2)}, peak ${mib(askSuite.peakRss)}); engine index ${seconds(askIndex.ms)} + ask --batch ${seconds(ask.ms)} = ${seconds(engineMs)} (CPU ${seconds(askIndex.cpuMs + ask.cpuMs)}, peak ${mib(Math.max(askIndex.peakRss, ask.peakRss))}); ratio ${(askSuite.ms / engineMs).toFixed(2)}× wall, ${(askSuite.cpuMs / (askIndex.cpuMs + ask.cpuMs)).toFixed(2)}× CPU`,
    );
  }
  if (suites.length > 0) printFull();
  function printFull(): void {
    const ratios = suites.map((s, i) => s.ms / engines[i]!.total);
    const ratio = median(ratios);
    const cpuRatio = median(suites.map((s, i) => s.cpuMs / engines[i]!.cpuMs));
    const workRatio = median(suites.map((s, i) => s.ms / engines[i]!.work));
    const workCpuRatio = median(suites.map((s, i) => s.cpuMs / engines[i]!.workCpuMs));
    console.log(
      `median over ${runs} runs: suite ${seconds(median(suites.map((s) => s.ms)))}, engine ${seconds(median(engines.map((e) => e.total)))}, ratio ${ratio.toFixed(2)}× [${ratios.map((r) => `${r.toFixed(2)}×`).join(", ")}]; goal ≤ 1.5× — ${ratio <= 1.5 ? "met" : "MISSED"}; CPU time ratio ${cpuRatio.toFixed(2)}×; without the engine's start-ups ${workRatio.toFixed(2)}× wall, ${workCpuRatio.toFixed(2)}× CPU; peak memory: suite ${mib(Math.max(...suites.map((s) => s.peakRss)))}, engine ${mib(Math.max(...engines.map((e) => e.peakRss)))}; load average now ${load()}`,
    );
  }
  if (answerRounds.length > 0) {
    const askRatios = answerRounds.map((r) => r.suite.ms / (r.index.ms + r.ask.ms));
    const askRatio = median(askRatios);
    console.log(
      `answers, median over ${runs} runs: pnpm eval ask ${seconds(median(answerRounds.map((r) => r.suite.ms)))}, engine index + ask --batch ${seconds(median(answerRounds.map((r) => r.index.ms + r.ask.ms)))}, ratio ${askRatio.toFixed(2)}× [${askRatios.map((r) => `${r.toFixed(2)}×`).join(", ")}]; goal ≤ 1.5× — ${askRatio <= 1.5 ? "met" : "MISSED"}; CPU time ratio ${median(answerRounds.map((r) => r.suite.cpuMs / (r.index.cpuMs + r.ask.cpuMs))).toFixed(2)}×`,
    );
  }
}

if (options.dataset === null) await onFixtures(options.runs);
else await onDataset(options.dataset, options.runs, options.answersOnly);
