/**
 * The exact vector scan as a WebAssembly SIMD kernel, with the same arithmetic as `dotRows` in
 * vector.ts, so every score is bit-identical: the pinned results (test/search-pin.test.ts) fix the
 * order of every sum, and a faster loop that summed differently would compute other numbers.
 *
 * Per row, `dotRows` keeps 4 float64 accumulators a0..a3 (a_k takes the products of dimensions
 * i ≡ k mod 4, in order), adds them as ((a0 + a1) + a2) + a3, then adds the leftover dimensions'
 * products in order. Here (a0, a1) and (a2, a3) are two f64x2 accumulators: the float32 matrix
 * values are widened exactly (f64x2.promote_low_f32x4), multiplied by the float64 query pair and
 * added, lane by lane, so each lane receives the same float64 products in the same order, rounded
 * the same way (WebAssembly has no fused multiply-add outside relaxed SIMD). Two rows share each
 * pass over the query, as in `dotRows`; an odd last row is paired with itself.
 *
 * The module is small enough to write by hand: the bytes below are built from named opcodes, one
 * line per instruction of this text (WAT), which is what they encode:
 *
 *   (module
 *     (import "env" "memory" (memory 0))
 *     ;; out[r] (f64) = matrix row r (dims f32) · query (dims f64), for r in [0, rows); byte addresses
 *     (func (export "dotRows") (param $matrix i32) (param $rows i32) (param $dims i32) (param $query i32) (param $out i32)
 *       (local $r i32) (local $rb i32) (local $o i32) (local $p i32) (local $q i32)
 *       (local $wholeEnd i32) (local $queryEnd i32) (local $rowBytes i32)
 *       (local $a01 v128) (local $a23 v128) (local $b01 v128) (local $b23 v128) (local $q01 v128) (local $q23 v128)
 *       (local $a f64) (local $b f64)
 *       (local.set $rowBytes (i32.shl (local.get $dims) (i32.const 2)))
 *       (local.set $wholeEnd (i32.add (local.get $query) (i32.shl (i32.and (local.get $dims) (i32.const -4)) (i32.const 3))))
 *       (local.set $queryEnd (i32.add (local.get $query) (i32.shl (local.get $dims) (i32.const 3))))
 *       (block $done
 *         (loop $pairs
 *           (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
 *           ;; the pair's second row: r + 1, or r itself when r is the last row
 *           (local.set $rb (select (i32.add (local.get $r) (i32.const 1)) (local.get $r)
 *                                  (i32.lt_u (i32.add (local.get $r) (i32.const 1)) (local.get $rows))))
 *           (local.set $o (i32.add (local.get $matrix) (i32.mul (local.get $r) (local.get $rowBytes))))
 *           (local.set $p (i32.add (local.get $matrix) (i32.mul (local.get $rb) (local.get $rowBytes))))
 *           (local.set $q (local.get $query))
 *           (local.set $a01 (v128.const i64x2 0 0)) (local.set $a23 (v128.const i64x2 0 0))
 *           (local.set $b01 (v128.const i64x2 0 0)) (local.set $b23 (v128.const i64x2 0 0))
 *           (block $wholeDone
 *             (loop $groups
 *               (br_if $wholeDone (i32.ge_u (local.get $q) (local.get $wholeEnd)))
 *               (local.set $q01 (v128.load (local.get $q)))
 *               (local.set $q23 (v128.load offset=16 (local.get $q)))
 *               (local.set $a01 (f64x2.add (local.get $a01)
 *                 (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $o))) (local.get $q01))))
 *               (local.set $a23 (f64x2.add (local.get $a23)
 *                 (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $o))) (local.get $q23))))
 *               (local.set $b01 (f64x2.add (local.get $b01)
 *                 (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p))) (local.get $q01))))
 *               (local.set $b23 (f64x2.add (local.get $b23)
 *                 (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $p))) (local.get $q23))))
 *               (local.set $o (i32.add (local.get $o) (i32.const 16)))
 *               (local.set $p (i32.add (local.get $p) (i32.const 16)))
 *               (local.set $q (i32.add (local.get $q) (i32.const 32)))
 *               (br $groups)))
 *           ;; ((a0 + a1) + a2) + a3, as JavaScript evaluates a0 + a1 + a2 + a3
 *           (local.set $a (f64.add (f64.add (f64.add (f64x2.extract_lane 0 (local.get $a01)) (f64x2.extract_lane 1 (local.get $a01)))
 *                                           (f64x2.extract_lane 0 (local.get $a23))) (f64x2.extract_lane 1 (local.get $a23))))
 *           (local.set $b (f64.add (f64.add (f64.add (f64x2.extract_lane 0 (local.get $b01)) (f64x2.extract_lane 1 (local.get $b01)))
 *                                           (f64x2.extract_lane 0 (local.get $b23))) (f64x2.extract_lane 1 (local.get $b23))))
 *           (block $restDone
 *             (loop $rest
 *               (br_if $restDone (i32.ge_u (local.get $q) (local.get $queryEnd)))
 *               (local.set $a (f64.add (local.get $a) (f64.mul (f64.promote_f32 (f32.load (local.get $o))) (f64.load (local.get $q)))))
 *               (local.set $b (f64.add (local.get $b) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (f64.load (local.get $q)))))
 *               (local.set $o (i32.add (local.get $o) (i32.const 4)))
 *               (local.set $p (i32.add (local.get $p) (i32.const 4)))
 *               (local.set $q (i32.add (local.get $q) (i32.const 8)))
 *               (br $rest)))
 *           ;; the second row first: when the pair is the last row twice, both stores write one score
 *           (f64.store (i32.add (local.get $out) (i32.shl (local.get $rb) (i32.const 3))) (local.get $b))
 *           (f64.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3))) (local.get $a))
 *           (local.set $r (i32.add (local.get $r) (i32.const 2)))
 *           (br $pairs)))))
 *
 * Addresses are unsigned 32-bit, so a matrix fits when query, scores and rows together are under
 * 4 GiB; a bigger one (or a runtime without SIMD, or a memory that cannot be allocated) uses the
 * JavaScript loop, which gives the same scores.
 */

import { type ScanLayout, type Scanner, scanThreadsFor, startThreadedScan } from "./scan-threads.js";

/** Threads that scan resident rows: 1, 2, or "auto" (2 for a large matrix on two or more cores). */
export type ScanThreads = 1 | 2 | "auto";

/** The rows of a matrix kept resident for repeated scans against one query at a time. */
export interface ResidentRows {
  /** rows × dims float32 values, row-major: written once when the matrix is built, then only read. */
  readonly matrix: Float32Array;
  /** One float64 per row: the scores of the last `scan`. */
  readonly scores: Float64Array;
  /** Which loop computes the scores (the same numbers either way). */
  readonly kernel: "wasm-simd" | "js";
  /** How many threads scan the rows (1, or 2 with a helper thread; the same numbers either way). */
  readonly threads: number;
  /** Pieces of the rows the helper thread has scanned, over all scans (0 without one). */
  readonly helperPieces: number;
  /** `scores[r]` = row r · `query` (`dims` values), exactly as `dotRows` sums it. */
  scan(query: Float64Array): void;
  /** Stops the helper thread, if any; the rows must not be scanned after. */
  dispose(): void;
}

// ---- the WebAssembly API, typed here: the project's TypeScript libs (ES2023, @types/node) do not declare it ----

interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => WasmInstance;
  Memory: new (descriptor: { initial: number; maximum: number; shared?: boolean }) => WasmMemory;
}
type DotRowsExport = (matrix: number, rows: number, dims: number, query: number, out: number) => void;

// ---- the module's bytes ----

const WASM_PAGE_BYTES = 65_536;
const MAX_WASM_PAGES = 65_536; // 4 GiB: 32-bit addresses

/** Unsigned LEB128, as the binary format writes sizes, counts, indices and offsets. */
function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
  return out;
}

/** Signed LEB128, for i32.const. */
function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const utf8 = (text: string): number[] => {
  const bytes = new TextEncoder().encode(text);
  return [...uleb(bytes.length), ...bytes];
};
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];

const I32 = 0x7f;
const F64 = 0x7c;
const V128 = 0x7b;
const EMPTY_BLOCK = 0x40;

/** Core opcodes used by the kernel. */
const OP = {
  block: 0x02,
  loop: 0x03,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  f32Load: 0x2a,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Const: 0x41,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Shl: 0x74,
  f64Add: 0xa0,
  f64Mul: 0xa2,
  f64PromoteF32: 0xbb,
} as const;

/** SIMD opcodes, each written after the 0xfd prefix as an unsigned LEB128. */
const SIMD = {
  v128Load: 0x00,
  v128Const: 0x0c,
  f64x2ExtractLane: 0x21,
  v128Load64Zero: 0x5d,
  f64x2PromoteLowF32x4: 0x5f,
  f64x2Add: 0xf0,
  f64x2Mul: 0xf2,
} as const;

/** Local indices: the five parameters, then the locals in the order the code section declares them. */
const L = {
  matrix: 0,
  rows: 1,
  dims: 2,
  query: 3,
  out: 4,
  r: 5,
  rb: 6,
  o: 7,
  p: 8,
  q: 9,
  wholeEnd: 10,
  queryEnd: 11,
  rowBytes: 12,
  a01: 13,
  a23: 14,
  b01: 15,
  b23: 16,
  q01: 17,
  q23: 18,
  a: 19,
  b: 20,
} as const;

const get = (local: number): number[] => [OP.localGet, local];
const set = (local: number): number[] => [OP.localSet, local];
const i32 = (value: number): number[] => [OP.i32Const, ...sleb(value)];
const simd = (opcode: number, ...immediates: number[]): number[] => [0xfd, ...uleb(opcode), ...immediates];
/** A memory access's immediates: log2 of the alignment hint (a hint only; rows need not be aligned) and a byte offset. */
const memarg = (alignLog2: number, offset: number): number[] => [alignLog2, ...uleb(offset)];
/** `local = local + n` for an i32 address. */
const advance = (local: number, bytes: number): number[] => [...get(local), ...i32(bytes), OP.i32Add, ...set(local)];

/** acc += widen(the two float32 at row + offset) × the query pair: two products into two accumulators. */
const accumulate = (acc: number, row: number, offset: number, queryPair: number): number[] => [
  ...get(acc),
  ...get(row),
  ...simd(SIMD.v128Load64Zero, ...memarg(2, offset)),
  ...simd(SIMD.f64x2PromoteLowF32x4),
  ...get(queryPair),
  ...simd(SIMD.f64x2Mul),
  ...simd(SIMD.f64x2Add),
  ...set(acc),
];

/** dst = ((x01[0] + x01[1]) + x23[0]) + x23[1]. */
const sumLanes = (x01: number, x23: number, dst: number): number[] => [
  ...get(x01),
  ...simd(SIMD.f64x2ExtractLane, 0),
  ...get(x01),
  ...simd(SIMD.f64x2ExtractLane, 1),
  OP.f64Add,
  ...get(x23),
  ...simd(SIMD.f64x2ExtractLane, 0),
  OP.f64Add,
  ...get(x23),
  ...simd(SIMD.f64x2ExtractLane, 1),
  OP.f64Add,
  ...set(dst),
];

/** acc = acc + widen(float32 at row) × (float64 at q): one leftover dimension. */
const accumulateOne = (acc: number, row: number): number[] => [
  ...get(acc),
  ...get(row),
  OP.f32Load,
  ...memarg(2, 0),
  OP.f64PromoteF32,
  ...get(L.q),
  OP.f64Load,
  ...memarg(3, 0),
  OP.f64Mul,
  OP.f64Add,
  ...set(acc),
];

/** f64.store (out + row × 8) value. */
const storeScore = (row: number, value: number): number[] => [
  ...get(L.out),
  ...get(row),
  ...i32(3),
  OP.i32Shl,
  OP.i32Add,
  ...get(value),
  OP.f64Store,
  ...memarg(3, 0),
];

const zero = (local: number): number[] => [...simd(SIMD.v128Const, ...new Array<number>(16).fill(0)), ...set(local)];

/** block / loop with no result type, each closed by `OP.end`. */
const block = [OP.block, EMPTY_BLOCK];
const loop = [OP.loop, EMPTY_BLOCK];

/** The function body, one line per statement of the WAT above (branch depths: 0 = innermost label). */
const DOT_ROWS_BODY: number[] = [
  [...get(L.dims), ...i32(2), OP.i32Shl, ...set(L.rowBytes)],
  [...get(L.query), ...get(L.dims), ...i32(-4), OP.i32And, ...i32(3), OP.i32Shl, OP.i32Add, ...set(L.wholeEnd)],
  [...get(L.query), ...get(L.dims), ...i32(3), OP.i32Shl, OP.i32Add, ...set(L.queryEnd)],
  block, // $done
  loop, // $pairs
  [...get(L.r), ...get(L.rows), OP.i32GeU, OP.brIf, 1], // → $done
  [...get(L.r), ...i32(1), OP.i32Add, ...get(L.r), ...get(L.r), ...i32(1), OP.i32Add, ...get(L.rows), OP.i32LtU, OP.select, ...set(L.rb)],
  [...get(L.matrix), ...get(L.r), ...get(L.rowBytes), OP.i32Mul, OP.i32Add, ...set(L.o)],
  [...get(L.matrix), ...get(L.rb), ...get(L.rowBytes), OP.i32Mul, OP.i32Add, ...set(L.p)],
  [...get(L.query), ...set(L.q)],
  [...zero(L.a01), ...zero(L.a23)],
  [...zero(L.b01), ...zero(L.b23)],
  block, // $wholeDone
  loop, // $groups
  [...get(L.q), ...get(L.wholeEnd), OP.i32GeU, OP.brIf, 1], // → $wholeDone
  [...get(L.q), ...simd(SIMD.v128Load, ...memarg(3, 0)), ...set(L.q01)],
  [...get(L.q), ...simd(SIMD.v128Load, ...memarg(3, 16)), ...set(L.q23)],
  accumulate(L.a01, L.o, 0, L.q01),
  accumulate(L.a23, L.o, 8, L.q23),
  accumulate(L.b01, L.p, 0, L.q01),
  accumulate(L.b23, L.p, 8, L.q23),
  advance(L.o, 16),
  advance(L.p, 16),
  advance(L.q, 32),
  [OP.br, 0], // → $groups
  [OP.end, OP.end], // $groups, $wholeDone
  sumLanes(L.a01, L.a23, L.a),
  sumLanes(L.b01, L.b23, L.b),
  block, // $restDone
  loop, // $rest
  [...get(L.q), ...get(L.queryEnd), OP.i32GeU, OP.brIf, 1], // → $restDone
  accumulateOne(L.a, L.o),
  accumulateOne(L.b, L.p),
  advance(L.o, 4),
  advance(L.p, 4),
  advance(L.q, 8),
  [OP.br, 0], // → $rest
  [OP.end, OP.end], // $rest, $restDone
  storeScore(L.rb, L.b),
  storeScore(L.r, L.a),
  advance(L.r, 2),
  [OP.br, 0], // → $pairs
  [OP.end, OP.end], // $pairs, $done
  [OP.end], // the function
].flat();

/**
 * The imported memory's type: `(memory 0)`, or for a scan shared with a helper thread
 * `(memory 0 65536 shared)` (limits flag 3: a maximum, shared; a shared memory must declare one).
 */
const memoryType = (shared: boolean): number[] => (shared ? [0x03, ...uleb(0), ...uleb(MAX_WASM_PAGES)] : [0x00, ...uleb(0)]);

/** The kernel module's bytes (a few hundred); the two variants differ only in the memory they import. */
function kernelBytes(shared: boolean): Uint8Array {
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    // types: (func (param i32 i32 i32 i32 i32))
    ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), ...vector([])]])),
    // imports: "env" "memory", a memory of at least 0 pages (shared: at most 65,536)
    ...section(2, vector([[...utf8("env"), ...utf8("memory"), 0x02, ...memoryType(shared)]])),
    // functions: one, of type 0
    ...section(3, vector([[0]])),
    // exports: "dotRows" = function 0
    ...section(7, vector([[...utf8("dotRows"), 0x00, 0]])),
    // code: locals 8 × i32, 6 × v128, 2 × f64, then the body
    ...section(
      10,
      vector([
        (() => {
          const body = [
            ...vector([
              [8, I32],
              [6, V128],
              [2, F64],
            ]),
            ...DOT_ROWS_BODY,
          ];
          return [...uleb(body.length), ...body];
        })(),
      ]),
    ),
  ]);
}

/** The kernel over a memory of its own. */
export const DOT_ROWS_WASM: Uint8Array = kernelBytes(false);
/** The same kernel over a shared memory, which a helper thread scans too (scan-threads.ts). */
export const DOT_ROWS_WASM_SHARED: Uint8Array = kernelBytes(true);

// ---- loading ----

const kernelModules = new Map<boolean, object | null>();

/**
 * The compiled kernel (`shared`: the variant over a shared memory), or undefined where
 * WebAssembly, its fixed-width SIMD or shared memories are unavailable.
 */
function compiledKernel(shared = false): object | undefined {
  if (!kernelModules.has(shared)) {
    const api = wasmApi();
    const bytes = shared ? DOT_ROWS_WASM_SHARED : DOT_ROWS_WASM;
    kernelModules.set(shared, null);
    try {
      if (api?.validate(bytes)) kernelModules.set(shared, new api.Module(bytes));
    } catch {
      // A runtime that refuses to compile (e.g. --jitless) leaves the JavaScript loop.
    }
  }
  return kernelModules.get(shared) ?? undefined;
}

function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** Whether this runtime runs the SIMD kernel. */
export function simdScanAvailable(): boolean {
  return compiledKernel() !== undefined;
}

/**
 * Resident rows in a WebAssembly memory of their own, laid out as [query: dims f64][scores: rows
 * f64][matrix: rows × dims f32] and sized once, never grown (growing would detach the views handed
 * out, e.g. `passageVector`'s). Undefined when the kernel is unavailable or the memory cannot be
 * had (over 4 GiB, or the address space is exhausted): the caller falls back to the JavaScript loop.
 *
 * With `threads: "auto"` (the engine's choice) a matrix of at least PARALLEL_SCAN_MIN_VALUES
 * values on a machine with two or more cores lives in a shared memory, and a helper thread scans
 * part of the rows of every query (scan-threads.ts); `threads: 2` does so for any size (tests).
 * (`helperOnly`, for tests: the helper scans every row.)
 * Each row's score is the same kernel's, so the scores are the same. Where the helper cannot be had
 * (no shared memories, no worker), the rows stay on one thread. `dispose()` stops the helper.
 */
export function wasmResidentRows(
  rows: number,
  dims: number,
  options: { threads?: ScanThreads; helperOnly?: boolean } = {},
): ResidentRows | undefined {
  const threads = options.threads ?? 1;
  const module = compiledKernel();
  const api = wasmApi();
  if (module === undefined || api === undefined) return undefined;
  const layout: ScanLayout = { rows, dims, queryAt: 0, scoresAt: dims * 8, matrixAt: dims * 8 + rows * 8 };
  const bytes = layout.matrixAt + rows * dims * 4;
  const pages = Math.max(1, Math.ceil(bytes / WASM_PAGE_BYTES));
  if (pages > MAX_WASM_PAGES) return undefined;
  // Decided before any memory is allocated: a matrix that stays on one thread gets one memory.
  const twoThreads = threads === 2 || (threads === "auto" && scanThreadsFor(rows, dims) === 2);
  const sharedModule = twoThreads ? compiledKernel(true) : undefined;
  if (sharedModule !== undefined) {
    try {
      const memory = new api.Memory({ initial: pages, maximum: pages, shared: true });
      const dotRowsExport = new api.Instance(sharedModule, { env: { memory } }).exports.dotRows as DotRowsExport;
      const scan = startThreadedScan(sharedModule, memory, dotRowsExport, layout, { helperOnly: options.helperOnly === true });
      if (scan) return residentOver(memory, layout, scan);
    } catch {
      // No shared memory of that size: one thread, below.
    }
  }
  let memory: WasmMemory;
  let dotRowsExport: DotRowsExport;
  try {
    memory = new api.Memory({ initial: pages, maximum: pages });
    dotRowsExport = new api.Instance(module, { env: { memory } }).exports.dotRows as DotRowsExport;
  } catch {
    return undefined;
  }
  const { matrixAt, queryAt, scoresAt } = layout;
  return residentOver(memory, layout, {
    threads: 1,
    helperPieces: 0,
    scan: () => dotRowsExport(matrixAt, rows, dims, queryAt, scoresAt),
    dispose: () => {},
  });
}

/** The views over a kernel's memory, and `scan` writing the query where the kernel reads it. */
function residentOver(memory: WasmMemory, layout: ScanLayout, scanner: Scanner): ResidentRows {
  const { rows, dims, queryAt, scoresAt, matrixAt } = layout;
  const query = new Float64Array(memory.buffer, queryAt, dims);
  return {
    matrix: new Float32Array(memory.buffer, matrixAt, rows * dims),
    scores: new Float64Array(memory.buffer, scoresAt, rows),
    kernel: "wasm-simd",
    get threads(): number {
      return scanner.threads;
    },
    get helperPieces(): number {
      return scanner.helperPieces;
    },
    scan(q: Float64Array): void {
      query.set(q);
      scanner.scan();
    },
    dispose: scanner.dispose,
  };
}
