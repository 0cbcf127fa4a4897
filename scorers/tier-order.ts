/**
 * Do the tiers earn their cost? For one query (or for the means over all queries), checks that
 * a metric is ordered thorough ≥ balanced ≥ fast. Score 1 when it holds, 0 when it does not, with
 * the three values and each violation in metadata — reported as it is, whatever it shows.
 *
 * **When to use:** next to per-tier quality, to see whether the extra work of a tier pays.
 * **When NOT to use:** as a quality measure on its own: three equally bad tiers are "ordered".
 */
import type { Tier } from "@hybrid-search/engine";
import { createScorer } from "evalite";
import type { Evalite } from "evalite";

/** One number per tier of the engine. */
export type TierValues = Record<Tier, number>;

export interface TierOrderScore {
  score: 0 | 1;
  metadata: { metric: string; values: TierValues; violations: string[]; convention: string };
}

/** Differences smaller than this are ties (floating-point noise, not a regression). */
const EPSILON = 1e-9;

export function tierOrderScore(metric: string, values: TierValues): TierOrderScore {
  for (const [tier, v] of Object.entries(values)) {
    if (!Number.isFinite(v)) throw new RangeError(`${metric} for tier ${tier} is not a number (${v})`);
  }
  const violations: string[] = [];
  if (values.balanced + EPSILON < values.fast) violations.push(`balanced < fast by ${(values.fast - values.balanced).toFixed(4)}`);
  if (values.thorough + EPSILON < values.balanced)
    violations.push(`thorough < balanced by ${(values.balanced - values.thorough).toFixed(4)}`);
  return {
    score: violations.length === 0 ? 1 : 0,
    metadata: { metric, values, violations, convention: "1 when thorough ≥ balanced ≥ fast, else 0" },
  };
}

export function tiersOrdered<TInput, TOutput extends Record<string, TierValues>, TExpected>(
  metric: string,
): Evalite.Scorer<TInput, TOutput, TExpected> {
  return createScorer<TInput, TOutput, TExpected>({
    name: `Tiers ordered (${metric})`,
    description: `1 when ${metric} is thorough ≥ balanced ≥ fast`,
    scorer: ({ output }) => {
      const values = output[metric];
      if (!values) throw new Error(`output has no tier values for ${metric}`);
      return tierOrderScore(metric, values);
    },
  });
}
