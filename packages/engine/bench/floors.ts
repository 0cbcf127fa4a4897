/**
 * Physical floors for the engine benchmark, measured in the same run on the same data, so the
 * engine's speed is a ratio that does not move with the machine:
 *
 * - ingest: a bare better-sqlite3 loop inserting the passages' analyzed columns into an FTS5
 *   table with the engine's columns and tokenizer, inside one transaction, in a fresh file with
 *   the engine's journal mode and cache (the floor for "write passages into FTS5"); and apart,
 *   the two computations the engine must do per passage before writing: analysis (the three
 *   columns' terms, with a cold analysis cache as an index run starts with) and the offline
 *   embedder's vectors;
 * - vector search: the same unit query vectors' dot products over a `Float32Array` matrix of the
 *   same unit vectors, loaded apart, with a bounded min-heap for the top k passages (the floor for
 *   exact search). The one piece of engine code in it is the arithmetic, `dotRows`: the pinned
 *   scores fix the order of every sum, so another loop would compute other numbers, and the bench
 *   also reports that loop's throughput in GB/s against the matrix size. The same scan with the
 *   engine's WebAssembly SIMD kernel (same sums, same scores) over a copy of the matrix in
 *   WebAssembly memory is measured beside it: the floor of what the engine itself runs.
 *
 * What each floor leaves out (documents and passages rows, vectors, the per-document best, the
 * query's embedding, hits) is engine work, and the ratio says what it costs.
 */
import Database from "better-sqlite3";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { HashedNgramEmbedder } from "../src/embed/hashed-ngram.js";
import { baseLanguage } from "../src/ingest/language-path.js";
import type { ResidentRows } from "../src/retrieval/dot-rows-wasm.js";
import { jsResidentRows, normalizeRow } from "../src/retrieval/vector.js";
import { INDEX_RUN_CACHE_KIB } from "../src/store/database.js";
import { passageBody, pathTerms } from "../src/store/indexer.js";
import { indexTerms, resolveAnalyzer } from "../src/text/analyze.js";

export interface IngestFloors {
  passages: number;
  /** The bare FTS5 insert loop, BEGIN to COMMIT. */
  ftsInsertMs: number;
  /** Analysis of title, body and path terms of every passage, cold cache. */
  analysisMs: number;
  /** The offline embedder over every passage body. */
  embedMs: number;
}

interface PassageRow {
  heading: string;
  text: string;
  title: string;
  path: string;
  language: string | null;
}

/**
 * Measures the ingest floors for the passages of the index at `indexFile` (read-only), writing the
 * bare FTS5 table to a scratch file in `scratchDir`.
 */
export function measureIngestFloors(indexFile: string, scratchDir: string): IngestFloors {
  const source = new Database(indexFile, { readonly: true });
  let rows: PassageRow[];
  try {
    rows = source
      .prepare(
        "SELECT p.heading, p.text, d.title, d.path, d.language FROM passages p JOIN documents d ON d.id = p.document_id ORDER BY p.id",
      )
      .all() as PassageRow[];
  } finally {
    source.close();
  }

  // A fresh analyzer config object: the analysis memo is per config, so this one starts cold.
  const analyzer = resolveAnalyzer();
  const t0 = performance.now();
  const columns = rows.map((r): [string, string, string] => {
    const language = r.language ? baseLanguage(r.language) : undefined;
    return [
      indexTerms(r.title, language, analyzer),
      indexTerms(passageBody(r.heading, r.text), language, analyzer),
      pathTerms(r.path, r.language, analyzer),
    ];
  });
  const analysisMs = performance.now() - t0;
  // The insert loop binds flat copies: a string built by concatenation is a rope that the bind
  // flattens, which is the analyzer's cost, not FTS5's (measured: 0.9–1.2 s instead of 0.5 s for
  // 20,000 passages' terms built with `+=`).
  const flat = columns.map((c) => JSON.parse(JSON.stringify(c)) as [string, string, string]);

  const embedder = new HashedNgramEmbedder();
  const t1 = performance.now();
  for (const r of rows) embedder.embedOne(passageBody(r.heading, r.text));
  const embedMs = performance.now() - t1;

  const file = join(scratchDir, "fts-floor.db");
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma(`cache_size = -${INDEX_RUN_CACHE_KIB}`);
    db.exec("CREATE VIRTUAL TABLE passages_fts USING fts5(title, body, path, content = '', contentless_delete = 1, tokenize = 'ascii')");
    const insert = db.prepare("INSERT INTO passages_fts (rowid, title, body, path) VALUES (?, ?, ?, ?)");
    const t2 = performance.now();
    db.exec("BEGIN");
    for (let i = 0; i < flat.length; i++) {
      const c = flat[i]!;
      insert.run(i + 1, c[0], c[1], c[2]);
    }
    db.exec("COMMIT");
    const ftsInsertMs = performance.now() - t2;
    return { passages: rows.length, ftsInsertMs, analysisMs, embedMs };
  } finally {
    db.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
}

/**
 * The index's vectors of `embedder`, in passage order, each scaled to unit length, in one
 * `Float32Array` scanned by the JavaScript loop (`dotRows`).
 */
export function loadUnitRows(indexFile: string, embedder: string, dimensions: number): ResidentRows {
  const db = new Database(indexFile, { readonly: true });
  try {
    const blobs = db
      .prepare("SELECT e.vector FROM passages p JOIN embeddings e ON e.content_hash = p.content_hash AND e.embedder = ? ORDER BY p.id")
      .pluck()
      .all(embedder) as Buffer[];
    const rows = jsResidentRows(blobs.length, dimensions);
    const matrix = rows.matrix;
    blobs.forEach((blob, row) => {
      new Uint8Array(matrix.buffer, matrix.byteOffset + row * dimensions * 4, dimensions * 4).set(blob);
      normalizeRow(matrix, row * dimensions, dimensions);
    });
    return rows;
  } finally {
    db.close();
  }
}

/**
 * The bare exact scan: every row's dot product with the unit query (`rows.scan`: the engine's
 * arithmetic, `dotRows` or its SIMD kernel, which the pinned scores require), the best `k` rows
 * kept in a min-heap. Returns the rows, best first.
 */
export function bareScan(rows: ResidentRows, query: Float64Array, k: number): Int32Array {
  rows.scan(query);
  const scores = rows.scores;
  const heapScore = new Float64Array(k);
  const heapRow = new Int32Array(k);
  let size = 0;
  for (let r = 0; r < scores.length; r++) {
    const s = scores[r]!;
    if (size < k) siftUp(heapScore, heapRow, size++, s, r);
    else if (s > heapScore[0]!) siftDown(heapScore, heapRow, size, s, r);
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => heapScore[b]! - heapScore[a]!);
  return Int32Array.from(order, (i) => heapRow[i]!);
}

function siftUp(score: Float64Array, row: Int32Array, at: number, s: number, r: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (score[parent]! <= s) break;
    score[i] = score[parent]!;
    row[i] = row[parent]!;
    i = parent;
  }
  score[i] = s;
  row[i] = r;
}

/** Replaces the heap's minimum with (s, r). */
function siftDown(score: Float64Array, row: Int32Array, size: number, s: number, r: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    const child = right < size && score[right]! < score[left]! ? right : left;
    if (score[child]! >= s) break;
    score[i] = score[child]!;
    row[i] = row[child]!;
    i = child;
  }
  score[i] = s;
  row[i] = r;
}
