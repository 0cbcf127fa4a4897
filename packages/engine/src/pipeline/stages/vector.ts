/**
 * Vectors (retrieval/vector.ts): one ranked list per vector query, all queries embedded in one
 * call with the engine's embedder. The first list's entry holds the embedding call (and loading
 * the index's vectors, the first time); an index without vectors, or a call whose queries are all
 * empty, has one entry saying so and no lists. Also the Rocchio list of feedback (feedback.ts).
 */
import { embedderId, embedTexts } from "../../embed/embedder.js";
import type { DocCandidate } from "../../retrieval/bm25.js";
import { rocchioVector } from "../../retrieval/feedback.js";
import type { VectorIndex } from "../../retrieval/vector.js";
import { documentFilter, type QueryContext, traceItems } from "../context.js";
import { type StageReport, stage } from "../trace.js";

/** Longest text sent to an embedding model for a query; longer queries are cut (and the trace says so). */
const MAX_EMBED_QUERY_CHARS = 8000;

export interface VectorList {
  items: DocCandidate[];
  /** The query's vector; undefined for an empty query or an index without vectors. */
  vector: Float32Array | undefined;
}

/** One list per query, in order: `vector`, then `vector:expansion 1`… */
export async function vectorLists(ctx: QueryContext, queries: readonly string[], depth: number): Promise<VectorList[]> {
  const first = await firstVectorList(ctx, queries, depth);
  if (first === undefined) return queries.map(() => ({ items: [], vector: undefined }));
  const lists = [first.list];
  for (let at = 1; at < queries.length; at++)
    lists.push(laterVectorList(ctx, { index: first.index, queries, at, vector: first.vectors[at], depth }));
  return lists;
}

interface Embedded {
  index: VectorIndex;
  /** Per query: its vector, or undefined when it is empty. */
  vectors: Array<Float32Array | undefined>;
  list: VectorList;
}

const firstVectorList = stage(
  "vector",
  async (ctx: QueryContext, queries: readonly string[], depth: number): Promise<StageReport<Embedded | undefined>> => {
    const { core } = ctx;
    const index = core.index.vectors(ctx.state);
    const texts = queries.map((q) => q.slice(0, MAX_EMBED_QUERY_CHARS));
    const nonEmpty = texts.map((t) => t.trim() !== "");
    if (!index || !nonEmpty.some(Boolean)) {
      return {
        value: undefined,
        input: { queries, embedder: embedderId(core.embedder), depth },
        output: [],
        note: index ? "empty query" : "the index holds no vectors",
      };
    }
    const embedded = await embedTexts(
      core.embedder,
      texts.filter((_, i) => nonEmpty[i]),
      core.modelLimits,
    );
    let k = 0;
    const vectors = nonEmpty.map((present) => (present ? embedded[k++]! : undefined));
    const report = searchList(ctx, { index, queries, at: 0, vector: vectors[0], depth });
    return { ...report, value: { index, vectors, list: report.value } };
  },
);

const laterVectorList = stage("vector", searchList);

interface ListRequest {
  index: VectorIndex;
  queries: readonly string[];
  /** Which query's list: 0, the query itself; then the expanded ones. */
  at: number;
  /** Its vector; undefined for an empty query, whose list is empty. */
  vector: Float32Array | undefined;
  depth: number;
}

function searchList(ctx: QueryContext, { index, queries, at, vector, depth }: ListRequest): StageReport<VectorList> {
  const items = vector ? index.documents(vector, depth, ctx.state.catalog, documentFilter(ctx)) : [];
  return {
    value: { items, vector },
    input: {
      name: at === 0 ? "vector" : `vector:expansion ${at}`,
      query: queries[at],
      embedder: embedderId(ctx.core.embedder),
      dimensions: index.dimensions,
      passages: index.size,
      depth,
    },
    output: traceItems(ctx, items),
    note: queries[at]!.length > MAX_EMBED_QUERY_CHARS ? `query cut to ${MAX_EMBED_QUERY_CHARS} characters for embedding` : undefined,
  };
}

export interface RocchioRequest {
  index: VectorIndex;
  queryVector: Float32Array;
  /** The feedback documents' passage vectors the query moves towards. */
  documentVectors: Float32Array[];
  /** How far it moves (`feedbackVectorWeight`). */
  beta: number;
  depth: number;
}

/** The vector list of the Rocchio query (feedback): `vector:feedback`. */
export const rocchioList = stage("vector", (ctx: QueryContext, { index, queryVector, documentVectors, beta, depth }: RocchioRequest) => {
  const items = index.documents(rocchioVector(queryVector, documentVectors, beta), depth, ctx.state.catalog, documentFilter(ctx));
  return {
    value: items,
    input: { name: "vector:feedback", method: "Rocchio", beta, documents: documentVectors.length, depth },
    output: traceItems(ctx, items),
  };
});
