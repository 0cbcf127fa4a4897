/**
 * The vector scan on two threads: the calling thread and one helper thread scan the rows of one
 * query together, each running the same SIMD kernel (dot-rows-wasm.ts) over the same shared
 * WebAssembly memory. A row's score depends only on that row and the query, never on which thread
 * or which other rows share its call, so the scores are bit for bit those of one thread.
 *
 * Why: an exact scan of 100k × 384 reads 147 MiB per query; one core reads it in ~20–30 ms on the
 * machines this project measures on, and vsearch's p95 goal is 30 ms (docs/benchmarks.md). The
 * engine's API is synchronous (as better-sqlite3's is), so the calling thread blocks until the
 * scores are complete: the two threads meet through `Atomics` on a small shared control block, not
 * through messages.
 *
 * Work is shared by claiming: the rows are cut into CHUNKS pieces, and each thread takes the next
 * unclaimed piece until none is left (an atomic counter), so a helper that is late — not yet started,
 * or descheduled on a busy machine — costs at most the piece it holds: the calling thread takes the
 * rest. Should a claimed piece still be unfinished after STALL_MS (the helper stalled or died), the
 * calling thread computes it too; both write the same numbers.
 *
 * The helper is a worker thread started from source text (no file to resolve from dist/ or src/), is
 * unref'd so it never keeps a process alive, and is stopped by `dispose()`, or when the rows are
 * garbage-collected.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/** Where the kernel finds things in the memory (byte addresses), and the matrix's shape. */
export interface ScanLayout {
  rows: number;
  dims: number;
  queryAt: number;
  scoresAt: number;
  matrixAt: number;
}

/** A scan of the resident rows against the query already written at `queryAt`. */
export interface Scanner {
  readonly threads: number;
  /** Pieces the helper thread has scanned so far (all scans): how much of the work it took. */
  readonly helperPieces: number;
  scan(): void;
  dispose(): void;
}

type DotRows = (matrix: number, rows: number, dims: number, query: number, out: number) => void;

/** Pieces per scan: small enough that a late helper costs little, large enough that claiming is free. */
const CHUNKS = 32;
/** How long the calling thread waits on the helper's pieces before it stops the helper and finishes alone. */
const STALL_MS = 2_000;
/** How long the calling thread, having set STOP, waits for the helper to put down the piece it holds. */
const STOP_WAIT_MS = 60_000;
/**
 * Below this many matrix values (rows × dims) a scan takes about a millisecond or less on one
 * core, which waking another thread would not shorten: one thread.
 */
export const PARALLEL_SCAN_MIN_VALUES = 2_000_000;

/** Threads the engine scans a matrix of `rows` × `dims` on: 2 from PARALLEL_SCAN_MIN_VALUES values on, with two cores or more. */
export function scanThreadsFor(rows: number, dims: number): 1 | 2 {
  return rows * dims >= PARALLEL_SCAN_MIN_VALUES && availableParallelism() >= 2 ? 2 : 1;
}

// The control block: int32 slots.
const SEQ = 0; // scan number: the helper wakes when it changes
const NEXT = 1; // next piece to claim
const STOP = 2; // 1: the helper claims nothing more and leaves
const BUSY = 3; // 1 while the helper may hold a piece
const DONE = 4; // bumped (and notified) by the helper after each piece
const FIRST_FLAG = 5; // then one slot per piece: the scan number it was last finished in

/**
 * The helper thread's code. It waits for a new scan number, then claims pieces until none is
 * left, marking each finished with the scan number. BUSY is raised before STOP is read and
 * lowered after the piece's scores are written, so once the calling thread has set STOP and seen
 * BUSY low, the helper writes nothing more (sequentially consistent atomics).
 */
const HELPER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { module, memory, control, rows, dims, queryAt, scoresAt, matrixAt, pieceRows, pieces } = workerData;
const dotRows = new WebAssembly.Instance(module, { env: { memory } }).exports.dotRows;
const ctrl = new Int32Array(control);
const idle = () => { Atomics.store(ctrl, ${BUSY}, 0); Atomics.notify(ctrl, ${BUSY}); };
let seen = 0;
outer: for (;;) {
  Atomics.wait(ctrl, ${SEQ}, seen);
  seen = Atomics.load(ctrl, ${SEQ});
  for (;;) {
    Atomics.store(ctrl, ${BUSY}, 1);
    if (Atomics.load(ctrl, ${STOP}) === 1) { idle(); break outer; }
    const piece = Atomics.add(ctrl, ${NEXT}, 1);
    if (piece >= pieces) { idle(); break; }
    const first = piece * pieceRows;
    dotRows(matrixAt + first * dims * 4, Math.min(pieceRows, rows - first), dims, queryAt, scoresAt + first * 8);
    Atomics.store(ctrl, ${FIRST_FLAG} + piece, Atomics.load(ctrl, ${SEQ}));
    idle();
    Atomics.add(ctrl, ${DONE}, 1);
    Atomics.notify(ctrl, ${DONE});
  }
}
`;

interface Helper {
  control: Int32Array;
  worker: Worker;
}

/** Sets STOP, wakes the helper so that it leaves, and ends its thread. */
function stopHelper(helper: Helper): void {
  Atomics.store(helper.control, STOP, 1);
  Atomics.add(helper.control, SEQ, 1);
  Atomics.notify(helper.control, SEQ);
  void helper.worker.terminate();
}

/** Stops the helper of rows that were dropped without `dispose()`. */
const orphans = new FinalizationRegistry(stopHelper);

/**
 * A two-thread scan over `memory` (shared; whether a matrix is worth it is the caller's call,
 * `scanThreadsFor`), or undefined when the rows are empty or no worker can be started: the caller
 * then scans on one thread. `helperOnly` (tests) leaves every piece to the helper, and waits for
 * it up to STOP_WAIT_MS instead of STALL_MS, so that a test sees the helper's scores whatever the
 * load.
 */
export function startThreadedScan(
  module: object,
  memory: { buffer: ArrayBuffer | SharedArrayBuffer },
  dotRows: DotRows,
  layout: ScanLayout,
  options: { helperOnly?: boolean } = {},
): Scanner | undefined {
  const { rows, dims, queryAt, scoresAt, matrixAt } = layout;
  if (rows === 0) return undefined;
  const pieceRows = Math.max(1, Math.ceil(rows / CHUNKS));
  const pieces = Math.ceil(rows / pieceRows);
  const control = new Int32Array(new SharedArrayBuffer((FIRST_FLAG + pieces) * 4));
  let worker: Worker;
  try {
    worker = new Worker(HELPER_SOURCE, {
      eval: true,
      // Not the process's flags (a loader such as tsx, --cpu-prof): the helper runs only the kernel.
      execArgv: [],
      workerData: { module, memory, control: control.buffer, rows, dims, queryAt, scoresAt, matrixAt, pieceRows, pieces },
    });
  } catch {
    return undefined;
  }
  worker.unref();
  // A helper that fails to start claims nothing: the calling thread scans every piece.
  worker.on("error", () => {});
  const helper: Helper = { control, worker };
  let alone = false;
  const runPiece = (piece: number, seq: number): void => {
    const first = piece * pieceRows;
    dotRows(matrixAt + first * dims * 4, Math.min(pieceRows, rows - first), dims, queryAt, scoresAt + first * 8);
    Atomics.store(control, FIRST_FLAG + piece, seq);
  };
  const unfinished = (seq: number): number => {
    for (let piece = 0; piece < pieces; piece++) if (Atomics.load(control, FIRST_FLAG + piece) !== seq) return piece;
    return -1;
  };
  const scanner: Scanner = {
    get threads(): number {
      return alone ? 1 : 2;
    },
    get helperPieces(): number {
      return Atomics.load(control, DONE);
    },
    scan(): void {
      // The query is in the memory already. The scan number moves before the claim counter is
      // reset, so a piece claimed from the reset on is computed with this query and marked with
      // this scan's number.
      const seq = Atomics.add(control, SEQ, 1) + 1;
      if (alone) {
        for (let piece = 0; piece < pieces; piece++) runPiece(piece, seq);
        return;
      }
      Atomics.store(control, NEXT, 0);
      Atomics.notify(control, SEQ);
      if (!options.helperOnly) for (let piece: number; (piece = Atomics.add(control, NEXT, 1)) < pieces; ) runPiece(piece, seq);
      // The helper's pieces: wait for them, up to STALL_MS.
      const since = performance.now();
      const patience = options.helperOnly ? STOP_WAIT_MS : STALL_MS;
      for (let done = Atomics.load(control, DONE); unfinished(seq) >= 0; done = Atomics.load(control, DONE)) {
        if (performance.now() - since < patience) {
          Atomics.wait(control, DONE, done, 50);
          continue;
        }
        // Stalled (descheduled, or gone): stop it, wait until it holds no piece, finish alone.
        alone = true;
        Atomics.store(control, STOP, 1);
        // A helper that holds a piece finishes it within a piece's time once it runs again; one
        // that stays silent for STOP_WAIT_MS is taken as gone (a thread cannot die mid-piece but
        // by terminate(), which only dispose() calls).
        for (const stopAt = performance.now(); Atomics.load(control, BUSY) === 1 && performance.now() - stopAt < STOP_WAIT_MS; )
          Atomics.wait(control, BUSY, 1, 50);
        for (let piece = unfinished(seq); piece >= 0; piece = unfinished(seq)) runPiece(piece, seq);
        stopHelper(helper);
        orphans.unregister(scanner);
        return;
      }
    },
    dispose(): void {
      orphans.unregister(scanner);
      if (!alone) stopHelper(helper);
      alone = true;
    },
  };
  orphans.register(scanner, helper, scanner);
  return scanner;
}
