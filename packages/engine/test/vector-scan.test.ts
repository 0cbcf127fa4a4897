import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../bench/corpus.js";
import { type ResidentRows, simdScanAvailable, wasmResidentRows } from "../src/retrieval/dot-rows-wasm.js";
import { PARALLEL_SCAN_MIN_VALUES } from "../src/retrieval/scan-threads.js";
import { dotRows, jsResidentRows, normalizeRow, residentRows } from "../src/retrieval/vector.js";

// The SIMD kernel must compute every score exactly as dotRows does: the pinned search results fix
// each sum's order and rounding, so "close" is wrong here. Compared with Object.is (tells -0 from 0).

type Rng = () => number;

/** Roughly normal values (sum of uniforms), the shape of embedding coordinates. */
const gaussian = (rng: Rng): number => rng() + rng() + rng() + rng() - 2;

/**
 * A matrix of `rows` × `dims` with the cases that could tell two summation orders apart: unit rows
 * (as the engine holds them), raw rows of mixed magnitude, all-zero rows, and rows with -0,
 * float32 subnormals and values far apart in scale (where a different order would round differently).
 */
function fillMatrix(matrix: Float32Array, rows: number, dims: number, rng: Rng): void {
  for (let r = 0; r < rows; r++) {
    const kind = r % 5;
    const at = r * dims;
    for (let i = 0; i < dims; i++) {
      const v = gaussian(rng);
      if (kind === 2) matrix[at + i] = 0;
      else if (kind === 3) matrix[at + i] = i % 7 === 0 ? -0 : i % 7 === 1 ? 1e-40 : i % 7 === 2 ? v * 1e30 : v * 1e-8;
      else matrix[at + i] = v * (kind === 1 ? 10 ** Math.floor(rng() * 12 - 6) : 1);
    }
    if (kind === 0) normalizeRow(matrix, at, dims);
  }
}

/** A query as unitQuery makes it: float32-rounded values held as float64. */
const randomQuery = (dims: number, rng: Rng): Float64Array => Float64Array.from({ length: dims }, () => Math.fround(gaussian(rng)));

/** Indices where the kernel's score differs from dotRows's, with both values. */
function differences(rows: number, dims: number, seed: number, queries: number): string[] {
  const rng = seededRandom(seed);
  const wasm = wasmResidentRows(rows, dims);
  if (!wasm) throw new Error("the SIMD kernel is unavailable");
  fillMatrix(wasm.matrix, rows, dims, rng);
  const reference = new Float64Array(rows);
  const found: string[] = [];
  for (let k = 0; k < queries; k++) {
    const q = k === 0 && dims > 0 ? new Float64Array(dims) : randomQuery(dims, rng); // the first query all zeros
    if (k === 1 && dims > 0) q[0] = -0;
    wasm.scan(q);
    dotRows(wasm.matrix, dims, q, reference);
    for (let r = 0; r < rows; r++) {
      if (!Object.is(wasm.scores[r], reference[r])) found.push(`query ${k} row ${r}: wasm ${wasm.scores[r]} js ${reference[r]}`);
    }
  }
  return found;
}

describe("the WebAssembly SIMD vector scan", () => {
  it("validates and runs on this Node (fixed-width SIMD), and the engine's resident rows use it", () => {
    expect(simdScanAvailable()).toBe(true);
    expect(residentRows(3, 7).kernel).toBe("wasm-simd");
  });

  it.each([
    [1, 384],
    [2, 384],
    [3, 384],
    [257, 384],
    [1, 7],
    [2, 7],
    [99, 7],
    [6, 1],
    [5, 2],
    [9, 3],
    [11, 4],
    [13, 5],
    [31, 385],
    [17, 386],
    [15, 387],
  ])("gives bit-identical scores to dotRows: %i rows × %i dims", (rows, dims) => {
    expect(differences(rows, dims, rows * 1000 + dims, 20)).toEqual([]);
  });

  it("handles an empty matrix and a zero-dimension one without writing a score", () => {
    expect(differences(0, 384, 1, 2)).toEqual([]);
    const none = wasmResidentRows(4, 0)!;
    none.scores.fill(Number.NaN);
    none.scan(new Float64Array(0));
    expect(Array.from(none.scores)).toEqual([0, 0, 0, 0]);
  });

  it("keeps rows and scores resident: the matrix written once serves many scans", () => {
    const rng = seededRandom(7);
    const dims = 384;
    const rows = 1001;
    const wasm = wasmResidentRows(rows, dims)!;
    const js = jsResidentRows(rows, dims);
    fillMatrix(wasm.matrix, rows, dims, rng);
    js.matrix.set(wasm.matrix);
    for (let k = 0; k < 20; k++) {
      const q = randomQuery(dims, rng);
      wasm.scan(q);
      js.scan(q);
      expect(wasm.scores.every((s, r) => Object.is(s, js.scores[r]))).toBe(true);
    }
    expect(js.kernel).toBe("js");
  });

  it("falls back to the JavaScript loop when the memory cannot be had (over 4 GiB of 32-bit addresses)", () => {
    expect(wasmResidentRows(3_000_000, 384)).toBeUndefined();
  });
});

/**
 * Scores of `rows` against dotRows's for `queries` random queries. `helperOnly`: the helper thread
 * scans every row (else both threads claim rows, and the first scans may run before the helper
 * has started).
 */
async function threadedDifferences(
  rows: number,
  dims: number,
  seed: number,
  queries: number,
  helperOnly: boolean,
): Promise<{ found: string[]; scanned: ResidentRows }> {
  const rng = seededRandom(seed);
  const threaded = wasmResidentRows(rows, dims, { threads: 2, helperOnly });
  if (!threaded) throw new Error("the SIMD kernel is unavailable");
  fillMatrix(threaded.matrix, rows, dims, rng);
  const reference = new Float64Array(rows);
  const found: string[] = [];
  for (let k = 0; k < queries; k++) {
    const q = randomQuery(dims, rng);
    threaded.scan(q);
    dotRows(threaded.matrix, dims, q, reference);
    for (let r = 0; r < rows; r++) {
      if (!Object.is(threaded.scores[r], reference[r]))
        found.push(`query ${k} row ${r}: threaded ${threaded.scores[r]} js ${reference[r]}`);
    }
    if (k < 3) await sleep(20);
  }
  return { found, scanned: threaded };
}

describe("the vector scan on two threads", () => {
  it.each([
    [1, 384],
    [31, 7],
    [257, 384],
    [1001, 385],
    [4099, 384],
  ])("gives bit-identical scores to dotRows when the helper thread scans every row: %i rows × %i dims", async (rows, dims) => {
    const { found, scanned } = await threadedDifferences(rows, dims, rows * 7 + dims, 20, true);
    expect(found).toEqual([]);
    expect(scanned.threads).toBe(2);
    // Every piece of every scan was the helper's: the comparison above checked its scores.
    const pieces = Math.ceil(rows / Math.ceil(rows / 32)); // scan-threads.ts cuts the rows into at most 32 pieces
    expect(scanned.helperPieces).toBe(20 * pieces);
    scanned.dispose();
  });

  it.each([
    [257, 384],
    [4099, 384],
  ])("gives bit-identical scores to dotRows when both threads claim rows: %i rows × %i dims", async (rows, dims) => {
    const { found, scanned } = await threadedDifferences(rows, dims, rows * 11 + dims, 40, false);
    expect(found).toEqual([]);
    expect(scanned.threads).toBe(2);
    scanned.dispose();
  });

  it("after dispose() the calling thread scans alone, with the same scores", async () => {
    const rows = 2000;
    const dims = 64;
    const rng = seededRandom(3);
    const threaded = wasmResidentRows(rows, dims, { threads: 2 })!;
    fillMatrix(threaded.matrix, rows, dims, rng);
    threaded.dispose();
    expect(threaded.threads).toBe(1);
    const reference = new Float64Array(rows);
    for (let k = 0; k < 5; k++) {
      const q = randomQuery(dims, rng);
      threaded.scan(q);
      dotRows(threaded.matrix, dims, q, reference);
      expect(threaded.scores.every((s, r) => Object.is(s, reference[r]))).toBe(true);
    }
  });

  it("is used by the engine's resident rows from PARALLEL_SCAN_MIN_VALUES values on, on two or more cores", () => {
    const dims = 384;
    const small = residentRows(Math.floor(PARALLEL_SCAN_MIN_VALUES / dims) - 1, dims);
    expect(small.threads).toBe(1);
    small.dispose();
    const large = residentRows(Math.ceil(PARALLEL_SCAN_MIN_VALUES / dims), dims);
    expect(large.threads).toBe(2); // the test machine has two cores or more
    large.dispose();
    expect(residentRows(Math.ceil(PARALLEL_SCAN_MIN_VALUES / dims), dims, 1).threads).toBe(1);
  });

  it("never keeps a process alive: a process that scans on two threads and never disposes them exits", () => {
    const module = fileURLToPath(new URL("../src/retrieval/vector.ts", import.meta.url));
    const script = `const { residentRows } = await import(${JSON.stringify(module)});
const rows = residentRows(20000, 384, 2);
for (let k = 0; k < 5; k++) rows.scan(new Float64Array(384).fill(k / 384));
console.log("threads", rows.threads);`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(child.stderr).toBe("");
    expect(child.stdout.trim()).toBe("threads 2");
    expect(child.status).toBe(0);
  });
});
