/**
 * Fusion (retrieval/fusion.ts, retrieval/rrf.ts): the ranked lists into one candidate list, by
 * the convex combination of min–max normalized scores (default) or reciprocal rank fusion
 * (`hybrid.fusion: "rrf"`).
 */
import type { EngineCore } from "../../core.js";
import { convexFusion, type FusedCandidate, type RankedList } from "../../retrieval/fusion.js";
import { reciprocalRankFusion } from "../../retrieval/rrf.js";
import type { QueryContext } from "../context.js";
import { stage } from "../trace.js";

/** The lists fused by the engine's method, untraced: feedback's first pass is only evidence, shown in the feedback stage. */
export function fuse(core: EngineCore, lists: readonly RankedList[]): FusedCandidate[] {
  return core.hybrid.fusion === "rrf" ? reciprocalRankFusion(lists, core.hybrid.rrfK) : convexFusion(lists);
}

export const fusion = stage("fusion", (ctx: QueryContext, lists: readonly RankedList[]) => {
  const h = ctx.core.hybrid;
  const fused = fuse(ctx.core, lists);
  return {
    value: fused,
    input: {
      method: h.fusion === "rrf" ? "rrf" : "convex combination of min-max normalized scores",
      ...(h.fusion === "rrf" ? { k: h.rrfK } : {}),
      lists: lists.map((l) => ({ name: l.name, weight: l.weight, size: l.items.length })),
    },
    output: fused.slice(0, ctx.options.traceDepth).map((c, i) => ({ docId: c.docId, score: c.score, rank: i + 1, detail: c.ranks })),
  };
});
