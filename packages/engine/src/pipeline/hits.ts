/**
 * The hits a response returns: the ranking's first `limit` documents with their best passage,
 * title, language, heading, `validity` when it applies, and a snippet made on first read.
 */
import { baseLanguage } from "../ingest/language-path.js";
import type { DocCandidate } from "../retrieval/bm25.js";
import { makeSnippet } from "../retrieval/snippet.js";
import { describeStale } from "../retrieval/validity.js";
import type { RankedHit, HitValidity } from "../types.js";
import type { QueryContext } from "./context.js";

export function shapeHits(ctx: QueryContext, ranking: readonly DocCandidate[]): RankedHit[] {
  const { core, state } = ctx;
  const queryTokens = new Set(ctx.query.lexical.terms.flatMap((t) => t.alternatives.flat()));
  const validity = hitValidity(ctx);
  return ranking.slice(0, ctx.options.limit).map((item, i) => {
    const doc = state.catalog.documents[item.docIndex]!;
    const row = core.passages.text(item.passageRowId);
    const hit = {
      rank: i + 1,
      docId: doc.docId,
      collection: doc.collection,
      passageId: state.catalog.passageId(item.passageRowId),
      score: item.score,
      title: doc.title,
      language: doc.language,
      heading: row.heading,
      ...validity(item.docIndex),
    } as RankedHit;
    // Snippets analyze the passage text; most callers (TREC runs, evals, ask) never read them,
    // so one is made on first read. The getter is enumerable, so JSON output still has it.
    let snippet: string | undefined;
    Object.defineProperty(hit, "snippet", {
      enumerable: true,
      get: () => (snippet ??= makeSnippet(row.text, queryTokens, doc.language ? baseLanguage(doc.language) : undefined, core.analyzer)),
    });
    return hit;
  });
}

/** The `validity` a hit carries: only for documents that declare validity or are superseded. */
function hitValidity(ctx: QueryContext): (docIndex: number) => { validity?: HitValidity } {
  const graph = ctx.state.validity;
  const { stale } = ctx;
  if (graph === undefined || stale === undefined) return () => ({});
  return (d) => {
    const declared = ctx.state.catalog.documents[d]!.validity;
    const supersededBy = graph.supersededBy(d);
    if (declared === undefined && supersededBy.length === 0) return {};
    const reason = stale.get(d);
    return {
      validity: {
        ...(declared?.validFrom !== undefined ? { validFrom: declared.validFrom } : {}),
        ...(declared?.validUntil !== undefined ? { validUntil: declared.validUntil } : {}),
        supersedes: declared?.supersedes ?? [],
        supersededBy,
        stale: reason !== undefined,
        ...(reason ? { reason: describeStale(reason) } : {}),
      },
    };
  };
}
