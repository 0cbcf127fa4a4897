/**
 * `pnpm bench:metrics [--topics N] [--docs N] [--keep]`: end-to-end speed of `pnpm trec-eval`.
 *
 * Generates (deterministically, seeded) a qrels file and a run of N topics × N docs (default
 * 10,000 × 1,000 = 10 million lines) in a temp folder, then times
 *   node packages/trec-eval/dist/entry.js -m map -m ndcg_cut.10 -m P.10 -m recall.1000 -m recip_rank <qrels> <run>
 * as a child process (the same code path as `pnpm trec-eval`, startup included) and reports run
 * lines per second and peak RSS (from /usr/bin/time -v, else by polling /proc). If `trec_eval` is
 * on the PATH it is timed on the same files and the outputs are compared. The folder is removed.
 *
 * The run looks like an engine's: each topic's lines in rank order, scores with 4 decimals, so
 * ties occur (about 1 in 100 ranks) and most topics need a real sort by score then docid.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const MEASURES = ["-m", "map", "-m", "ndcg_cut.10", "-m", "P.10", "-m", "recall.1000", "-m", "recip_rank"];

const USAGE = "Usage: pnpm bench:metrics [--topics N] [--docs N] [--keep]";

/** The command line (strict util.parseArgs); a bad argument is one line on stderr and exit 2. */
function readArguments(): { topics: number; docs: number; keep: boolean } {
  const positive = (flag: string, value: string | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${flag} must be a positive integer, got "${value}"`);
    return Number(value);
  };
  try {
    const { values } = parseArgs({ options: { topics: { type: "string" }, docs: { type: "string" }, keep: { type: "boolean" } } });
    return { topics: positive("topics", values.topics, 10_000), docs: positive("docs", values.docs, 1_000), keep: values.keep === true };
  } catch (error) {
    process.stderr.write(`bench:metrics: ${(error as Error).message}; ${USAGE}\n`);
    process.exit(2);
  }
}

function generate(dir: string, topics: number, docs: number): { qrels: string; run: string; runLines: number; qrelsLines: number } {
  // A seeded linear congruential generator (Numerical Recipes' constants): the same files every run.
  let state = 20260521;
  const random = (): number => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
  const qrelsPath = join(dir, "qrels.txt");
  const runPath = join(dir, "run.txt");
  const qfd = openSync(qrelsPath, "w");
  const rfd = openSync(runPath, "w");
  let qrelsLines = 0;
  let runBuf = "";
  let qrelsBuf = "";
  for (let t = 0; t < topics; t++) {
    const qid = String(100000 + t);
    let score = 100;
    const docIds: string[] = [];
    for (let r = 0; r < docs; r++) {
      const docId = `d${(t * 1000003 + r * 7919) % 99999989}`;
      docIds.push(docId);
      score -= Math.floor(random() * 200) / 10000; // ~1% of steps are 0: tied scores
      runBuf += `${qid} Q0 ${docId} ${r + 1} ${score.toFixed(4)} bench\n`;
    }
    // ~100 judgments per topic: half among retrieved docs (biased to the top), half unretrieved.
    const judged = new Set<string>();
    for (let j = 0; j < 50; j++) judged.add(docIds[Math.floor(random() ** 2 * docs)]!);
    for (let j = 0; j < 50; j++) judged.add(`u${t}_${j}`);
    for (const docId of judged) {
      qrelsBuf += `${qid} 0 ${docId} ${Math.floor(random() * 4)}\n`;
      qrelsLines++;
    }
    if (runBuf.length > 1 << 24) {
      writeSync(rfd, runBuf);
      runBuf = "";
    }
    if (qrelsBuf.length > 1 << 22) {
      writeSync(qfd, qrelsBuf);
      qrelsBuf = "";
    }
  }
  writeSync(rfd, runBuf);
  writeSync(qfd, qrelsBuf);
  closeSync(rfd);
  closeSync(qfd);
  return { qrels: qrelsPath, run: runPath, runLines: topics * docs, qrelsLines };
}

interface Timing {
  seconds: number;
  peakRssKiB: number | null;
  stdout: string;
  status: number | null;
  stderr: string;
}

/** Runs a command, timing it; peak RSS from /usr/bin/time -v when present, else by polling /proc. */
async function timed(command: string, args: readonly string[]): Promise<Timing> {
  const gnuTime = existsSync("/usr/bin/time");
  const [cmd, argv] = gnuTime ? ["/usr/bin/time", ["-v", command, ...args]] : [command, [...args]];
  const started = process.hrtime.bigint();
  const child = spawn(cmd, argv, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString("latin1")));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  let polledPeak = 0;
  const poll = gnuTime ? null : setInterval(() => (polledPeak = Math.max(polledPeak, treeRssKiB(child.pid!))), 20);
  const status = await new Promise<number | null>((done) => child.on("close", done));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (poll) clearInterval(poll);
  let peakRssKiB: number | null = polledPeak || null;
  if (gnuTime) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    peakRssKiB = m ? Number(m[1]) : null;
    stderr = stderr.slice(0, stderr.indexOf("\tCommand being timed")).trim();
  }
  return { seconds, peakRssKiB, stdout, status, stderr };
}

/** Largest VmHWM among a process and its descendants (tsx runs node as a child). */
function treeRssKiB(pid: number): number {
  let peak = 0;
  try {
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    if (hwm) peak = Number(hwm[1]);
    for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)) {
      if (task) peak = Math.max(peak, treeRssKiB(Number(task)));
    }
  } catch {
    // process gone
  }
  return peak;
}

const mib = (kib: number | null): string => (kib === null ? "unknown" : `${(kib / 1024).toFixed(0)} MiB`);

async function main(): Promise<void> {
  const { topics, docs, keep } = readArguments();
  const dir = mkdtempSync(join(tmpdir(), "metrics-bench-"));
  try {
    const t0 = Date.now();
    const files = generate(dir, topics, docs);
    console.log(
      `generated ${files.runLines.toLocaleString("en")} run lines (${(statSync(files.run).size / 2 ** 20).toFixed(0)} MiB) and ` +
        `${files.qrelsLines.toLocaleString("en")} qrels lines in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    // What `pnpm trec-eval` runs (package.json), without pnpm: the compiled CLI.
    const ours = await timed(process.execPath, [
      "--import",
      join(repoRoot, "bin/check-build.mjs"),
      join(repoRoot, "packages/trec-eval/dist/entry.js"),
      ...MEASURES,
      files.qrels,
      files.run,
    ]);
    if (ours.status !== 0) throw new Error(`trec-eval failed (${ours.status}): ${ours.stderr}`);
    const rate = files.runLines / ours.seconds;
    console.log(`\ntrec-eval ${MEASURES.join(" ")} <qrels> <run>`);
    console.log(ours.stdout.trimEnd());
    console.log(
      `\nours:      ${ours.seconds.toFixed(2)} s end to end, ${Math.round(rate).toLocaleString("en")} run lines/s, peak RSS ${mib(ours.peakRssKiB)}` +
        `  (target >= 1,000,000 lines/s, < 2 GiB: ${rate >= 1e6 && (ours.peakRssKiB ?? 0) < 2 * 2 ** 20 ? "met" : "NOT met"})`,
    );

    const which = spawnSync("sh", ["-c", "command -v trec_eval"], { encoding: "utf8" });
    const binary = which.status === 0 ? which.stdout.trim() : "";
    if (!binary) {
      console.log("trec_eval: not found on PATH, no ratio printed");
    } else {
      const theirs = await timed(binary, [...MEASURES, files.qrels, files.run]);
      const same = theirs.stdout === ours.stdout;
      console.log(
        `trec_eval: ${theirs.seconds.toFixed(2)} s, peak RSS ${mib(theirs.peakRssKiB)} (${binary}); ours/trec_eval time ratio ${(ours.seconds / theirs.seconds).toFixed(2)}; outputs ${same ? "identical" : "DIFFER"}`,
      );
    }
  } finally {
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench:metrics: ${(error as Error).message}`);
  process.exitCode = 1;
});
