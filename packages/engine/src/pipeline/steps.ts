/**
 * The steps tiers are composed of (tiers.ts): which queries run, which lists they make and how
 * much each weighs, what is fused and reranked. Each step calls stages (stages/), which do the
 * work and write the trace; a step only moves the flow on.
 */
import { familyWeights, type RankedList } from "../retrieval/fusion.js";
import { usedQueryText } from "../text/analyze.js";
import type { HybridConfig } from "../types.js";
import type { LexicalRequest, Step, SyncStep } from "./compose.js";
import { lexicalQuery, listDepth } from "./context.js";
import { bm25 } from "./stages/bm25.js";
import { expansion } from "./stages/expansion.js";
import { feedback } from "./stages/feedback.js";
import { fuse, fusion } from "./stages/fusion.js";
import { rerank } from "./stages/rerank.js";
import { rocchioList, vectorLists } from "./stages/vector.js";

/** BM25 alone, as deep as the results asked for: the ranking is its list. */
export const bm25Ranking: SyncStep = (ctx, flow) => ({
  ...flow,
  // The trace shows the query as given, and notes when only its first MAX_QUERY_CHARS were used.
  ranking: bm25(ctx, { name: "bm25", query: ctx.query.lexical, text: ctx.query.text, depth: ctx.options.limit }),
});

/** Vectors alone, as deep as the results asked for: the ranking is the query's list. */
export const vectorRanking: Step = async (ctx, flow) => {
  const [list] = await vectorLists(ctx, [ctx.query.used], ctx.options.limit);
  return { ...flow, ranking: list?.items ?? [] };
};

/**
 * The query expanded: each distinct lexical variant (by its MATCH expression) becomes a BM25
 * query, each distinct non-empty vector variant and the HyDE passage a vector query.
 */
export const expandQueries: Step = async (ctx, flow) => {
  const expanded = await expansion(ctx);
  const lexical: LexicalRequest[] = [...flow.lexical];
  const seenMatch = new Set(lexical.map((l) => l.query.match));
  expanded.lexicalQueries.forEach((q, i) => {
    const prepared = lexicalQuery(ctx.core, ctx.state, usedQueryText(q));
    if (seenMatch.has(prepared.match) || prepared.match === "") return;
    seenMatch.add(prepared.match);
    lexical.push({ name: `bm25:expansion ${i + 1}`, query: prepared, text: q });
  });
  const vector = [...flow.vector];
  for (const q of [...expanded.vectorQueries, ...(expanded.hyde ? [expanded.hyde] : [])]) {
    const cut = usedQueryText(q);
    if (cut.trim() !== "" && !vector.includes(cut)) vector.push(cut);
  }
  return { ...flow, lexical, vector };
};

/**
 * A BM25 list per lexical query and a vector list per vector query, each `max(candidates, limit)`
 * deep. The lists of one retriever's expanded queries together weigh `expansionWeight` times its
 * original list (`familyWeights`).
 */
export const retrieveLists: Step = async (ctx, flow) => {
  const h = ctx.core.hybrid;
  const depth = listDepth(ctx);
  const lexicalWeights = familyWeights(h.bm25Weight, flow.lexical.length - 1, h.expansionWeight);
  const lists: RankedList[] = flow.lexical.map((lq, i) => ({
    name: lq.name,
    weight: i === 0 ? lexicalWeights.original : lexicalWeights.variant,
    items: bm25(ctx, { name: lq.name, query: lq.query, text: lq.text, depth }),
  }));
  const vectors = await vectorLists(ctx, flow.vector, depth);
  const vectorWeights = familyWeights(h.vectorWeight, vectors.length - 1, h.expansionWeight);
  vectors.forEach(({ items }, i) => {
    lists.push({
      name: i === 0 ? "vector" : `vector:expansion ${i}`,
      weight: i === 0 ? vectorWeights.original : vectorWeights.variant,
      items,
    });
  });
  return { ...flow, lists, queryVector: vectors[0]?.vector };
};

/**
 * Pseudo-relevance feedback from a first-pass fusion of the lists: the RM3 query's BM25 list and
 * the Rocchio query's vector list take the original query's lists' places and weights (each
 * expanded query holds the original one). Runs when `feedbackDocs` > 0 and the query has terms.
 */
export const applyFeedback: SyncStep = (ctx, flow) => {
  const h = ctx.core.hybrid;
  if (h.feedbackDocs === 0 || ctx.query.lexical.terms.length === 0) return flow;
  const added = feedback(ctx, fuse(ctx.core, flow.lists), flow.queryVector);
  const lists = [...flow.lists];
  const depth = listDepth(ctx);
  if (added.match !== undefined) {
    const query = { ...ctx.query.lexical, match: added.match };
    lists[0] = {
      name: "bm25:feedback",
      weight: lists[0]!.weight,
      items: bm25(ctx, { name: "bm25:feedback", query, text: ctx.query.used, depth }),
    };
  }
  if (added.rocchio && flow.queryVector) {
    const vectorAt = flow.lexical.length;
    const items = rocchioList(ctx, { ...added.rocchio, queryVector: flow.queryVector, beta: h.feedbackVectorWeight, depth });
    lists[vectorAt] = { name: "vector:feedback", weight: lists[vectorAt]!.weight, items };
  }
  return { ...flow, lists };
};

/** The lists fused into one candidate list. */
export const fuseLists: SyncStep = (ctx, flow) => ({ ...flow, fused: fusion(ctx, flow.lists) });

/** The top `max(hybrid[depth], limit)` fused candidates reranked against the original query. */
export function rerankTop(depth: keyof Pick<HybridConfig, "rerankDepth" | "thoroughRerankDepth">): Step {
  return async (ctx, flow) => ({
    ...flow,
    ranking: await rerank(ctx, flow.fused, Math.max(ctx.core.hybrid[depth], ctx.options.limit)),
  });
}
