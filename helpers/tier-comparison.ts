/**
 * Runs one query at all three tiers (once per process, shared by the per-query and the aggregate
 * tier-order evals) and scores each with nDCG@10 and Recall@5. The calls queue with the file's
 * other ranking calls (`rankSerially`). Traces are not forwarded here: the per-tier Thoroughness
 * evals show them.
 */
import type { Tier } from "@hybrid-search/engine";
import { ndcgAtKScore, recallAtKScore } from "../scorers/retrieval.js";
import type { TierValues } from "../scorers/tier-order.js";
import type { RetrievalCase } from "./dataset.js";
import { evalTarget } from "./eval-index.js";
import { RESULT_DEPTH, rankSerially } from "./retrieval-task.js";

/** Latency budgets per tier (ms), cheapest tier first. */
export const TIER_BUDGET_MS = { fast: 1000, balanced: 3000, thorough: 8000 } as const satisfies TierValues;

const TIERS = Object.keys(TIER_BUDGET_MS) as Tier[];

export interface TierComparison {
  "nDCG@10": TierValues;
  "Recall@5": TierValues;
  [metric: string]: TierValues;
}

const memo = new Map<string, Promise<TierComparison>>();

export function tierComparison(c: RetrievalCase): Promise<TierComparison> {
  let p = memo.get(c.id);
  if (!p) {
    p = compare(c);
    memo.set(c.id, p);
  }
  return p;
}

async function compare(c: RetrievalCase): Promise<TierComparison> {
  const { target } = await evalTarget();
  const ndcg = {} as TierValues;
  const recall = {} as TierValues;
  for (const tier of TIERS) {
    const r = await rankSerially(target, tier, c, { limit: RESULT_DEPTH, ...(c.collection ? { collection: c.collection } : {}) });
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
