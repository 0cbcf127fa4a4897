/**
 * BM25 retrieval over passages through FTS5, aggregated to documents (a document scores as its
 * best passage). FTS5's `bm25()` uses k1 = 1.2, b = 0.75 and is lower-is-better; the engine
 * reports `score = −bm25()` so higher is better everywhere. Column weights (title, body, path)
 * are `HybridConfig.columnWeights`.
 *
 * The MATCH expression is built from analyzed terms only (text/analyze.ts) and sits alone in the
 * innermost query; filters apply afterwards, in memory.
 */
import { analyzeQuery, buildMatchExpression, matchingTerms, type AnalyzerConfig, type QueryTerm } from "../text/analyze.js";
import { detectLanguage } from "../text/language.js";
import type { Catalog } from "../store/catalog.js";
import type { Db } from "../store/database.js";
import type { Statement } from "better-sqlite3";
import { byScoreThenDocIdDesc } from "./order.js";

export interface DocCandidate {
  docIndex: number;
  docId: string;
  /** Row id of the passage that stands for the document. */
  passageRowId: number;
  score: number;
}

export interface LexicalQuery {
  /** Terms that take part in matching. */
  terms: QueryTerm[];
  match: string;
  queryLanguage: string | undefined;
  /** Distinct terms dropped beyond the per-query cap. */
  truncated: number;
}

/**
 * The BM25 side of a query. With `occurs` (the index's vocabulary), a compound that the index
 * holds in no form falls back to its parts (see `QueryAnalysisOptions.occurs`).
 */
export function prepareLexicalQuery(
  text: string,
  languages: readonly string[],
  analyzer: AnalyzerConfig,
  occurs?: (alternative: readonly string[]) => boolean,
): LexicalQuery {
  const queryLanguage = detectLanguage(text);
  const analyzed = analyzeQuery(text, { languages, queryLanguage, config: analyzer, spacedCompounds: true, ...(occurs ? { occurs } : {}) });
  const terms = matchingTerms(analyzed);
  return { terms, match: buildMatchExpression(terms), queryLanguage, truncated: analyzed.truncated };
}

export class Bm25Retriever {
  private readonly statement: Statement<[string, number], [number, number]>;

  constructor(db: Db, columnWeights: readonly [number, number, number]) {
    const [t, b, p] = columnWeights;
    this.statement = db
      .prepare(
        `SELECT rowid, bm25(passages_fts, ${t}, ${b}, ${p}) AS s FROM passages_fts WHERE passages_fts MATCH ? ORDER BY s, rowid LIMIT ?`,
      )
      .raw() as unknown as Statement<[string, number], [number, number]>;
  }

  /** Top `depth` documents for a prepared MATCH expression. */
  documents(match: string, depth: number, catalog: Catalog, filter: ((docIndex: number) => boolean) | undefined): DocCandidate[] {
    if (match === "" || depth <= 0) return [];
    let limit = depth * (filter ? 12 : 3) + 20;
    for (;;) {
      const rows = this.statement.all(match, limit);
      const best = new Map<number, DocCandidate>();
      for (const [rowId, s] of rows) {
        const docIndex = catalog.passageDocument.get(rowId);
        if (docIndex === undefined || best.has(docIndex)) continue;
        if (filter && !filter(docIndex)) continue;
        best.set(docIndex, { docIndex, docId: catalog.documents[docIndex]!.docId, passageRowId: rowId, score: -s });
      }
      if (best.size >= depth || rows.length < limit) {
        return [...best.values()].sort(byScoreThenDocIdDesc).slice(0, depth);
      }
      limit *= 4;
    }
  }
}
