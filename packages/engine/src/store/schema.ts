/**
 * The index schema. `PRAGMA user_version` holds `SCHEMA_VERSION`; an index written by a newer
 * engine is refused rather than misread.
 *
 * - `documents`: one row per source document; `(collection, path)` is its identity, `path` the
 *   document id shown to users. `content_hash` (sha256 of the source) and `chunker` decide whether a
 *   re-index may skip it.
 * - `passages`: chunks; `id` is also the FTS5 rowid; `content_hash` (sha256 of the embedded text)
 *   keys the embedding cache.
 * - `passages_fts`: contentless FTS5 table over analyzed terms (see text/analyze.ts) with separate
 *   `title`, `body` and `path` columns weighted in `bm25()`. The `ascii` tokenizer only splits on
 *   the spaces the analyzer put there.
 * - `embeddings`: Float32 little-endian vectors keyed by (passage content hash, embedder id), with
 *   their dimension: a cache that survives re-indexing and embedder switches, never mixed. A rowid
 *   table, not WITHOUT ROWID: there every 1.5 KB vector spilled to its own overflow page (469 MB
 *   for 154 MB of vectors, five times slower to insert).
 * - `meta`: analyzer id, active embedder and its dimension.
 *
 * Version 2 added each document's validity (`valid_from`, `valid_until`: ISO instants, UTC;
 * `supersedes`: a JSON array of document ids of the same collection). A version-1 index is
 * migrated when opened (`MIGRATE_1_TO_2`): the columns are added and every document's content hash
 * is cleared, so the next index run reads every document again (version 1 never read the fields);
 * until then searching it is refused with a message saying to run `pnpm engine index` again.
 */
export const SCHEMA_VERSION = 2;

/** The meta key a migrated index carries until an index run has read every document again. */
export const REINDEX_REQUIRED = "reindex_required";

export const MIGRATE_1_TO_2 = `
ALTER TABLE documents ADD COLUMN valid_from TEXT;
ALTER TABLE documents ADD COLUMN valid_until TEXT;
ALTER TABLE documents ADD COLUMN supersedes TEXT;
UPDATE documents SET content_hash = '';
INSERT OR REPLACE INTO meta (key, value) VALUES ('${REINDEX_REQUIRED}', 'schema version 1 did not record validFrom, validUntil and supersedes');
`;

export const CREATE_SCHEMA = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE documents (
  id INTEGER PRIMARY KEY,
  collection TEXT NOT NULL,
  path TEXT NOT NULL,
  title TEXT NOT NULL,
  language TEXT,
  language_source TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  chunker TEXT NOT NULL,
  valid_from TEXT,
  valid_until TEXT,
  supersedes TEXT,
  UNIQUE (collection, path)
) STRICT;

CREATE TABLE passages (
  id INTEGER PRIMARY KEY,
  document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  UNIQUE (document_id, seq)
) STRICT;

CREATE INDEX passages_by_hash ON passages(content_hash);

CREATE VIRTUAL TABLE passages_fts USING fts5(
  title, body, path,
  content = '', contentless_delete = 1,
  tokenize = 'ascii'
);

CREATE VIRTUAL TABLE passages_vocab USING fts5vocab(passages_fts, 'row');

CREATE TABLE embeddings (
  id INTEGER PRIMARY KEY,
  content_hash TEXT NOT NULL,
  embedder TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  vector BLOB NOT NULL,
  UNIQUE (content_hash, embedder)
) STRICT;
`;

/** Tables an index of this schema has; used to tell our index from some other SQLite file. */
export const SCHEMA_TABLES = ["documents", "embeddings", "meta", "passages", "passages_fts"];
