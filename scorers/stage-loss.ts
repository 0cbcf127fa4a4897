/**
 * Where did each relevant document go? Follows every judged-relevant document through the
 * engine's trace — each first-stage list (bm25, vector, and their expansion and feedback
 * variants), fusion, rerank — to the final ranking, and names the stage whose cut-off or
 * reordering removed it from the final top k:
 *
 * - `null`:            found (final rank ≤ k);
 * - `"not retrieved"`: in none of the first-stage lists (as deep as the trace shows them):
 *                      "not in bm25 top 50, vector top 50";
 * - the list's name (`"bm25"`, `"vector"`): a single-list mode (search, vsearch, fast) ranked it
 *                      below k: "bm25 rank 14 > 10";
 * - `"fusion"`:        fusion ranked it below k and nothing later brought it back (with a
 *                      reranker: it was not among the candidates, or it was below k before the
 *                      reranker and stayed there): "fusion rank 24 > 10";
 * - `"rerank"`:        fusion had it within k and the reranker moved it out: "rerank moved it 8 → 14";
 * - `"final"`:         every traced stage had it within k, yet the results do not (a trace
 *                      that does not explain the results; never expected).
 *
 * A document 24th after fusion and 24th after rerank is lost at fusion: it was never inside the
 * cut-off, so the reranker removed nothing. Trace lists are as deep as the engine call's
 * `traceDepth`; ask for at least the fusion depth, or a document ranked beyond the trace counts as
 * not retrieved.
 */
import type { Hit, TraceItem, TraceStage } from "@hybrid-search/engine";

export type LossStage = "not retrieved" | "fusion" | "rerank" | "final" | (string & {});

export interface RelevantDocPath {
  docId: string;
  grade: number;
  /** Rank per list name (`bm25`, `vector`, `bm25:expansion 1`, `fusion`, `rerank`); null when absent. */
  ranks: Record<string, number | null>;
  /** Final rank, or null when not in the returned results. */
  final: number | null;
  /** The stage that removed it from the final top k; null when found. */
  lostAt: LossStage | null;
  /** Why, with the ranks that show it (`fusion rank 24 > 10`); null when found. */
  why: string | null;
}

type RankedStage = TraceStage & { output: TraceItem[] };

function listName(stage: TraceStage): string {
  const name = stage.input.name;
  return typeof name === "string" ? name : stage.stage;
}

/** Which stage lost a document that is not in the final top k, and why. */
function loss(
  ranks: Record<string, number | null>,
  firstStage: readonly RankedStage[],
  fusion: RankedStage | undefined,
  rerank: RankedStage | undefined,
  k: number,
): { lostAt: LossStage; why: string } {
  const rankOf = (s: RankedStage): number | null => ranks[listName(s)] ?? null;
  if (!firstStage.some((s) => rankOf(s) !== null))
    return {
      lostAt: "not retrieved",
      why: `not in ${firstStage.map((s) => `${listName(s)} top ${s.output.length}`).join(", ") || "any list"}`,
    };
  if (!fusion) {
    // A single-list mode: the best list rank it reached was still below k.
    const [list, rank] = firstStage
      .map((s) => [listName(s), rankOf(s)] as const)
      .filter((e): e is readonly [string, number] => e[1] !== null)
      .sort((a, b) => a[1] - b[1])[0]!;
    return rank > k
      ? { lostAt: list, why: `${list} rank ${rank} > ${k}` }
      : { lostAt: "final", why: `${list} rank ${rank} ≤ ${k}, not in the results` };
  }
  const fused = rankOf(fusion);
  if (fused === null) return { lostAt: "fusion", why: `not in fusion top ${fusion.output.length}` };
  if (fused > k) return { lostAt: "fusion", why: `fusion rank ${fused} > ${k}` };
  if (rerank) {
    const reranked = rankOf(rerank);
    if (reranked === null || reranked > k)
      return { lostAt: "rerank", why: `rerank moved it ${fused} → ${reranked ?? `below ${rerank.output.length}`}` };
  }
  return { lostAt: "final", why: `every stage had it within ${k}, not in the results` };
}

/**
 * Of a trace, what `relevantDocPaths` reads: each ranked list's stage, name, start and end, and its
 * documents' ranks and scores (no passages, no score details, no unranked stages such as an
 * answer's generation). An answer case keeps this in its output for the diagnosis, a few kB where
 * the whole trace is tens (helpers/ask-task.ts); the whole trace is the case's trace view.
 */
export function rankedLists(trace: readonly TraceStage[]): TraceStage[] {
  return trace
    .filter((s): s is RankedStage => Array.isArray(s.output))
    .map((s) => ({
      stage: s.stage,
      input: typeof s.input.name === "string" ? { name: s.input.name } : {},
      output: s.output.map((i) => ({ docId: i.docId, rank: i.rank, score: i.score })),
      start: s.start,
      end: s.end,
    }));
}

export function relevantDocPaths(
  trace: readonly TraceStage[],
  results: readonly Pick<Hit, "docId">[],
  judgments: Readonly<Record<string, number>>,
  k: number,
  relevanceLevel = 1,
): RelevantDocPath[] {
  const lists = trace.filter((s): s is RankedStage => Array.isArray(s.output));
  const firstStage = lists.filter((s) => s.stage === "bm25" || s.stage === "vector");
  const fusion = lists.find((s) => s.stage === "fusion");
  const rerank = lists.find((s) => s.stage === "rerank");
  const finalRank = new Map(results.map((r, i) => [r.docId, i + 1]));
  const rankIn = (s: RankedStage, docId: string): number | null => s.output.find((i) => i.docId === docId)?.rank ?? null;

  return Object.entries(judgments)
    .filter(([, grade]) => grade >= relevanceLevel)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([docId, grade]) => {
      const ranks: Record<string, number | null> = {};
      for (const s of lists) ranks[listName(s)] = rankIn(s, docId);
      const final = finalRank.get(docId) ?? null;
      const found = final !== null && final <= k;
      const { lostAt, why } = found ? { lostAt: null, why: null } : loss(ranks, firstStage, fusion, rerank, k);
      return { docId, grade, ranks, final, lostAt, why };
    });
}

/** A short line for a table column: `de/a.md: fusion rank 24 > 10; fr/b.md: not in bm25 top 50, vector top 50`, or `all found`. */
export function summarizeLosses(paths: readonly RelevantDocPath[]): string {
  const lost = paths.filter((p) => p.lostAt !== null);
  if (paths.length === 0) return "no relevant documents";
  if (lost.length === 0) return "all found";
  return lost.map((p) => `${p.docId}: ${p.why}`).join("; ");
}
