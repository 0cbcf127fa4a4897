/**
 * `pnpm bench:watch`: how long from saving a corpus document to updated scores in watch mode.
 * Starts `evalite watch <eval file>` (by default evals/search.eval.ts, one retrieval eval file on
 * the fixture corpus) on a port the system picks with its own storage in a scratch folder, waits for the first
 * run, then edits one corpus document N times (a sentence appended each time). Each edit is timed
 * from the write until Evalite's storage (the SQLite file at EVALITE_STORAGE, polled every 10 ms)
 * holds a new run whose every case is finished and scored — what the UI then shows. Prints each
 * time with the CPU time the watcher's processes used for it (what the rerun costs whatever the
 * load), the median and the machine's load, and restores the document (also on Ctrl-C).
 *
 * Usage: pnpm bench:watch [--edits N] [--eval evals/search.eval.ts] [--document fixtures/corpus/…]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "../bin/lib/cli-args.js";
import { treeCpuMs } from "./lib/process-tree.js";

const USAGE = "Usage: pnpm bench:watch [--edits N] [--eval <eval file>] [--document <corpus document>]";
const GOAL_MS = 3000;
const root = resolve(import.meta.dirname, "..");
const args = argumentsOrExit("bench:watch", () => {
  const { values } = parseCommandLine(
    { options: { edits: { type: "string" }, eval: { type: "string" }, document: { type: "string" } } },
    USAGE,
  );
  const evalFile = values.eval ?? "evals/search.eval.ts";
  const document = values.document ?? "fixtures/corpus/en/account/export-your-data.md";
  for (const [flag, path] of [
    ["eval", evalFile],
    ["document", document],
  ] as const) {
    if (!existsSync(join(root, path))) throw new UsageError(`--${flag}: no such file: ${path}`);
  }
  return { edits: positiveInteger("edits", values.edits, 5), evalFile, document: join(root, document) };
});

const scratch = mkdtempSync(join(tmpdir(), "bench-watch-"));
const storagePath = join(scratch, "evalite.db");
const original = readFileSync(args.document, "utf8");
let watcher: ChildProcess | undefined;

function cleanUp(): void {
  writeFileSync(args.document, original);
  if (watcher?.exitCode === null) watcher.kill("SIGTERM");
  rmSync(scratch, { recursive: true, force: true });
}
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

interface RunState {
  id: number;
  cases: number;
  finished: number;
  scored: number;
}

/** The newest run in Evalite's storage, with how many of its cases are finished and scored. */
function latestRun(db: Database.Database): RunState | undefined {
  // The file exists a moment before Evalite has created its tables: no tables yet is no run yet.
  const tables = db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'suites', 'evals', 'scores')")
    .get() as {
    n: number;
  };
  if (tables.n < 4) return undefined;
  return db
    .prepare(
      `SELECT r.id AS id, count(e.id) AS cases,
              sum(e.status != 'running') AS finished,
              sum(EXISTS (SELECT 1 FROM scores s WHERE s.eval_id = e.id)) AS scored
         FROM runs r JOIN suites su ON su.run_id = r.id JOIN evals e ON e.suite_id = su.id
        GROUP BY r.id ORDER BY r.id DESC LIMIT 1`,
    )
    .get() as RunState | undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Polls until a run newer than `after` has `cases` cases, all finished and scored; its id. */
async function completeRunAfter(after: number, cases: number | null, timeoutMs: number): Promise<RunState> {
  const deadline = performance.now() + timeoutMs;
  let db: Database.Database | undefined;
  try {
    while (performance.now() < deadline) {
      if (watcher?.exitCode !== null) throw new Error(`evalite watch exited (status ${watcher?.exitCode}):\n${output.slice(-2000)}`);
      if (!db && existsSync(storagePath)) db = new Database(storagePath, { readonly: true, fileMustExist: true });
      const run = db ? latestRun(db) : undefined;
      if (run && run.id > after && run.finished === run.cases && run.scored === run.cases && (cases === null || run.cases === cases))
        return run;
      await sleep(10);
    }
  } finally {
    db?.close();
  }
  throw new Error(`no complete run after run ${after} within ${timeoutMs / 1000} s:\n${output.slice(-2000)}`);
}

let output = "";
// Port 0: the server binds a port the system picks and says which (patched Evalite), nothing to race for.
watcher = spawn(join(root, "node_modules/.bin/evalite"), ["watch", args.evalFile], {
  cwd: root,
  env: { ...process.env, EVALITE_PORT: "0", EVALITE_STORAGE: storagePath },
  stdio: ["pipe", "pipe", "pipe"],
});
// The watcher's output, kept for the error message when it stops or stalls.
let port = "unknown";
const keep = (chunk: Buffer): void => {
  output = (output + chunk.toString()).slice(-20_000);
  port = /^Port 0: using port (\d+)/m.exec(output)?.[1] ?? port;
};
watcher.stdout!.on("data", keep);
watcher.stderr!.on("data", keep);

const started = performance.now();
// The first run has every case of the file; its size tells when a rerun is complete.
const first = await completeRunAfter(0, null, 300_000);
// Its cases may still be arriving when the first complete snapshot is read: wait until stable.
let baseline = first;
for (let stable = 0; stable < 5; ) {
  await sleep(100);
  const next = await completeRunAfter(baseline.id - 1, null, 10_000);
  stable = next.cases === baseline.cases ? stable + 1 : 0;
  baseline = next;
}
console.log(
  `bench:watch: evalite watch ${args.evalFile} (port ${port}): first run ${((performance.now() - started) / 1000).toFixed(1)} s, ${baseline.cases} cases`,
);

const times: number[] = [];
const cpuTimes: number[] = [];
let last = baseline.id;
for (let i = 1; i <= args.edits; i++) {
  const load = loadavg()[0]!.toFixed(2);
  const cpuBefore = treeCpuMs(watcher.pid!);
  const saved = performance.now();
  writeFileSync(args.document, `${original}\nBench edit ${i}: the export now also covers archived workspaces.\n`);
  const run = await completeRunAfter(last, baseline.cases, 120_000);
  const ms = performance.now() - saved;
  // What the rerun cost the watcher's processes (main, worker), whatever the machine's load.
  const cpuMs = treeCpuMs(watcher.pid!) - cpuBefore;
  times.push(ms);
  cpuTimes.push(cpuMs);
  last = run.id;
  console.log(
    `edit ${i}: save → ${run.cases} cases scored in run ${run.id}: ${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s, load ${load})`,
  );
  await sleep(500);
}
const middle = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const median = middle(times);
console.log(
  `median of ${times.length} edits: ${(median / 1000).toFixed(2)} s (CPU ${(middle(cpuTimes) / 1000).toFixed(2)} s); goal ≤ ${GOAL_MS / 1000} s — ${median <= GOAL_MS ? "met" : "MISSED"} (load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")})`,
);
process.exit(0);
