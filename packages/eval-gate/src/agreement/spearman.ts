/**
 * Spearman's ρ (Spearman 1904): how well the order of one list follows the order of the other —
 * here a person's grade against the judge's graded score.
 *
 *   ρ = Pearson correlation of rank(x) and rank(y)
 *     = Σ (rxᵢ − r̄x)(ryᵢ − r̄y) / √(Σ (rxᵢ − r̄x)² · Σ (ryᵢ − r̄y)²)
 *
 * - **Ties** take the mean of the ranks they span (mid-ranks), so ρ is the Pearson correlation of
 *   mid-ranks; without ties it equals 1 − 6 Σ dᵢ² / (n (n² − 1)).
 * - **Reading**: 1 the same order, 0 no monotone relation, −1 reversed. It needs no pass mark: it
 *   says whether a higher score goes with a better human grade at all.
 * - **Undefined** (NaN) when either list is constant (no order to follow) or has fewer than two
 *   items.
 */
import { checkPairs } from "./percent-agreement.js";

export function spearmanRho(x: readonly number[], y: readonly number[]): number {
  checkPairs(x, y);
  if (x.length < 2) return Number.NaN;
  return pearson(midRanks(x), midRanks(y));
}

/** Ranks from 1, ties given the mean of the ranks they span. */
export function midRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((p, q) => p.v - q.v);
  const ranks = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = rank;
    start = end + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  return sxy / Math.sqrt(sxx * syy);
}
