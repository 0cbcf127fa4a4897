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
import { evalTarget } from "./eval-index.js";
import { expanderFailure, rank, retrievalExpected, retrievalOptions } from "./retrieval-task.js";
import type { MeasuredTarget } from "./targets/eval-target.js";

/** Latency budgets per tier (ms), cheapest tier first. */
export const TIER_BUDGET_MS = { fast: 1000, balanced: 3000, thorough: 8000 } as const satisfies Record<Tier, number>;

const TIERS = Object.keys(TIER_BUDGET_MS) as Tier[];

export interface TierComparison {
  "nDCG@10": TierValues;
  "Recall@5": TierValues;
  [metric: string]: TierValues;
}

/** A tier's value as the columns show it: 3 decimals, or why there is none. */
export function formatTierValue(value: number | null): string {
  return value === null ? "not measured" : value.toFixed(3);
}

export async function tierComparison(c: RetrievalCase, target?: MeasuredTarget): Promise<TierComparison> {
  const measured = target ?? (await evalTarget());
  const ndcg = {} as TierValues;
  const recall = {} as TierValues;
  for (const tier of TIERS) {
    const r = await rank(measured, tier, c, retrievalOptions(c));
    const expected = retrievalExpected(c);
    // A tier whose expander failed ran as another tier: no value, so the comparison is not scored.
    const measuredHere = expanderFailure(r) === null;
    ndcg[tier] = measuredHere ? ndcgAtKScore(r, expected, 10).score : null;
    recall[tier] = measuredHere ? recallAtKScore(r, expected, 5).score : null;
  }
  return { "nDCG@10": ndcg, "Recall@5": recall };
}

export async function tierMeans(cases: readonly RetrievalCase[], target?: MeasuredTarget): Promise<TierComparison & { queries: number }> {
  const all = await Promise.all(cases.map((c) => tierComparison(c, target)));
  const mean = (metric: "nDCG@10" | "Recall@5"): TierValues => {
    const out = {} as TierValues;
    // One query without a value leaves the tier's mean unmeasured, not a mean over fewer queries.
    for (const tier of TIERS) {
      const values = all.map((c) => c[metric][tier]);
      out[tier] = values.some((v) => v === null) ? null : (values as number[]).reduce((s, v) => s + v, 0) / Math.max(1, all.length);
    }
    return out;
  };
  return Object.assign({ "nDCG@10": mean("nDCG@10"), "Recall@5": mean("Recall@5") }, { queries: all.length }) as TierComparison & {
    queries: number;
  };
}
