/**
 * Cross-language retrieval: recall of relevant documents by (query language × document language).
 *
 * For each query, each relevant document (its relevant set when the dataset lists one apart from
 * the graded judgments, else the documents judged ≥ level: retrieval.ts, `relevantDocsOf`) counts in the cell of the query's
 * language and the document's language; it is found when it is in the top k. A cell's recall is
 * found / relevant over all queries (micro-averaged), so a cell with few documents is shown with
 * its counts, never as a bare percentage.
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { markdownTable } from "./markdown-table.js";
import { relevantDocsOf } from "./retrieval.js";

export interface LanguageCell {
  relevant: number;
  found: number;
  /** found / relevant; null when the cell has no relevant documents. */
  recall: number | null;
}

export type LanguageMatrix = Record<string, Record<string, LanguageCell>>;

export interface MatrixRow {
  queryLanguage: string;
  /** Ranked doc ids, best first. */
  ranking: readonly string[];
  judgments: Readonly<Record<string, number>>;
  /** The relevant set, when the dataset lists one apart from the judgments. */
  relevant?: readonly string[];
}

export function languageRecallMatrix(
  rows: readonly MatrixRow[],
  languageOf: (docId: string) => string,
  k: number,
  relevanceLevel = 1,
): LanguageMatrix {
  const matrix: LanguageMatrix = {};
  for (const row of rows) {
    const top = new Set(row.ranking.slice(0, k));
    for (const docId of relevantDocsOf(row, relevanceLevel)) {
      const cell = ((matrix[row.queryLanguage] ??= {})[languageOf(docId)] ??= { relevant: 0, found: 0, recall: null });
      cell.relevant++;
      if (top.has(docId)) cell.found++;
    }
  }
  for (const cells of Object.values(matrix))
    for (const cell of Object.values(cells)) cell.recall = cell.relevant > 0 ? cell.found / cell.relevant : null;
  return matrix;
}

/**
 * The matrix as a Markdown table (rows: query languages, columns: document languages), each cell
 * with its counts, `0.50 (1/2)`; `–` where no query of that language has a relevant document in
 * that one. Evalite's UI renders it as a table; in a terminal it reads as an aligned table.
 */
export function formatLanguageMatrix(matrix: LanguageMatrix, k: number): string {
  const queryLangs = Object.keys(matrix).sort();
  const docLangs = [...new Set(queryLangs.flatMap((q) => Object.keys(matrix[q]!)))].sort();
  const cell = (c: LanguageCell | undefined): string =>
    c ? `${c.recall === null ? "–" : c.recall.toFixed(2)} (${c.found}/${c.relevant})` : "–";
  return markdownTable(
    [`Recall@${k}: query ↓ document →`, ...docLangs],
    queryLangs.map((q) => [q, ...docLangs.map((d) => cell(matrix[q]![d]))]),
  );
}

/**
 * Recall@k over the relevant documents written in ANOTHER language than the query.
 *
 * **When to use:** cross-language queries: did the engine cross the language boundary?
 * **When NOT to use:** queries whose relevant documents are all in the query's language (the
 * score is then 0 with `noRelevant` in metadata, as for any query without relevant documents).
 */
export function crossLanguageRecallAtK<
  TInput extends { language?: string },
  TOutput extends { results: ReadonlyArray<{ docId: string }> },
  TExpected extends { judgments: Readonly<Record<string, number>>; relevant?: readonly string[] },
>(k: number, languageOf: (docId: string) => string): Evalite.Scorer<TInput, TOutput, TExpected> {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be an integer ≥ 1, got ${k}`);
  return createScorer<TInput, TOutput, TExpected>({
    name: `Cross-language Recall@${k}`,
    description: `recall@${k} over relevant documents in another language than the query`,
    scorer: ({ input, output, expected }) => {
      if (!input.language) throw new Error("cross-language recall needs the query's language");
      const others = relevantDocsOf(expected).filter((doc) => languageOf(doc) !== input.language);
      const top = new Set(output.results.slice(0, k).map((r) => r.docId));
      const found = others.filter((doc) => top.has(doc));
      const metadata = {
        k,
        relevantOtherLanguage: others.length,
        found,
        missed: others.filter((doc) => !top.has(doc)),
        ...(expected.relevant ? { relevantFrom: "relevant set" } : {}),
      };
      if (others.length === 0)
        return { score: 0, metadata: { ...metadata, noRelevant: true, policy: "score 0: no relevant document in another language" } };
      return { score: found.length / others.length, metadata };
    },
  });
}
