/**
 * BM25 (retrieval/bm25.ts): one ranked list of documents for one lexical query — the query
 * itself, an expanded query, or the feedback query — with the call's filters applied.
 */
import type { DocCandidate, LexicalQuery } from "../../retrieval/bm25.js";
import { sqliteFailure } from "../../store/database.js";
import { MAX_QUERY_CHARS } from "../../text/analyze.js";
import { documentFilter, type QueryContext, traceItems } from "../context.js";
import { stage } from "../trace.js";

export interface Bm25Request {
  /** The list's name in the trace and in fusion (`bm25`, `bm25:expansion 2`, `bm25:feedback`). */
  name: string;
  query: LexicalQuery;
  /** The text shown in the trace. */
  text: string;
  depth: number;
}

export const bm25 = stage("bm25", (ctx: QueryContext, { name, query, text, depth }: Bm25Request) => {
  const { core, state } = ctx;
  let items: DocCandidate[];
  try {
    items = core.bm25.documents(query.match, depth, state.catalog, documentFilter(ctx));
  } catch (error) {
    throw sqliteFailure(core.file, error);
  }
  const notes: string[] = [];
  if (query.match === "") notes.push("no searchable terms in the query");
  if (query.truncated > 0) notes.push(`${query.truncated} terms beyond the first 64 were ignored`);
  if (text.length > MAX_QUERY_CHARS) notes.push(`only the first ${MAX_QUERY_CHARS} characters of the query were used`);
  return {
    value: items,
    input: {
      name,
      query: text,
      match: query.match,
      language: query.queryLanguage ?? null,
      depth,
      columnWeights: core.hybrid.columnWeights,
    },
    output: traceItems(ctx, items),
    note: notes.length ? notes.join("; ") : undefined,
  };
});
