/**
 * Indexing a source into one collection of the index.
 *
 * Order of work, chosen so that a failure at any point leaves the previous index as it was, and
 * so that two runs on one index cannot mix:
 * 1. read and decode every source document (errors name the file), without any lock;
 * 2. take the index's write lock (`beginIndexRun`: `BEGIN IMMEDIATE`, waiting up to the busy
 *    timeout for another run, then `DB_LOCKED`) and hold it to the end, so the plan below is made
 *    from the rows it will change — no other run can write in between (readers still read: WAL);
 * 3. diff against the collection's rows by content hash and chunker id: unchanged documents are
 *    skipped, changed and new ones chunked, missing ones marked for removal;
 * 4. embed every passage text whose (content hash, embedder) is not cached — including all passages
 *    when the embedder changed (model calls are async; the lock is held, nothing is written yet);
 * 5. apply everything and commit: removals, rewrites, inserts, FTS rows, vectors, meta (with
 *    `updated_at`, which marks the index as finished). Any failure rolls the whole run back.
 * A rebuild of the full-text rows for the whole index happens in the same transaction when the
 * analyzer changed.
 *
 * A large run (`useIndexWorker`: 10,000 texts or more, two CPUs) computes the passages' FTS5 terms
 * on a worker thread (store/prepare-thread.ts) while this thread writes them in step 5; with the
 * offline embedder, step 4 moves there too: the worker embeds from the first batch on, this thread
 * from the last whenever it has nothing to write, and the vectors are written after the passages,
 * in the same order as on one thread. Terms and vectors are pure functions of their text
 * (store/prepare.ts), so the index is the same byte for byte (test/parallel-index.test.ts).
 */
import { createHash } from "node:crypto";
import { EngineError } from "../errors.js";
import { chunkDocument, chunkerId, type ChunkerConfig } from "../ingest/chunk.js";
import { readSource, type Source, type SourceDocument } from "../ingest/source.js";
import { baseLanguage } from "../ingest/language-path.js";
import { analyzerId, indexTerms, type AnalyzerConfig } from "../text/analyze.js";
import { embedderId, embedTexts } from "../embed/embedder.js";
import type { CallPolicy, EmbeddingModel, IndexOptions, IndexReport, IndexWorkerMode } from "../types.js";
import { beginIndexRun, INDEX_RUN_CACHE_KIB, sqliteFailure, type Db } from "./database.js";
import { readMeta } from "./meta.js";
import type { HashedNgramEmbedder } from "../embed/hashed-ngram.js";
import {
  type DocumentTerms,
  documentTerms,
  embedPacked,
  offlineEmbedderDimensions,
  passageBody,
  pathTerms,
  type TermsJob,
} from "./prepare.js";
import { PreparationQueue, PrepareThread, useIndexWorker } from "./prepare-thread.js";
import { REINDEX_REQUIRED } from "./schema.js";

export { passageBody, pathTerms } from "./prepare.js";

export interface IndexerContext {
  db: Db;
  file: string;
  analyzer: AnalyzerConfig;
  chunker: ChunkerConfig;
  embedder: EmbeddingModel;
  /** Limits of each embedding call. */
  modelLimits: CallPolicy;
  /** Where the passages' terms and offline vectors are computed (store/prepare-thread.ts). @default "auto" */
  indexWorker?: IndexWorkerMode;
}

interface NewPassage {
  seq: number;
  heading: string;
  text: string;
  contentHash: string;
}

interface PlannedDocument {
  source: SourceDocument;
  existingId: number | undefined;
  passages: NewPassage[];
}

const EMBED_BATCH = 256;
/** Passages per terms request to the worker thread (whole documents, so a batch may hold more). */
const TERMS_BATCH = 256;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Meta key recording where a collection came from (`folder` or `jsonl`): only folder paths are searchable. */
const sourceKindKey = (collection: string): string => `source:${collection}`;

export async function indexSource(ctx: IndexerContext, location: string, options: IndexOptions = {}): Promise<IndexReport> {
  const started = performance.now();
  return indexRead(ctx, readSource(location), options, started);
}

/**
 * Steps 2–5 for a source already read (step 1): from files (`indexSource`) or given as data
 * (`Engine.indexDocuments`). `started` is when step 1 began (the report's elapsed time includes it).
 */
export async function indexRead(
  ctx: IndexerContext,
  source: Source,
  options: IndexOptions = {},
  started = performance.now(),
): Promise<IndexReport> {
  const say = (line: string): void => {
    messages.push(line);
    options.onMessage?.(line);
  };
  const messages: string[] = [];
  const collection = options.collection ?? source.defaultCollection;
  if (collection.trim() === "") throw new EngineError("BAD_ARGUMENT", `collection name must not be empty`);

  const { db, file } = ctx;
  beginIndexRun(db, file);
  // A run writes its whole index in one transaction: with SQLite's default 2 MiB page cache the
  // pages it is still filling (FTS segments, passages, vectors) spill and are read back; 64 MiB
  // cut the CPU time of the same inserts by about 15%. Queries keep the default.
  const cacheSize = db.pragma("cache_size", { simple: true }) as number;
  db.pragma(`cache_size = -${INDEX_RUN_CACHE_KIB}`);
  try {
    const report = await writeRun(ctx, source, collection, { say, progress: (line) => options.onMessage?.(line) });
    db.exec("COMMIT");
    return { ...report, messages, elapsedMs: performance.now() - started };
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw sqliteFailure(file, error);
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
  }
}

/** Steps 3–5 of an index run, inside its write transaction (the caller commits). */
async function writeRun(
  ctx: IndexerContext,
  source: Source,
  collection: string,
  notices: { say: (line: string) => void; progress: (line: string) => void },
): Promise<Omit<IndexReport, "messages" | "elapsedMs">> {
  const { say } = notices;
  const { db } = ctx;
  const meta = readMeta(db);
  const analyzer = analyzerId(ctx.analyzer);
  const chunker = chunkerId(ctx.chunker);
  const embedder = embedderId(ctx.embedder);
  const rebuildFts = meta.analyzer !== undefined && meta.analyzer !== analyzer;
  if (rebuildFts) say(`analyzer changed (${meta.analyzer} → ${analyzer}): rebuilding the full-text index of every collection`);
  const embedderChanged = meta.embedder !== undefined && meta.embedder !== embedder;

  // 3. Diff against the collection.
  const existing = new Map<string, { id: number; hash: string; chunker: string }>();
  for (const row of db
    .prepare("SELECT id, path, content_hash AS hash, chunker FROM documents WHERE collection = ?")
    .all(collection) as Array<{ id: number; path: string; hash: string; chunker: string }>) {
    existing.set(row.path, row);
  }
  const planned: PlannedDocument[] = [];
  let unchanged = 0;
  const seen = new Set<string>();
  for (const doc of source.documents) {
    seen.add(doc.path);
    const old = existing.get(doc.path);
    if (old && old.hash === doc.contentHash && old.chunker === chunker) {
      unchanged++;
      continue;
    }
    const chunks = chunkDocument(doc.body, doc.title, doc.markdown, ctx.chunker);
    // A document with a title and no body (or an empty JSONL text) is still findable by its title.
    if (chunks.length === 0 && doc.title.trim() !== "") chunks.push({ seq: 0, heading: "", text: doc.title });
    const passages = chunks.map((c) => ({
      seq: c.seq,
      heading: c.heading,
      text: c.text,
      contentHash: sha256(passageBody(c.heading, c.text)),
    }));
    planned.push({ source: doc, existingId: old?.id, passages });
  }
  const removed = [...existing.entries()].filter(([path]) => !seen.has(path)).map(([, row]) => row.id);

  // 4. Embeddings that are missing for the active embedder.
  const cached = db.prepare("SELECT 1 FROM embeddings WHERE content_hash = ? AND embedder = ?").pluck();
  const toEmbed = new Map<string, string>();
  let reused = 0;
  for (const doc of planned) {
    for (const p of doc.passages) {
      if (toEmbed.has(p.contentHash)) continue;
      if (cached.get(p.contentHash, embedder)) reused++;
      else toEmbed.set(p.contentHash, passageBody(p.heading, p.text));
    }
  }
  const removedSet = new Set(removed.concat(planned.flatMap((d) => (d.existingId === undefined ? [] : [d.existingId]))));
  const stale = db
    .prepare(
      `SELECT p.content_hash AS hash, p.heading, p.text, p.document_id AS documentId FROM passages p
       WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.content_hash = p.content_hash AND e.embedder = ?)`,
    )
    .all(embedder) as Array<{ hash: string; heading: string; text: string; documentId: number }>;
  for (const row of stale) {
    if (!removedSet.has(row.documentId) && !toEmbed.has(row.hash)) toEmbed.set(row.hash, passageBody(row.heading, row.text));
  }
  if (embedderChanged) {
    say(
      `embedder changed (${meta.embedder}, ${meta.dimensions} dimensions → ${embedder}): re-embedding ${stale.length} stored passages; vectors of the two are never mixed`,
    );
  }
  const hashes = [...toEmbed.keys()];
  /** The vector of each of `hashes`, in its order. */
  const vectors = new Array<Float32Array>(hashes.length);
  let dimensions = embedderChanged ? 0 : (meta.dimensions ?? 0);
  const checkDimensions = (vector: Float32Array): void => {
    if (dimensions === 0) dimensions = vector.length;
    if (vector.length !== dimensions || vector.length === 0) {
      throw new EngineError(
        "PROVIDER_ERROR",
        `${embedder} returned a ${vector.length}-dimensional vector where ${dimensions} were expected; nothing was written`,
      );
    }
  };
  let embeddedCount = 0;
  const embedded = (count: number): void => {
    const before = embeddedCount;
    embeddedCount += count;
    if (
      hashes.length >= 10 * EMBED_BATCH &&
      (embeddedCount === hashes.length || Math.floor(embeddedCount / (hashes.length / 10)) > Math.floor(before / (hashes.length / 10)))
    ) {
      notices.progress(`embedded ${embeddedCount}/${hashes.length} passages`);
    }
  };

  // Where the passages' terms (and the offline embedder's vectors) are computed: on this thread,
  // or on a worker thread while this one writes (store/prepare-thread.ts). The index is the same.
  const batches = documentBatches(planned);
  const termsJobs = rebuildFts ? [] : batches.map((batch) => batch.map((doc) => termsJob(doc, source.kind === "folder")));
  const termTexts = rebuildFts ? 0 : planned.reduce((n, doc) => n + doc.passages.length, 0);
  const workerDimensions = offlineEmbedderDimensions(ctx.embedder);
  const workerEmbeds = workerDimensions !== undefined && hashes.length > 0 ? hashes.length : 0;
  const prepared = termTexts + workerEmbeds;
  const counts = { written: 0, removedPassages: 0, added: 0, updated: 0 };
  const thread =
    prepared > 0 && useIndexWorker(ctx.indexWorker ?? "auto", prepared)
      ? new PrepareThread({ analyzer: ctx.analyzer, dimensions: workerEmbeds > 0 ? workerDimensions! : null })
      : undefined;
  /** Whether the vectors are computed by the worker thread and this one together (the offline embedder). */
  const embedOnWorker = thread !== undefined && workerEmbeds > 0;
  try {
    let queue: PreparationQueue | undefined;
    /** Places the packed vectors of embedding batch `i` (hashes i × EMBED_BATCH …). */
    const placeVectors = (i: number, packed: Float32Array): void => {
      const count = Math.min(EMBED_BATCH, hashes.length - i * EMBED_BATCH);
      const dims = packed.length / count;
      for (let j = 0; j < count; j++) vectors[i * EMBED_BATCH + j] = packed.subarray(j * dims, (j + 1) * dims);
      embedded(count);
    };
    if (thread) {
      notices.progress(
        `preparing ${termTexts} passages' terms${embedOnWorker ? ` and ${hashes.length} vectors` : ""} on a worker thread while this one writes`,
      );
      const embedJobs: string[][] = [];
      for (let i = 0; embedOnWorker && i < hashes.length; i += EMBED_BATCH)
        embedJobs.push(hashes.slice(i, i + EMBED_BATCH).map((h) => toEmbed.get(h)!));
      queue = new PreparationQueue(thread, termsJobs, embedJobs, placeVectors);
    }
    /** This thread's share of the worker's embedding: one batch from the back, if any is left. */
    const embedOneBatchHere = async (): Promise<boolean> => {
      const i = queue?.takeLast();
      if (i === undefined) return false;
      placeVectors(
        i,
        embedPacked(
          ctx.embedder as HashedNgramEmbedder,
          hashes.slice(i * EMBED_BATCH, (i + 1) * EMBED_BATCH).map((h) => toEmbed.get(h)!),
        ),
      );
      await yieldToEventLoop(); // the worker's replies, meanwhile
      if (thread?.failed) throw thread.failed;
      return true;
    };

    // 4. On this thread: embeddings through the embedder's own calls (a model's are async; the
    // lock is held, nothing is written yet).
    if (!embedOnWorker) {
      for (let i = 0; i < hashes.length; i += EMBED_BATCH) {
        const batch = hashes.slice(i, i + EMBED_BATCH);
        const batchVectors = await embedTexts(
          ctx.embedder,
          batch.map((h) => toEmbed.get(h)!),
          ctx.modelLimits,
        );
        batchVectors.forEach((vector, j) => {
          checkDimensions(vector);
          vectors[i + j] = vector;
        });
        embedded(batch.length);
      }
      if (dimensions === 0) {
        const probe = await embedTexts(ctx.embedder, ["dimension probe"], ctx.modelLimits);
        dimensions = probe[0]!.length;
      }
    }

    // 5. The writes, in the run's transaction.
    const passageIdsOf = db.prepare("SELECT id FROM passages WHERE document_id = ?").pluck();
    const deleteFts = db.prepare("DELETE FROM passages_fts WHERE rowid = ?");
    const deletePassages = db.prepare("DELETE FROM passages WHERE document_id = ?");
    const deleteDocument = db.prepare("DELETE FROM documents WHERE id = ?");
    const insertDocument = db.prepare(
      "INSERT INTO documents (collection, path, title, language, language_source, content_hash, chunker, valid_from, valid_until, supersedes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const updateDocument = db.prepare(
      "UPDATE documents SET title = ?, language = ?, language_source = ?, content_hash = ?, chunker = ?, valid_from = ?, valid_until = ?, supersedes = ? WHERE id = ?",
    );
    const insertPassage = db.prepare("INSERT INTO passages (document_id, seq, heading, text, content_hash) VALUES (?, ?, ?, ?, ?)");
    const insertFts = db.prepare("INSERT INTO passages_fts (rowid, title, body, path) VALUES (?, ?, ?, ?)");
    const insertVector = db.prepare("INSERT OR REPLACE INTO embeddings (content_hash, embedder, dimensions, vector) VALUES (?, ?, ?, ?)");

    const dropPassages = (documentId: number): void => {
      for (const id of passageIdsOf.all(documentId) as number[]) {
        if (!rebuildFts) deleteFts.run(id);
        counts.removedPassages++;
      }
      deletePassages.run(documentId);
    };
    /** Writes one planned document, its passages and (unless the run rebuilds them all) their FTS5 rows. */
    const writeDocument = (doc: PlannedDocument, terms: DocumentTerms | undefined): void => {
      const s = doc.source;
      let documentId: number;
      const validity = validityColumns(s);
      if (doc.existingId !== undefined) {
        dropPassages(doc.existingId);
        updateDocument.run(s.title, s.language, s.languageSource, s.contentHash, chunker, ...validity, doc.existingId);
        documentId = doc.existingId;
        counts.updated++;
      } else {
        documentId = Number(
          insertDocument.run(collection, s.path, s.title, s.language, s.languageSource, s.contentHash, chunker, ...validity)
            .lastInsertRowid,
        );
        counts.added++;
      }
      doc.passages.forEach((p, k) => {
        const passageId = Number(insertPassage.run(documentId, p.seq, p.heading, p.text, p.contentHash).lastInsertRowid);
        if (terms) insertFts.run(passageId, terms.title, terms.bodies[k], terms.path);
        counts.written++;
      });
    };
    const setMeta = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    setMeta.run(sourceKindKey(collection), source.kind);
    if (rebuildFts) db.prepare("INSERT INTO passages_fts (passages_fts) VALUES ('delete-all')").run();

    for (const id of removed) {
      dropPassages(id);
      deleteDocument.run(id);
    }
    for (let b = 0; b < batches.length; b++) {
      let terms: DocumentTerms[] | undefined;
      if (rebuildFts) terms = undefined;
      else if (queue) {
        // Waiting for the worker's terms: embed a batch of its vectors meanwhile.
        while (!queue.termsReady(b) && (await embedOneBatchHere()));
        terms = await queue.terms(b);
      } else terms = termsJobs[b]!.map((job) => documentTerms(job, ctx.analyzer));
      batches[b]!.forEach((doc, k) => {
        writeDocument(doc, terms?.[k]);
      });
      // Let the worker's replies in (an awaited promise that is already settled does not): each
      // embedding reply hands the worker its next batch.
      if (queue) await yieldToEventLoop();
    }
    if (queue) {
      while (await embedOneBatchHere());
      await queue.finished();
      if (embedOnWorker) vectors.forEach(checkDimensions);
    }
    if (rebuildFts) rebuildFullText(db, ctx.analyzer);
    hashes.forEach((hash, k) => {
      const vector = vectors[k]!;
      insertVector.run(hash, embedder, vector.length, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
    });
    // Cached vectors of text that no passage holds any more are garbage; vectors of other
    // embedders for live text stay, so switching back does not pay again.
    db.prepare("DELETE FROM embeddings WHERE content_hash NOT IN (SELECT content_hash FROM passages)").run();
    setMeta.run("analyzer", analyzer);
    setMeta.run("embedder", embedder);
    setMeta.run("dimensions", String(dimensions));
    setMeta.run("updated_at", new Date().toISOString());
    // A migrated index has read every document again once no cleared hash is left.
    if (db.prepare("SELECT 1 FROM documents WHERE content_hash = '' LIMIT 1").get() === undefined) {
      db.prepare("DELETE FROM meta WHERE key = ?").run(REINDEX_REQUIRED);
    }
  } finally {
    await thread?.close();
  }

  const totals = db
    .prepare(
      "SELECT (SELECT count(*) FROM documents WHERE collection = ?) AS docs, (SELECT count(*) FROM passages p JOIN documents d ON d.id = p.document_id WHERE d.collection = ?) AS passages",
    )
    .get(collection, collection) as { docs: number; passages: number };
  // A collection left without documents is gone (`stats()` lists none): so is the note of its source.
  if (totals.docs === 0) db.prepare("DELETE FROM meta WHERE key = ?").run(sourceKindKey(collection));
  return {
    collection,
    source: source.location,
    documents: { added: counts.added, updated: counts.updated, unchanged, removed: removed.length, total: totals.docs },
    passages: { written: counts.written, removed: counts.removedPassages, total: totals.passages },
    embeddings: { computed: hashes.length, reused, embedder, dimensions },
    skippedFiles: source.skippedFiles,
  };
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The planned documents in batches of whole documents of at least `TERMS_BATCH` passages (the last may hold fewer). */
function documentBatches(planned: readonly PlannedDocument[]): PlannedDocument[][] {
  const batches: PlannedDocument[][] = [];
  let batch: PlannedDocument[] = [];
  let passages = 0;
  for (const doc of planned) {
    batch.push(doc);
    passages += doc.passages.length;
    if (passages >= TERMS_BATCH) {
      batches.push(batch);
      batch = [];
      passages = 0;
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** What the analyzer needs of a planned document. */
function termsJob(doc: PlannedDocument, searchablePath: boolean): TermsJob {
  const s = doc.source;
  return {
    title: s.title,
    path: s.path,
    language: s.language,
    searchablePath,
    bodies: doc.passages.map((p) => passageBody(p.heading, p.text)),
  };
}

/** The `valid_from`, `valid_until`, `supersedes` columns of a document (null when it declares none). */
function validityColumns(doc: SourceDocument): [string | null, string | null, string | null] {
  const v = doc.validity;
  return [v?.validFrom ?? null, v?.validUntil ?? null, v && v.supersedes.length > 0 ? JSON.stringify(v.supersedes) : null];
}

/** Re-creates every FTS row from the stored passages (after an analyzer change). */
function rebuildFullText(db: Db, analyzer: AnalyzerConfig): void {
  const insertFts = db.prepare("INSERT INTO passages_fts (rowid, title, body, path) VALUES (?, ?, ?, ?)");
  const rows = db
    .prepare(
      "SELECT p.id, p.heading, p.text, d.title, d.path, d.language, d.collection FROM passages p JOIN documents d ON d.id = p.document_id",
    )
    .all() as Array<{
    id: number;
    heading: string;
    text: string;
    title: string;
    path: string;
    language: string | null;
    collection: string;
  }>;
  const kind = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  for (const row of rows) {
    const lang = row.language ? baseLanguage(row.language) : undefined;
    insertFts.run(
      row.id,
      indexTerms(row.title, lang, analyzer),
      indexTerms(passageBody(row.heading, row.text), lang, analyzer),
      // A collection indexed before its kind was recorded keeps path search, as it had.
      pathTerms(row.path, row.language, analyzer, kind.get(sourceKindKey(row.collection)) !== "jsonl"),
    );
  }
}
