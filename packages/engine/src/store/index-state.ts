/**
 * What the engine has read of its index — the catalog, the vocabulary and, on first need, the
 * vectors and the validity graph — kept until the index changes: another process's commit
 * (SQLite's `data_version`) or this engine's own index run (`changed()`). Every query reads the
 * state once, at its start, and keeps it to its end.
 */
import { embedderId } from "../embed/embedder.js";
import { EngineError } from "../errors.js";
import type { OfflineRerankOptions } from "../retrieval/heuristic-reranker.js";
import type { ValidityGraph } from "../retrieval/validity.js";
import { VectorIndex } from "../retrieval/vector.js";
import { analyzerId, type AnalyzerConfig } from "../text/analyze.js";
import type { EmbeddingModel } from "../types.js";
import { Catalog } from "./catalog.js";
import { sqliteFailure, type Db } from "./database.js";
import { readMeta } from "./meta.js";
import { SCHEMA_VERSION } from "./schema.js";
import { IndexVocabulary } from "./vocabulary.js";

export interface IndexState {
  key: string;
  catalog: Catalog;
  vocabulary: IndexVocabulary;
  vectors?: VectorIndex;
  validity?: ValidityGraph;
}

export class IndexStateCache {
  private generation = 0;
  private current: IndexState | undefined;

  constructor(
    private readonly db: Db,
    private readonly file: string,
    private readonly analyzer: AnalyzerConfig,
    private readonly embedder: EmbeddingModel,
  ) {}

  /** The index as of now; throws INDEX_STALE for an index this engine cannot read as it is. */
  state(): IndexState {
    let dataVersion: number;
    try {
      dataVersion = this.db.pragma("data_version", { simple: true }) as number;
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
    const key = `${dataVersion}:${this.generation}`;
    if (this.current?.key === key) return this.current;
    try {
      const meta = readMeta(this.db);
      const expected = analyzerId(this.analyzer);
      if (meta.analyzer !== undefined && meta.analyzer !== expected) {
        throw new EngineError(
          "INDEX_STALE",
          `${this.file}: built with ${meta.analyzer}; this engine analyzes text as ${expected}. Run \`pnpm engine index\` again to rebuild it`,
        );
      }
      if (meta.reindexRequired !== undefined) {
        // A migrated index (store/schema.ts) would show superseded documents as valid until it is read again.
        throw new EngineError(
          "INDEX_STALE",
          `${this.file}: upgraded to index schema version ${SCHEMA_VERSION}, but ${meta.reindexRequired}; run \`pnpm engine index\` again on every collection to read them`,
        );
      }
      const catalog = new Catalog(this.db);
      // The old state's vector rows go (and their scan's helper thread with them).
      this.current?.vectors?.dispose();
      this.current = { key, catalog, vocabulary: new IndexVocabulary(this.db, catalog.languages, catalog.passageDocument.size) };
      return this.current;
    } catch (error) {
      throw sqliteFailure(this.file, error);
    }
  }

  /**
   * The state's passage vectors, loaded on first need; undefined for an index without vectors.
   * Throws EMBEDDER_MISMATCH when they come from another embedder than this engine's.
   */
  vectors(state: IndexState): VectorIndex | undefined {
    const meta = readMeta(this.db);
    if (meta.embedder === undefined || state.catalog.passageDocument.size === 0) return undefined;
    const mine = embedderId(this.embedder);
    if (meta.embedder !== mine) {
      throw new EngineError(
        "EMBEDDER_MISMATCH",
        `${this.file}: vectors were made by ${meta.embedder} (${meta.dimensions} dimensions), this engine embeds with ${mine}; re-index with the same embedder, or open the index with ${meta.embedder}`,
      );
    }
    if (!state.vectors) {
      try {
        state.vectors = VectorIndex.load(this.db, state.catalog, meta.embedder, meta.dimensions ?? 0, this.file);
      } catch (error) {
        throw sqliteFailure(this.file, error);
      }
    }
    return state.vectors;
  }

  /** This engine changed the index (an index run, even a failed one): the next query reads it again. */
  changed(): void {
    this.generation++;
  }

  /** Stops the vector scan's helper thread, if any. */
  close(): void {
    this.current?.vectors?.dispose();
  }
}

/**
 * The index's statistics a lexical scorer needs (the heuristic reranker's, and `ask`'s sources
 * and evidence); IDFs are looked up on first read, so a remote reranker costs none.
 */
export function rerankScoring(state: IndexState): OfflineRerankOptions {
  return { termIdf: lazyIdf(state.vocabulary, {}), languages: state.catalog.languages, maxIdf: state.vocabulary.idf("") };
}

/** An IDF map that looks terms up in the index on first access. */
function lazyIdf(vocabulary: IndexVocabulary, cache: Record<string, number>): Record<string, number> {
  return new Proxy(cache, {
    get(target, key) {
      if (typeof key !== "string") return undefined;
      if (!(key in target)) target[key] = vocabulary.documentFrequency(key) > 0 ? vocabulary.idf(key) : 0;
      return target[key];
    },
  });
}
