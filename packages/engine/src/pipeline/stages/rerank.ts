/**
 * Rerank: the top `depth` fused candidates scored by the engine's reranker — any AI SDK reranking
 * model, always called through the AI SDK's `rerank` under the call policy — passage by passage;
 * a candidate's final score is `fusionWeight × fused/max(fused) + (1 − fusionWeight) × its best
 * passage's rerank score`. A reranker that fails fails the query (PROVIDER_ERROR).
 */
import { aiSdk } from "../../ai-sdk.js";
import { callWithPolicy } from "../../call-policy.js";
import { EngineError, errorLine } from "../../errors.js";
import { baseLanguage } from "../../ingest/language-path.js";
import type { DocCandidate } from "../../retrieval/bm25.js";
import type { FusedCandidate } from "../../retrieval/fusion.js";
import type { RerankDocument } from "../../retrieval/heuristic-reranker.js";
import { byScoreThenDocIdDesc } from "../../retrieval/order.js";
import { rerankScoring } from "../../store/index-state.js";
import { passageBody } from "../../store/indexer.js";
import { OFFLINE_PROVIDER, type RerankingModel } from "../../types.js";
import type { QueryContext } from "../context.js";
import { stage } from "../trace.js";

/** A reranked candidate: its final score and the two it was made of. */
export interface RerankedCandidate extends DocCandidate {
  fused: number;
  rerank: number;
}

export const rerank = stage("rerank", async (ctx: QueryContext, fused: readonly FusedCandidate[], depth: number) => {
  const { core, state } = ctx;
  const text = ctx.query.used;
  const pool = fused.slice(0, depth);
  if (pool.length === 0) {
    const none: RerankedCandidate[] = [];
    return { value: none, input: { reranker: rerankerId(core.reranker), candidates: 0 }, output: [] };
  }
  const entries: Array<{ candidate: number; passage: number }> = [];
  const documents: RerankDocument[] = [];
  pool.forEach((c, ci) => {
    const doc = state.catalog.documents[c.docIndex]!;
    for (const passage of c.passages) {
      const row = core.passages.text(passage);
      entries.push({ candidate: ci, passage });
      documents.push({
        title: doc.title,
        text: passageBody(row.heading, row.text),
        language: doc.language ? baseLanguage(doc.language) : null,
      });
    }
  });
  const scores = await rerankScores(ctx, text, documents);
  const maxFused = pool[0]!.score;
  const best = pool.map(() => ({ rerank: -Infinity, passage: -1 }));
  entries.forEach((e, i) => {
    if (scores[i]! > best[e.candidate]!.rerank) best[e.candidate] = { rerank: scores[i]!, passage: e.passage };
  });
  const w = core.hybrid.fusionWeight;
  const out: RerankedCandidate[] = pool
    .map((c, i) => {
      const normalized = maxFused > 0 ? c.score / maxFused : 0;
      const rerank = best[i]!.rerank;
      return {
        docIndex: c.docIndex,
        docId: c.docId,
        passageRowId: best[i]!.passage,
        score: w * normalized + (1 - w) * rerank,
        fused: normalized,
        rerank,
      };
    })
    .sort(byScoreThenDocIdDesc);
  return {
    value: out,
    input: {
      reranker: rerankerId(core.reranker),
      query: text,
      candidates: pool.length,
      passages: documents.length,
      // 1 − 0.7 is 0.30000000000000004 in binary floating point: written as the 0.3 it means.
      formula: `${w} × fused/max(fused) + ${Number((1 - w).toFixed(12))} × rerank`,
    },
    output: out.slice(0, ctx.options.traceDepth).map((c, i) => ({
      docId: c.docId,
      passageId: state.catalog.passageId(c.passageRowId),
      score: c.score,
      rank: i + 1,
      detail: { fused: c.fused, rerank: c.rerank },
    })),
  };
});

/**
 * One rerank score per document, in input order, from the AI SDK's `rerank` under the call
 * policy. Every reranker gets the index's statistics as `providerOptions.offline`: the heuristic
 * reranker scores with them, a model provider ignores another provider's options.
 */
async function rerankScores(ctx: QueryContext, text: string, documents: RerankDocument[]): Promise<number[]> {
  const { core } = ctx;
  try {
    const { rerank } = await aiSdk();
    const { ranking } = await callWithPolicy(core.modelLimits, (settings) =>
      rerank({
        model: core.reranker,
        documents,
        query: text,
        providerOptions: { [OFFLINE_PROVIDER]: rerankScoring(ctx.state) },
        ...settings,
      }),
    );
    const scores = new Array<number>(documents.length).fill(0);
    for (const r of ranking) scores[r.originalIndex] = r.score;
    return scores;
  } catch (error) {
    throw new EngineError("PROVIDER_ERROR", `reranking with ${rerankerId(core.reranker)} failed: ${errorLine(error)}`, {
      cause: error,
    });
  }
}

function rerankerId(model: RerankingModel): string {
  return `${model.provider}/${model.modelId}`;
}
