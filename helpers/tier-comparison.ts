/**
 * One query at all three tiers, scored with nDCG@10 and Recall@5, for the per-query and the
 * aggregate tier-order evals. The rankings are the per-tier Thoroughness evals' own (same case,
 * same options, `rank`: computed once per run), so these evals add no engine call of their own.
 * Traces are not forwarded here: the per-tier Thoroughness evals show them.
 */
import type { Tier } from "@hybrid-search/engine";
import { ndcgAtKScore, recallAtKScore } from "../scorers/retrieval.js";
import type { TierValues } from "../scorers/tier-order.js";
import type { RetrievalCase } from "./dataset.js";
import { evalIndex } from "./eval-index.js";
import { rank, retrievalOptions } from "./retrieval-task.js";

/** Latency budgets per tier (ms), cheapest tier first. */
export const TIER_BUDGET_MS = { fast: 1000, balanced: 3000, thorough: 8000 } as const satisfies TierValues;

const TIERS = Object.keys(TIER_BUDGET_MS) as Tier[];

export interface TierComparison {
  "nDCG@10": TierValues;
  "Recall@5": TierValues;
  [metric: string]: TierValues;
}

export async function tierComparison(c: RetrievalCase): Promise<TierComparison> {
  const index = await evalIndex();
  const ndcg = {} as TierValues;
  const recall = {} as TierValues;
  for (const tier of TIERS) {
    const r = await rank(index, tier, c.query, retrievalOptions(c));
    const expected = { judgments: c.judgments };
    ndcg[tier] = ndcgAtKScore(r, expected, 10).score;
    recall[tier] = recallAtKScore(r, expected, 5).score;
  }
  return { "nDCG@10": ndcg, "Recall@5": recall };
}

export async function tierMeans(cases: readonly RetrievalCase[]): Promise<TierComparison & { queries: number }> {
  const all = await Promise.all(cases.map(tierComparison));
  const mean = (metric: "nDCG@10" | "Recall@5"): TierValues => {
    const out = {} as TierValues;
    for (const tier of TIERS) out[tier] = all.reduce((s, c) => s + c[metric][tier], 0) / Math.max(1, all.length);
    return out;
  };
  return Object.assign({ "nDCG@10": mean("nDCG@10"), "Recall@5": mean("Recall@5") }, { queries: all.length }) as TierComparison & {
    queries: number;
  };
}
