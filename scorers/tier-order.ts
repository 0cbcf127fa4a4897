/**
 * Do the tiers (or the answer presets) earn their cost? For one query (or for the means over all
 * queries), checks that a metric is ordered from the cheapest variant to the dearest — thorough ≥
 * balanced ≥ fast, quality ≥ balanced ≥ slim. Score 1 when it holds, 0 when it does not, with the
 * values and each violation in metadata — reported as it is, whatever it shows.
 *
 * A variant without a value (null: its answer failed, the target or a model did not answer)
 * leaves nothing to compare: the comparison is **not scored** — score 0 with `status: "failed"`
 * and the variants it lacks named — never "ordered". Three failed answers that all score 0 are
 * not three equal answers, and one failed answer next to a real one is no measurement of either.
 *
 * **When to use:** next to per-tier (per-preset) quality, to see whether the extra work pays.
 * **When NOT to use:** as a quality measure on its own: three equally bad tiers are "ordered".
 */
import type { Preset, Tier } from "@hybrid-search/engine";
import { createScorer } from "evalite";
import type { Evalite } from "evalite";

/** One number per tier of the engine; null when the tier's ranking is not the tier's (its expander failed). */
export type TierValues = Record<Tier, number | null>;
/** One number per answer preset; null when the preset's answer failed (nothing measured). */
export type PresetValues = Record<Preset, number | null>;

export interface OrderScore<V> {
  score: 0 | 1;
  metadata: {
    metric: string;
    values: V;
    violations: string[];
    convention: string;
    /** `failed` when a variant has no value: the comparison is not scored (never a pass). */
    status?: "failed";
    /** The variants without a value, and why the comparison was not made. */
    notMeasured?: string[];
    error?: string;
  };
}
export type TierOrderScore = OrderScore<TierValues>;

/** Differences smaller than this are ties (floating-point noise, not a regression). */
const EPSILON = 1e-9;

export const TIER_ORDER: readonly Tier[] = ["fast", "balanced", "thorough"];
export const PRESET_ORDER: readonly Preset[] = ["slim", "balanced", "quality"];

/**
 * 1 when `values` never drop from one variant of `order` (cheapest first) to the next; not scored
 * (0, `status: "failed"`) when a variant of `order` has no value (null).
 */
export function orderScore<K extends string, V extends Record<K, number | null>>(
  metric: string,
  values: V,
  order: readonly K[],
): OrderScore<V> {
  for (const [variant, v] of Object.entries<number | null>(values)) {
    if (v !== null && !Number.isFinite(v)) throw new RangeError(`${metric} for ${variant} is not a number (${v})`);
  }
  const convention = `1 when ${[...order].reverse().join(" ≥ ")}, else 0`;
  const notMeasured = order.filter((variant) => values[variant] === null);
  if (notMeasured.length > 0) {
    const which = notMeasured.length === order.length ? `any of ${order.join(", ")}` : notMeasured.join(", ");
    return {
      score: 0,
      metadata: {
        metric,
        values,
        violations: [],
        convention,
        status: "failed",
        notMeasured,
        error: `not compared: no ${metric} for ${which} (the target or a model failed there)`,
      },
    };
  }
  const at = (variant: K): number => values[variant] as number;
  const violations: string[] = [];
  for (let i = 1; i < order.length; i++) {
    const [lower, higher] = [order[i - 1]!, order[i]!];
    if (at(higher) + EPSILON < at(lower)) violations.push(`${higher} < ${lower} by ${(at(lower) - at(higher)).toFixed(4)}`);
  }
  return { score: violations.length === 0 ? 1 : 0, metadata: { metric, values, violations, convention } };
}

export function tierOrderScore(metric: string, values: TierValues): TierOrderScore {
  return orderScore(metric, values, TIER_ORDER);
}

export function presetOrderScore(metric: string, values: PresetValues): OrderScore<PresetValues> {
  return orderScore(metric, values, PRESET_ORDER);
}

function orderedScorer<K extends string, TInput, TOutput extends Record<string, Record<K, number | null>>, TExpected>(
  kind: string,
  metric: string,
  order: readonly K[],
): Evalite.Scorer<TInput, TOutput, TExpected> {
  return createScorer<TInput, TOutput, TExpected>({
    name: `${kind} ordered (${metric})`,
    description: `1 when ${metric} is ${[...order].reverse().join(" ≥ ")}`,
    scorer: ({ output }) => {
      const values = output[metric];
      if (!values) throw new Error(`output has no ${kind.toLowerCase()} values for ${metric}`);
      return orderScore(metric, values, order);
    },
  });
}

export function tiersOrdered<TInput, TOutput extends Record<string, TierValues>, TExpected>(
  metric: string,
): Evalite.Scorer<TInput, TOutput, TExpected> {
  return orderedScorer<Tier, TInput, TOutput, TExpected>("Tiers", metric, TIER_ORDER);
}

export function presetsOrdered<TInput, TOutput extends Record<string, PresetValues>, TExpected>(
  metric: string,
): Evalite.Scorer<TInput, TOutput, TExpected> {
  return orderedScorer<Preset, TInput, TOutput, TExpected>("Presets", metric, PRESET_ORDER);
}
