/**
 * Exact cosine top-k over every passage vector of the active embedder, held in one Float32Array
 * (rows L2-normalized at load, so cosine is a dot product). A document scores as its best passage.
 * Exact search keeps the eval honest: no recall is lost to an approximate index.
 */
import { EngineError } from "../errors.js";
import type { Catalog } from "../store/catalog.js";
import type { Db } from "../store/database.js";
import type { DocCandidate } from "./bm25.js";
import { byScoreThenDocIdDesc, TopK } from "./order.js";

export class VectorIndex {
  private constructor(
    readonly embedder: string,
    readonly dimensions: number,
    private readonly matrix: Float32Array,
    private readonly rowPassage: Int32Array,
    private readonly rowDocument: Int32Array,
    private readonly documentCount: number,
  ) {}

  get size(): number {
    return this.rowPassage.length;
  }

  static load(db: Db, catalog: Catalog, embedder: string, dimensions: number, file: string): VectorIndex {
    const count = db
      .prepare("SELECT count(*) FROM passages p JOIN embeddings e ON e.content_hash = p.content_hash AND e.embedder = ?")
      .pluck()
      .get(embedder) as number;
    const matrix = new Float32Array(count * dimensions);
    const rowPassage = new Int32Array(count);
    const rowDocument = new Int32Array(count);
    let row = 0;
    const rows = db
      .prepare(
        "SELECT p.id, e.dimensions, e.vector FROM passages p JOIN embeddings e ON e.content_hash = p.content_hash AND e.embedder = ? ORDER BY p.id",
      )
      .raw()
      .iterate(embedder) as IterableIterator<[number, number, Buffer]>;
    for (const [passageId, dims, blob] of rows) {
      if (dims !== dimensions || blob.byteLength !== dims * 4) {
        throw new EngineError(
          "EMBEDDER_MISMATCH",
          `${file}: passage ${passageId} has a ${dims}-dimensional vector from ${embedder}, the index records ${dimensions}; re-index`,
        );
      }
      const offset = row * dimensions;
      // One copy of the little-endian bytes (x86 and ARM are little-endian), then normalize in place.
      new Uint8Array(matrix.buffer, offset * 4, dimensions * 4).set(blob);
      let norm = 0;
      for (let i = offset; i < offset + dimensions; i++) norm += matrix[i]! * matrix[i]!;
      if (norm > 0) {
        const inv = 1 / Math.sqrt(norm);
        for (let i = 0; i < dimensions; i++) matrix[offset + i]! *= inv;
      }
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
    return new VectorIndex(embedder, dimensions, matrix, rowPassage, rowDocument, catalog.documents.length);
  }

  /** The unit vector of a passage (by passage row id), or undefined when it has none. */
  passageVector(passageRowId: number): Float32Array | undefined {
    let lo = 0;
    let hi = this.rowPassage.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const id = this.rowPassage[mid]!;
      if (id === passageRowId) return this.matrix.subarray(mid * this.dimensions, (mid + 1) * this.dimensions);
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
    let qn = 0;
    for (let i = 0; i < dims; i++) qn += query[i]! * query[i]!;
    if (qn === 0 || depth <= 0) return [];
    const q = new Float32Array(dims);
    const inv = 1 / Math.sqrt(qn);
    for (let i = 0; i < dims; i++) q[i] = query[i]! * inv;

    const best = new Float64Array(this.documentCount).fill(-Infinity);
    const bestRow = new Int32Array(this.documentCount).fill(-1);
    const allowed = filter ? Uint8Array.from({ length: this.documentCount }, (_, i) => (filter(i) ? 1 : 0)) : undefined;
    const m = this.matrix;
    const n = this.rowPassage.length;
    for (let r = 0; r < n; r++) {
      const doc = this.rowDocument[r]!;
      if (allowed && allowed[doc] === 0) continue;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let o = r * dims;
      let i = 0;
      for (; i + 3 < dims; i += 4, o += 4) {
        s0 += m[o]! * q[i]!;
        s1 += m[o + 1]! * q[i + 1]!;
        s2 += m[o + 2]! * q[i + 2]!;
        s3 += m[o + 3]! * q[i + 3]!;
      }
      let s = s0 + s1 + s2 + s3;
      for (; i < dims; i++, o++) s += m[o]! * q[i]!;
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
