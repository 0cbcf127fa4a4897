/**
 * One retrieval call from start to end: the options checked, the index state read, the query
 * analyzed, validity applied, the mode's composition run (tiers.ts), the ranking shaped into hits.
 * `search`, `vsearch` and `query` differ only in the composition they run; `compositions` is the
 * table to take it from (the engine's own by default).
 */
import type { EngineCore } from "../core.js";
import { checkCollection, checkText, resolveSearchOptions, splitTier } from "../options/call-options.js";
import { usedQueryText } from "../text/analyze.js";
import type { QueryOptions, SearchOptions, SearchResult } from "../types.js";
import { initialFlow, type QueryFlow } from "./compose.js";
import { lexicalQuery, type QueryContext } from "./context.js";
import { shapeHits } from "./hits.js";
import { validity, validityApplies } from "./stages/validity.js";
import { COMPOSITIONS, type Compositions } from "./tiers.js";
import { now, TraceRecorder } from "./trace.js";

/** BM25 search; synchronous, as no model is involved. */
export function search(core: EngineCore, text: unknown, options: SearchOptions, compositions: Compositions = COMPOSITIONS): SearchResult {
  const ctx = openQuery(core, text, options, "search", now());
  return respond(ctx, "search", compositions.search(ctx, initialFlow(ctx)));
}

/** Vector search with the engine's embedder. */
export async function vsearch(
  core: EngineCore,
  text: unknown,
  options: SearchOptions,
  compositions: Compositions = COMPOSITIONS,
): Promise<SearchResult> {
  const ctx = openQuery(core, text, options, "vsearch", now());
  return respond(ctx, "vsearch", await compositions.vsearch(ctx, initialFlow(ctx)));
}

/** Hybrid query at a tier (default balanced). */
export async function query(
  core: EngineCore,
  text: unknown,
  options: QueryOptions,
  compositions: Compositions = COMPOSITIONS,
): Promise<SearchResult> {
  const started = now();
  const { tier, rest } = splitTier(options);
  const ctx = openQuery(core, text, rest, "query", started);
  return respond(ctx, tier, await compositions[tier](ctx, initialFlow(ctx)));
}

/** A call's context, after its options, its collection filter and its text are checked; validity applied. */
function openQuery(
  core: EngineCore,
  text: unknown,
  options: SearchOptions,
  where: "search" | "vsearch" | "query",
  started: number,
): QueryContext {
  const resolved = resolveSearchOptions(options, where);
  const state = core.index.state();
  checkCollection(state.catalog, resolved.collection);
  const given = checkText(text);
  const used = usedQueryText(given);
  const ctx: QueryContext = {
    core,
    state,
    options: resolved,
    query: { text: given, used, lexical: lexicalQuery(core, state, used) },
    stale: undefined,
    trace: new TraceRecorder(),
    started,
  };
  if (validityApplies(ctx)) ctx.stale = validity(ctx);
  return ctx;
}

function respond(ctx: QueryContext, mode: SearchResult["mode"], flow: QueryFlow): SearchResult {
  return { query: ctx.query.text, mode, results: shapeHits(ctx, flow.ranking), trace: ctx.trace.stages, elapsedMs: now() - ctx.started };
}
