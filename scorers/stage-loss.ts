/**
 * Where did each relevant document go? Follows every judged-relevant document through the
 * engine's trace — each first-stage list (bm25, vector, and their expansion variants), fusion,
 * rerank — to the final ranking, and names the stage that lost it:
 *
 * - `null`:            found (final rank ≤ k);
 * - `"not retrieved"`: in none of the first-stage lists (as deep as the trace shows them);
 * - `"fusion"`:        retrieved, but not among the candidates fusion handed to the reranker;
 * - `"rerank"`:        reranked, but not into the top k;
 * - `"cut-off"`:       a single-list mode (search, vsearch, fast) ranked it, below k.
 *
 * Trace lists are as deep as the engine call's `traceDepth`; ask for at least the fusion depth,
 * or a document ranked beyond the trace counts as not retrieved.
 */
import type { Hit, TraceItem, TraceStage } from "@hybrid-search/engine";

export interface RelevantDocPath {
  docId: string;
  grade: number;
  /** Rank per list name (`bm25`, `vector`, `bm25:expansion 1`, `fusion`, `rerank`); null when absent. */
  ranks: Record<string, number | null>;
  /** Final rank, or null when not in the returned results. */
  final: number | null;
  lostAt: null | "not retrieved" | "fusion" | "rerank" | "cut-off";
}

function listName(stage: TraceStage): string {
  const name = stage.input.name;
  return typeof name === "string" ? name : stage.stage;
}

export function relevantDocPaths(
  trace: readonly TraceStage[],
  results: readonly Pick<Hit, "docId">[],
  judgments: Readonly<Record<string, number>>,
  k: number,
  relevanceLevel = 1,
): RelevantDocPath[] {
  const lists = trace.filter((s) => Array.isArray(s.output)) as Array<TraceStage & { output: TraceItem[] }>;
  const firstStage = lists.filter((s) => s.stage === "bm25" || s.stage === "vector");
  const fusion = lists.find((s) => s.stage === "fusion");
  const rerank = lists.find((s) => s.stage === "rerank");
  const finalRank = new Map(results.map((r, i) => [r.docId, i + 1]));
  const rankIn = (s: TraceStage & { output: TraceItem[] }, docId: string): number | null =>
    s.output.find((i) => i.docId === docId)?.rank ?? null;

  return Object.entries(judgments)
    .filter(([, grade]) => grade >= relevanceLevel)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([docId, grade]) => {
      const ranks: Record<string, number | null> = {};
      for (const s of lists) ranks[listName(s)] = rankIn(s, docId);
      const final = finalRank.get(docId) ?? null;
      let lostAt: RelevantDocPath["lostAt"] = null;
      if (final === null || final > k) {
        if (!firstStage.some((s) => ranks[listName(s)] !== null)) lostAt = "not retrieved";
        else if (rerank && ranks[listName(rerank)] === null) lostAt = "fusion";
        else if (rerank) lostAt = "rerank";
        else if (fusion && ranks[listName(fusion)] === null) lostAt = "fusion";
        else lostAt = "cut-off";
      }
      return { docId, grade, ranks, final, lostAt };
    });
}

/** A short line for a table column: `de/a.md → rerank; fr/b.md → not retrieved`, or `all found`. */
export function summarizeLosses(paths: readonly RelevantDocPath[]): string {
  const lost = paths.filter((p) => p.lostAt !== null);
  if (paths.length === 0) return "no relevant documents";
  if (lost.length === 0) return "all found";
  return lost.map((p) => `${p.docId} → ${p.lostAt}`).join("; ");
}
