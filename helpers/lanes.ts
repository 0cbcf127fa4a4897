/**
 * Lanes: retrieval datasets with their own corpus and their own index, measured beside the main
 * dataset and never mixed into it (a shared index would change the main corpus's BM25 statistics).
 *
 * - `lexical`: the lexical regression matrix (fixtures/lexical), collections `handbook` and
 *   `archive` in one index, one case per matrix cell spelling;
 * - `cjk`: the CJK lane (fixtures/cjk), one collection of Chinese (Simplified and Traditional),
 *   Japanese and Korean articles;
 * - `temporal`: the temporal lane (fixtures/temporal), documents in validity chains (validFrom,
 *   validUntil, supersedes) in en/de/fr/it, and cases whose right answer depends on the date.
 *
 * All run whatever `EVAL_DATASET` says: they measure the engine's text analysis on fixtures that
 * were written for it. Their indexes hold offline vectors only; the lanes measure BM25.
 */
import { join } from "node:path";
import type { EngineOptions } from "@hybrid-search/engine";
import type { RetrievalCase } from "./dataset.js";
import {
  CJK_DIR,
  LEXICAL_COLLECTIONS,
  LEXICAL_DIR,
  loadCjkQueries,
  loadLexicalCases,
  loadTemporalCases,
  TEMPORAL_DIR,
} from "./fixture-files.js";
import { LANES, type LaneName } from "./index-plan.js";
import { buildTempIndex, type TempIndex } from "./setup-db.js";

export { LANES, type LaneName };

export interface Lane {
  name: LaneName;
  /** What gets indexed: the first entry is the main collection, the others are added to the same index. */
  collections: Array<{ source: string; collection: string }>;
  cases: RetrievalCase[];
}

/** Loads and validates a lane's fixtures. Throws FixtureError (one line) when they are malformed. */
export function loadLane(name: LaneName): Lane {
  if (name === "lexical") {
    return {
      name,
      collections: LEXICAL_COLLECTIONS.map((collection) => ({ source: join(LEXICAL_DIR, collection), collection })),
      cases: loadLexicalCases().map((c) => ({
        id: c.id,
        query: c.query,
        language: "en",
        // The cell is the case's category, so the gate floors every cell (fixtures have 5+ per cell).
        category: c.cell,
        ...(c.collection ? { collection: c.collection } : {}),
        judgments: { ...c.judgments },
        note: c.note,
      })),
    };
  }
  if (name === "temporal") {
    return {
      name,
      collections: [{ source: join(TEMPORAL_DIR, "corpus"), collection: "temporal" }],
      // The documents valid at the case's instant are its relevant ones; the stale ones are judged 0.
      cases: loadTemporalCases().map((c) => ({
        id: c.id,
        query: c.query,
        language: c.language,
        category: c.change,
        judgments: { ...Object.fromEntries(c.stale.map((d) => [d, 0])), ...Object.fromEntries(c.valid.map((d) => [d, 3])) },
        note: c.note,
      })),
    };
  }
  return {
    name,
    collections: [{ source: join(CJK_DIR, "corpus"), collection: "cjk" }],
    cases: loadCjkQueries().map((q) => ({
      id: q.id,
      query: q.query,
      language: q.language,
      category: q.category,
      judgments: { ...q.judgments },
      note: q.note,
    })),
  };
}

/**
 * Builds a lane's temp index with the run's engine parameters (EVAL_ENGINE_OPTIONS: an analyzer
 * experiment reaches the lanes too) and the offline embedder.
 */
export function buildLaneIndex(lane: Lane, engine: EngineOptions = {}): Promise<TempIndex> {
  const [main, ...more] = lane.collections;
  const lexicalOnly = { ...engine };
  delete lexicalOnly.embedder;
  return buildTempIndex(main!.source, { dataset: `${lane.name} lane`, collection: main!.collection, more, engine: lexicalOnly });
}
