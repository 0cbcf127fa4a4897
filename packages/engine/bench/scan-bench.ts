/**
 * The exact vector scan alone (`pnpm bench:scan`): the JavaScript loop (`dotRows`, the vsearch
 * floor) against the engine's WebAssembly SIMD kernel (retrieval/dot-rows-wasm.ts) on one thread
 * and on two (retrieval/scan-threads.ts, as the engine runs it on large matrices), on one matrix of
 * seeded random unit rows, in one process, rotating which goes first in each round, so a shared
 * machine's load hits all three. Reports CPU time per scan (user + system of this process, all its
 * threads; load inflates it less than wall time), wall time at p50 and p95, the ratio of the
 * medians and the median of the per-round ratios, with the load average at start and end; and
 * checks after every round that all three gave bit-identical scores (exit 1 if not).
 *
 *   pnpm bench:scan [--rows 100000] [--dims 384] [--scans 40] [--seed 42]
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { wasmResidentRows } from "../src/retrieval/dot-rows-wasm.js";
import { jsResidentRows, normalizeRow } from "../src/retrieval/vector.js";
import { seededRandom } from "./corpus.js";

const USAGE = "Usage: pnpm bench:scan [--rows N] [--dims N] [--scans N] [--seed N]";
const WARMUP_SCANS = 3;

interface ScanTime {
  cpuMs: number;
  wallMs: number;
}

/** One line, `bench:scan: <problem>; Usage: …`, and exit 2, as the other benchmarks do. */
function badArguments(problem: string): never {
  process.stderr.write(`bench:scan: ${problem}; ${USAGE}\n`);
  process.exit(2);
}

function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) badArguments(`--${name} must be a positive integer, got "${text}"`);
  return n;
}

function timed(scan: () => void): ScanTime {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  scan();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};
const ms = (n: number): string => n.toFixed(2);
const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

function main(): void {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        rows: { type: "string" },
        dims: { type: "string" },
        scans: { type: "string" },
        seed: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    badArguments((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const text = (name: string, fallback: string): string => (typeof values[name] === "string" ? (values[name] as string) : fallback);
  const rows = positiveInt("rows", text("rows", "100000"));
  const dims = positiveInt("dims", text("dims", "384"));
  const scans = positiveInt("scans", text("scans", "40"));
  const seed = positiveInt("seed", text("seed", "42"));

  const wasm = wasmResidentRows(rows, dims);
  if (!wasm) {
    process.stderr.write("bench:scan: no WebAssembly SIMD (or no memory for the matrix) in this runtime: nothing to compare\n");
    process.exit(1);
  }
  const js = jsResidentRows(rows, dims);
  const rng = seededRandom(seed);
  const gaussian = (): number => rng() + rng() + rng() + rng() - 2;
  for (let i = 0; i < js.matrix.length; i++) js.matrix[i] = gaussian();
  for (let r = 0; r < rows; r++) normalizeRow(js.matrix, r * dims, dims);
  wasm.matrix.set(js.matrix); // the one copy, as the engine's matrix is built once
  const query = (): Float64Array => {
    const q = Float64Array.from({ length: dims }, () => Math.fround(gaussian()));
    const norm = Math.sqrt(q.reduce((s, v) => s + v * v, 0));
    return q.map((v) => Math.fround(v / norm));
  };

  const threaded = wasmResidentRows(rows, dims, { threads: 2 });
  if (threaded?.threads !== 2) {
    process.stderr.write("bench:scan: no shared WebAssembly memory or worker thread in this runtime: nothing to compare on two threads\n");
    process.exit(1);
  }
  threaded.matrix.set(js.matrix);

  const loadAtStart = loadAverage();
  const firstWasm = timed(() => wasm.scan(query()));
  for (let k = 0; k < WARMUP_SCANS; k++) {
    const q = query();
    js.scan(q);
    wasm.scan(q);
    threaded.scan(q);
  }
  const contenders = [
    { name: "JS dotRows", rows: js, times: [] as ScanTime[] },
    { name: "WASM SIMD kernel", rows: wasm, times: [] as ScanTime[] },
    { name: "WASM SIMD, 2 threads", rows: threaded, times: [] as ScanTime[] },
  ];
  let mismatches = 0;
  for (let k = 0; k < scans; k++) {
    const q = query();
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(k + i) % contenders.length]!;
      c.times.push(timed(() => c.rows.scan(q)));
    }
    for (let r = 0; r < rows; r++) {
      if (!Object.is(js.scores[r], wasm.scores[r]) || !Object.is(js.scores[r], threaded.scores[r])) mismatches++;
    }
  }
  const helperPieces = threaded.helperPieces;
  threaded.dispose();

  const gbps = (wallOrCpuMs: number): string => (js.matrix.byteLength / (wallOrCpuMs / 1000) / 1e9).toFixed(1);
  const p95 = (values: readonly number[]): number =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)]!;
  const [jsTimes, wasmTimes, threadedTimes] = contenders.map((c) => c.times) as [ScanTime[], ScanTime[], ScanTime[]];
  const ratio = (a: ScanTime[], b: ScanTime[], of: (t: ScanTime) => number): string =>
    `ratio of medians ${(median(a.map(of)) / median(b.map(of))).toFixed(3)}×, median of per-round ratios ${median(a.map((t, k) => of(t) / of(b[k]!))).toFixed(3)}×`;
  const lines = [
    `vector scan, ${rows.toLocaleString("en-US")} × ${dims} float32 (${(js.matrix.byteLength / 1024 ** 2).toFixed(0)} MiB), ${scans} scans each, rotating; Node ${process.version}, ${os.cpus().length} CPUs`,
    `load average (1, 5, 15 min): ${loadAtStart} at start, ${loadAverage()} at end`,
    `first WASM scan (before V8's optimizing tier): ${ms(firstWasm.cpuMs)} ms CPU`,
    "",
    `${"scan".padEnd(24)}${"CPU p50".padStart(9)}${"min".padStart(9)}${"max".padStart(9)}${"wall p50".padStart(10)}${"wall p95".padStart(10)}${"GB/s wall".padStart(11)}`,
    ...contenders.map(({ name, times }) => {
      const cpu = times.map((t) => t.cpuMs);
      const wall = times.map((t) => t.wallMs);
      return `${name.padEnd(24)}${ms(median(cpu)).padStart(9)}${ms(Math.min(...cpu)).padStart(9)}${ms(Math.max(...cpu)).padStart(9)}${ms(median(wall)).padStart(10)}${ms(p95(wall)).padStart(10)}${gbps(median(wall)).padStart(11)}`;
    }),
    "",
    `WASM / JS, CPU: ${ratio(wasmTimes, jsTimes, (t) => t.cpuMs)}`,
    `WASM on 2 threads / WASM on 1, wall: ${ratio(threadedTimes, wasmTimes, (t) => t.wallMs)}; CPU: ${ratio(threadedTimes, wasmTimes, (t) => t.cpuMs)}`,
    `the helper thread scanned ${helperPieces} pieces of the rows (the rest were the calling thread's)`,
    `scores: ${mismatches === 0 ? "bit-identical in every scan" : `${mismatches} differ`}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  if (mismatches > 0) process.exitCode = 1;
}

main();
