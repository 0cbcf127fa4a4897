/**
 * A query's context: the engine's core, the index state the query reads from start to end, the
 * call's resolved options, the query as given and as analyzed, and the trace recorder. Every
 * stage is a function of it; `openQuery` (run.ts) makes one per call.
 */
import type { EngineCore } from "../core.js";
import type { SearchOptionsResolved } from "../options/call-options.js";
import { type DocCandidate, type LexicalQuery, prepareLexicalQuery } from "../retrieval/bm25.js";
import type { StaleReason } from "../retrieval/validity.js";
import type { IndexState } from "../store/index-state.js";
import type { TraceItem } from "../types.js";
import type { TraceRecorder, Traced } from "./trace.js";

export interface QueryContext extends Traced {
  readonly core: EngineCore;
  readonly state: IndexState;
  readonly options: SearchOptionsResolved;
  readonly query: {
    /** As the caller gave it. */
    readonly text: string;
    /** What analysis, expansion, embedding and reranking see: at most MAX_QUERY_CHARS, a bounded cost. */
    readonly used: string;
    /** The BM25 side of `used`. */
    readonly lexical: LexicalQuery;
  };
  /** Documents stale at the call's instant, once the validity stage ran (undefined: the index declares no validity). */
  stale: Map<number, StaleReason> | undefined;
  readonly trace: TraceRecorder;
  /** When the call began (epoch ms). */
  readonly started: number;
}

/** The BM25 side of a query; a compound the index holds in no form falls back to its parts. */
export function lexicalQuery(core: EngineCore, state: IndexState, text: string): LexicalQuery {
  return prepareLexicalQuery(text, state.catalog.languages, core.analyzer, (alternative) => state.vocabulary.occurs(alternative));
}

/**
 * The filter every list applies: the collection and language filters, and the documents stale at
 * the call's instant unless `includeSuperseded` keeps them. Undefined when nothing is filtered, so
 * an index without validity ranks exactly as before.
 */
export function documentFilter(ctx: QueryContext): ((docIndex: number) => boolean) | undefined {
  const scope = ctx.state.catalog.filter(ctx.options);
  const { stale } = ctx;
  if (stale === undefined || stale.size === 0 || ctx.options.includeSuperseded) return scope;
  return (i) => !stale.has(i) && (scope === undefined || scope(i));
}

/** How deep every list of a fused tier is: as deep as the results asked for, so fusion can fill `limit`. */
export function listDepth(ctx: QueryContext): number {
  return Math.max(ctx.core.hybrid.candidates, ctx.options.limit);
}

/** A ranked list as the trace keeps it: the first `traceDepth` items. */
export function traceItems(ctx: QueryContext, items: readonly DocCandidate[]): TraceItem[] {
  const { catalog } = ctx.state;
  return items
    .slice(0, ctx.options.traceDepth)
    .map((c, i) => ({ docId: c.docId, passageId: catalog.passageId(c.passageRowId), score: c.score, rank: i + 1 }));
}
