/**
 * The exact vector scan alone (`pnpm bench:scan`): the JavaScript loop (`dotRows`, issue 18's
 * floor) against the engine's WebAssembly SIMD kernel (retrieval/dot-rows-wasm.ts), on one matrix
 * of seeded random unit rows, in one process, alternating which goes first in each pair, so a
 * shared machine's load hits both. Reports CPU time per scan (user + system of this process, which
 * load inflates less than wall time), wall time, the ratio of the medians and the median of the
 * per-pair ratios, with the load average at start and end; and checks after every pair that the two
 * gave bit-identical scores (exit 1 if not).
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

  const loadAtStart = loadAverage();
  const firstWasm = timed(() => wasm.scan(query()));
  for (let k = 0; k < WARMUP_SCANS; k++) {
    const q = query();
    js.scan(q);
    wasm.scan(q);
  }
  const jsTimes: ScanTime[] = [];
  const wasmTimes: ScanTime[] = [];
  let mismatches = 0;
  for (let k = 0; k < scans; k++) {
    const q = query();
    if (k % 2 === 0) {
      jsTimes.push(timed(() => js.scan(q)));
      wasmTimes.push(timed(() => wasm.scan(q)));
    } else {
      wasmTimes.push(timed(() => wasm.scan(q)));
      jsTimes.push(timed(() => js.scan(q)));
    }
    for (let r = 0; r < rows; r++) if (!Object.is(js.scores[r], wasm.scores[r])) mismatches++;
  }

  const gbps = (cpuMs: number): string => (js.matrix.byteLength / (cpuMs / 1000) / 1e9).toFixed(1);
  const jsCpu = median(jsTimes.map((t) => t.cpuMs));
  const wasmCpu = median(wasmTimes.map((t) => t.cpuMs));
  const lines = [
    `vector scan, ${rows.toLocaleString("en-US")} × ${dims} float32 (${(js.matrix.byteLength / 1024 ** 2).toFixed(0)} MiB), ${scans} scans each, alternating; Node ${process.version}, ${os.cpus().length} CPUs`,
    `load average (1, 5, 15 min): ${loadAtStart} at start, ${loadAverage()} at end`,
    `first WASM scan (before V8's optimizing tier): ${ms(firstWasm.cpuMs)} ms CPU`,
    "",
    `${"scan".padEnd(24)}${"CPU p50".padStart(9)}${"min".padStart(9)}${"max".padStart(9)}${"wall p50".padStart(10)}${"GB/s".padStart(7)}`,
    ...(
      [
        ["JS dotRows", jsTimes],
        ["WASM SIMD kernel", wasmTimes],
      ] as const
    ).map(([name, times]) => {
      const cpu = times.map((t) => t.cpuMs);
      const c = median(cpu);
      return `${name.padEnd(24)}${ms(c).padStart(9)}${ms(Math.min(...cpu)).padStart(9)}${ms(Math.max(...cpu)).padStart(9)}${ms(median(times.map((t) => t.wallMs))).padStart(10)}${gbps(c).padStart(7)}`;
    }),
    "",
    `WASM / JS, CPU: ratio of medians ${(wasmCpu / jsCpu).toFixed(3)}×, median of per-pair ratios ${median(wasmTimes.map((t, k) => t.cpuMs / jsTimes[k]!.cpuMs)).toFixed(3)}×`,
    `scores: ${mismatches === 0 ? "bit-identical in every scan" : `${mismatches} differ`}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  if (mismatches > 0) process.exitCode = 1;
}

main();
