/**
 * Tiers are compositions of steps. A step takes the query's context and what the steps before it
 * produced (a `QueryFlow`) and returns the next flow, calling stages (stages/) on the way;
 * `compose(...steps)` is itself a step, so a tier can extend another one. A composition of
 * synchronous steps stays synchronous: `search` returns hits, not a promise.
 */
import type { DocCandidate, LexicalQuery } from "../retrieval/bm25.js";
import type { FusedCandidate, RankedList } from "../retrieval/fusion.js";
import type { QueryContext } from "./context.js";

/** A lexical query to run with BM25. */
export interface LexicalRequest {
  /** The list's name (`bm25`, `bm25:expansion 1`…). */
  name: string;
  query: LexicalQuery;
  /** The text the trace shows. */
  text: string;
}

/** What a query's steps have produced so far. */
export interface QueryFlow {
  /** BM25 queries: the query itself first, then any distinct expanded ones. */
  readonly lexical: readonly LexicalRequest[];
  /** Vector queries: the query itself first, then any distinct expanded ones (and a HyDE passage). */
  readonly vector: readonly string[];
  /** The ranked lists retrieved, each with its fusion weight: BM25's in `lexical` order, then the vectors'. */
  readonly lists: readonly RankedList[];
  /** The query's own vector, once the vector lists ran (Rocchio feedback starts from it). */
  readonly queryVector: Float32Array | undefined;
  /** The fused candidates, once fusion ran. */
  readonly fused: readonly FusedCandidate[];
  /** The ranking the response is made of: the last step's. */
  readonly ranking: readonly DocCandidate[];
}

export type SyncStep = (ctx: QueryContext, flow: QueryFlow) => QueryFlow;
export type Step = (ctx: QueryContext, flow: QueryFlow) => QueryFlow | Promise<QueryFlow>;

/** The flow before any step: the query itself as the only BM25 and vector query. */
export function initialFlow(ctx: QueryContext): QueryFlow {
  return {
    lexical: [{ name: "bm25", query: ctx.query.lexical, text: ctx.query.used }],
    vector: [ctx.query.used],
    lists: [],
    queryVector: undefined,
    fused: [],
    ranking: [],
  };
}

/** The steps run one after the other, each given the flow the one before returned. */
export function compose(...steps: SyncStep[]): SyncStep;
export function compose(...steps: Step[]): Step;
export function compose(...steps: Step[]): Step {
  return (ctx, flow) => {
    let current: QueryFlow | Promise<QueryFlow> = flow;
    for (const step of steps) current = current instanceof Promise ? current.then((f) => step(ctx, f)) : step(ctx, current);
    return current;
  };
}
