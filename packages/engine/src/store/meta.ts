import type { Db } from "./database.js";

export interface IndexMeta {
  analyzer?: string;
  embedder?: string;
  dimensions?: number;
  updatedAt?: string;
  /** Set on an index migrated from an older schema until every document has been read again (schema.ts). */
  reindexRequired?: string;
}

export function readMeta(db: Db): IndexMeta {
  const rows = db.prepare("SELECT key, value FROM meta").all() as Array<{ key: string; value: string }>;
  const map = new Map(rows.map((r) => [r.key, r.value]));
  const meta: IndexMeta = {};
  if (map.has("analyzer")) meta.analyzer = map.get("analyzer")!;
  if (map.has("embedder")) meta.embedder = map.get("embedder")!;
  if (map.has("dimensions")) meta.dimensions = Number(map.get("dimensions"));
  if (map.has("updated_at")) meta.updatedAt = map.get("updated_at")!;
  if (map.has("reindex_required")) meta.reindexRequired = map.get("reindex_required")!;
  return meta;
}
