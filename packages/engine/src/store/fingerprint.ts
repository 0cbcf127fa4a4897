/**
 * What identifies an index's behaviour (`Engine.fingerprint()`), and what it holds
 * (`Engine.stats()`): read from the index's own tables.
 */
import { createHash } from "node:crypto";
import { embedderId } from "../embed/embedder.js";
import { analyzerId, type AnalyzerConfig } from "../text/analyze.js";
import type { EmbeddingModel, IndexFingerprint } from "../types.js";
import { Catalog } from "./catalog.js";
import { sqliteFailure, type Db } from "./database.js";
import { readMeta } from "./meta.js";
import { SCHEMA_VERSION } from "./schema.js";

/** Equal fingerprints mean comparable runs: same documents (by content hash), analyzer, chunkers, embedder, schema. */
export function indexFingerprint(db: Db, analyzer: AnalyzerConfig, embedder: EmbeddingModel): IndexFingerprint {
  const meta = readMeta(db);
  const hash = createHash("sha256");
  for (const row of db
    .prepare("SELECT collection, path, content_hash FROM documents ORDER BY collection, path")
    .raw()
    .iterate() as IterableIterator<string[]>) {
    hash.update(`${row[0]}\u0000${row[1]}\u0000${row[2]}\n`);
  }
  const counts = db.prepare("SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM passages) AS passages").get() as {
    documents: number;
    passages: number;
  };
  const chunkers = db.prepare("SELECT DISTINCT chunker FROM documents ORDER BY chunker").pluck().all() as string[];
  return {
    schemaVersion: SCHEMA_VERSION,
    analyzer: meta.analyzer ?? analyzerId(analyzer),
    chunkers,
    embedder: meta.embedder ?? embedderId(embedder),
    dimensions: meta.dimensions ?? 0,
    corpusHash: hash.digest("hex"),
    documents: counts.documents,
    passages: counts.passages,
  };
}

export interface IndexStats {
  collections: string[];
  languages: string[];
  documents: number;
  passages: number;
  embedder: string | null;
  dimensions: number | null;
  /** Why this engine cannot search the index as it is (built with another analyzer), or null. */
  stale: string | null;
}

/** Collections, languages and sizes; works on an index built with another analyzer too: it is how a user finds out what they have. */
export function indexStats(db: Db, file: string, analyzer: AnalyzerConfig): IndexStats {
  let catalog: Catalog;
  try {
    catalog = new Catalog(db);
  } catch (error) {
    throw sqliteFailure(file, error);
  }
  const meta = readMeta(db);
  const expected = analyzerId(analyzer);
  return {
    collections: catalog.collections,
    languages: catalog.languages,
    documents: catalog.documents.length,
    passages: catalog.passageDocument.size,
    embedder: meta.embedder ?? null,
    dimensions: meta.dimensions ?? null,
    stale:
      meta.analyzer !== undefined && meta.analyzer !== expected
        ? `built with ${meta.analyzer}; this engine analyzes text as ${expected}: run \`pnpm engine index\` again`
        : null,
  };
}
