/**
 * Exact cosine top-k over every passage vector of the active embedder, held in one Float32Array
 * (rows L2-normalized at load, so cosine is a dot product). A document scores as its best passage.
 * Exact search keeps the eval honest: no recall is lost to an approximate index.
 *
 * The matrix lives in a WebAssembly memory scanned by a SIMD kernel (dot-rows-wasm.ts) where the
 * runtime has fixed-width SIMD, else in a plain Float32Array scanned by `dotRows`; both compute
 * every score with the same float64 operations in the same order, so the results are identical.
 */
import { EngineError } from "../errors.js";
import type { Catalog } from "../store/catalog.js";
import type { Db } from "../store/database.js";
import type { DocCandidate } from "./bm25.js";
import { type ResidentRows, type ScanThreads, wasmResidentRows } from "./dot-rows-wasm.js";
import { byScoreThenDocIdDesc, TopK } from "./order.js";

export class VectorIndex {
  private constructor(
    readonly embedder: string,
    readonly dimensions: number,
    private readonly rows: ResidentRows,
    private readonly rowPassage: Int32Array,
    private readonly rowDocument: Int32Array,
    private readonly documentCount: number,
  ) {}

  get size(): number {
    return this.rowPassage.length;
  }

  /** Threads that scan the rows for a query (docs/benchmarks.md, vector scan). */
  get scanThreads(): number {
    return this.rows.threads;
  }

  /** Stops the scan's helper thread, if any: called when the index changes and on close. */
  dispose(): void {
    this.rows.dispose();
  }

  static load(db: Db, catalog: Catalog, embedder: string, dimensions: number, file: string): VectorIndex {
    const count = db
      .prepare("SELECT count(*) FROM passages p JOIN embeddings e ON e.content_hash = p.content_hash AND e.embedder = ?")
      .pluck()
      .get(embedder) as number;
    // Rows are written straight into their resident home: no second copy of the matrix.
    const rows = residentRows(count, dimensions);
    const matrix = rows.matrix;
    const rowPassage = new Int32Array(count);
    const rowDocument = new Int32Array(count);
    let row = 0;
    const vectors = db
      .prepare(
        "SELECT p.id, e.dimensions, e.vector FROM passages p JOIN embeddings e ON e.content_hash = p.content_hash AND e.embedder = ? ORDER BY p.id",
      )
      .raw()
      .iterate(embedder) as IterableIterator<[number, number, Buffer]>;
    for (const [passageId, dims, blob] of vectors) {
      if (dims !== dimensions || blob.byteLength !== dims * 4) {
        throw new EngineError(
          "EMBEDDER_MISMATCH",
          `${file}: passage ${passageId} has a ${dims}-dimensional vector from ${embedder}, the index records ${dimensions}; re-index`,
        );
      }
      const offset = row * dimensions;
      // One copy of the little-endian bytes (x86 and ARM are little-endian), then normalize in place.
      new Uint8Array(matrix.buffer, matrix.byteOffset + offset * 4, dimensions * 4).set(blob);
      normalizeRow(matrix, offset, dimensions);
      rowPassage[row] = passageId;
      rowDocument[row] = catalog.passageDocument.get(passageId)!;
      row++;
    }
    const missing = catalog.passageDocument.size - count;
    if (missing > 0) {
      throw new EngineError(
        "INDEX_STALE",
        `${file}: ${missing} passages have no vector from ${embedder}; run \`pnpm engine index\` again to embed them`,
      );
    }
    return new VectorIndex(embedder, dimensions, rows, rowPassage, rowDocument, catalog.documents.length);
  }

  /** The unit vector of a passage (by passage row id), or undefined when it has none. */
  passageVector(passageRowId: number): Float32Array | undefined {
    let lo = 0;
    let hi = this.rowPassage.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const id = this.rowPassage[mid]!;
      if (id === passageRowId) return this.rows.matrix.subarray(mid * this.dimensions, (mid + 1) * this.dimensions);
      if (id < passageRowId) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Top `depth` documents by cosine similarity to `query`. */
  documents(query: Float32Array, depth: number, catalog: Catalog, filter: ((docIndex: number) => boolean) | undefined): DocCandidate[] {
    const dims = this.dimensions;
    if (query.length !== dims) {
      throw new EngineError("EMBEDDER_MISMATCH", `query vector has ${query.length} dimensions, the index ${dims}`);
    }
    const q = unitQuery(query);
    if (q === undefined || depth <= 0) return [];

    this.rows.scan(q);
    const scores = this.rows.scores;
    const best = new Float64Array(this.documentCount).fill(-Infinity);
    const bestRow = new Int32Array(this.documentCount).fill(-1);
    const allowed = filter ? Uint8Array.from({ length: this.documentCount }, (_, i) => (filter(i) ? 1 : 0)) : undefined;
    const rowDocument = this.rowDocument;
    for (let r = 0; r < scores.length; r++) {
      const doc = rowDocument[r]!;
      if (allowed && allowed[doc] === 0) continue;
      const s = scores[r]!;
      // Ties between passages of one document keep the lower row (lower passage id).
      if (s > best[doc]!) {
        best[doc] = s;
        bestRow[doc] = r;
      }
    }
    const top = new TopK<DocCandidate>(depth, byScoreThenDocIdDesc);
    for (let d = 0; d < this.documentCount; d++) {
      if (bestRow[d]! < 0) continue;
      const score = best[d]!;
      if (!top.wouldAccept(score)) continue;
      top.push({ docIndex: d, docId: catalog.documents[d]!.docId, passageRowId: this.rowPassage[bestRow[d]!]!, score });
    }
    return top.sorted();
  }
}

/**
 * Room for `rows` × `dims` float32 values and their scores, kept resident with the index: in
 * WebAssembly memory for the SIMD kernel where the runtime has it, else in typed arrays for
 * `dotRows`.
 */
export function residentRows(rows: number, dims: number, threads: ScanThreads = "auto"): ResidentRows {
  return wasmResidentRows(rows, dims, { threads }) ?? jsResidentRows(rows, dims);
}

/** The fallback: a Float32Array scanned by `dotRows` (and the reference the kernel is tested against). */
export function jsResidentRows(rows: number, dims: number): ResidentRows {
  const matrix = new Float32Array(rows * dims);
  const scores = new Float64Array(rows);
  return { matrix, scores, kernel: "js", threads: 1, helperPieces: 0, scan: (q) => dotRows(matrix, dims, q, scores), dispose: () => {} };
}

/** Scales `dims` values of `matrix` from `offset` to unit length (all-zero rows stay zero). */
export function normalizeRow(matrix: Float32Array, offset: number, dims: number): void {
  let norm = 0;
  for (let i = offset; i < offset + dims; i++) norm += matrix[i]! * matrix[i]!;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = offset; i < offset + dims; i++) matrix[i]! *= inv;
  }
}

/**
 * The query at unit length, each value rounded to float32 as the matrix is (the scores depend on
 * it), held as float64 so the scan does not convert the query on every product; undefined for a
 * zero vector.
 */
export function unitQuery(query: Float32Array): Float64Array | undefined {
  let norm = 0;
  for (let i = 0; i < query.length; i++) norm += query[i]! * query[i]!;
  if (norm === 0) return undefined;
  const inv = 1 / Math.sqrt(norm);
  return Float64Array.from(query, (v) => Math.fround(v * inv));
}

/**
 * `out[r]` = row r of `matrix` · `q`, for every row. Each row sums in 4 accumulators (products of
 * i mod 4 apart), then adds them left to right, then the leftover dimensions; two rows share one
 * pass over the query, which reads the query once per two rows (about 20% faster than one row per
 * pass on 100,000 × 384) without changing any row's arithmetic. The SIMD kernel (dot-rows-wasm.ts)
 * does exactly these operations in this order; this loop is its fallback and its reference in tests.
 */
export function dotRows(matrix: Float32Array, dims: number, q: Float64Array, out: Float64Array): void {
  const rows = matrix.length / dims;
  const whole = dims - (dims % 4);
  let r = 0;
  for (; r + 1 < rows; r += 2) {
    let o = r * dims;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let p = o + dims;
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    let b3 = 0;
    for (let i = 0; i < whole; i += 4, o += 4, p += 4) {
      const q0 = q[i]!;
      const q1 = q[i + 1]!;
      const q2 = q[i + 2]!;
      const q3 = q[i + 3]!;
      a0 += matrix[o]! * q0;
      a1 += matrix[o + 1]! * q1;
      a2 += matrix[o + 2]! * q2;
      a3 += matrix[o + 3]! * q3;
      b0 += matrix[p]! * q0;
      b1 += matrix[p + 1]! * q1;
      b2 += matrix[p + 2]! * q2;
      b3 += matrix[p + 3]! * q3;
    }
    let a = a0 + a1 + a2 + a3;
    let b = b0 + b1 + b2 + b3;
    for (let i = whole; i < dims; i++, o++, p++) {
      a += matrix[o]! * q[i]!;
      b += matrix[p]! * q[i]!;
    }
    out[r] = a;
    out[r + 1] = b;
  }
  if (r < rows) out[r] = dot(matrix, r * dims, q, whole);
}

/** One row's dot product, summed exactly as in dotRows. */
function dot(matrix: Float32Array, offset: number, q: Float64Array, whole: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let o = offset;
  for (let i = 0; i < whole; i += 4, o += 4) {
    s0 += matrix[o]! * q[i]!;
    s1 += matrix[o + 1]! * q[i + 1]!;
    s2 += matrix[o + 2]! * q[i + 2]!;
    s3 += matrix[o + 3]! * q[i + 3]!;
  }
  let s = s0 + s1 + s2 + s3;
  for (let i = whole; i < q.length; i++, o++) s += matrix[o]! * q[i]!;
  return s;
}
