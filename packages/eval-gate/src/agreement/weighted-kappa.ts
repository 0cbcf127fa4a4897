/**
 * Quadratic-weighted κ (Cohen 1968, "Weighted kappa"; Fleiss & Cohen 1973): κ for an ordinal scale,
 * where a disagreement of two steps costs four times one of one step.
 *
 *   κ_w = 1 − Σᵢⱼ wᵢⱼ Oᵢⱼ / Σᵢⱼ wᵢⱼ Eᵢⱼ
 *   wᵢⱼ = (i − j)² / (K − 1)²           quadratic disagreement weight, categories 0 … K−1
 *   Oᵢⱼ = items rated i by a and j by b  observed counts
 *   Eᵢⱼ = (row i total) · (column j total) / n   counts expected by chance from the marginals
 *
 * - **Scale**: ordinal with K ≥ 2 categories 0 … K−1 (0–3 for the suite's grades: K = 4). With
 *   K = 2 it equals Cohen's κ.
 * - **Reading**: as κ; close to the intraclass correlation of the two raters (Fleiss & Cohen).
 * - **Undefined** (NaN) when Σ wᵢⱼ Eᵢⱼ = 0 — both raters used one and the same category for every
 *   item — and when there are no items.
 * - A category outside 0 … K−1 is a RangeError.
 */
import { checkPairs } from "./percent-agreement.js";

export function weightedKappa(a: readonly number[], b: readonly number[], categories: number): number {
  checkPairs(a, b);
  if (!Number.isInteger(categories) || categories < 2) throw new RangeError(`categories must be an integer ≥ 2 (got ${categories})`);
  const n = a.length;
  if (n === 0) return Number.NaN;
  const k = categories;
  const observed = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    for (const v of [x, y])
      if (!Number.isInteger(v) || v < 0 || v >= k) throw new RangeError(`a category must be an integer from 0 to ${k - 1} (got ${v})`);
    observed[x]![y]!++;
    rows[x]!++;
    cols[y]!++;
  }
  let disagreement = 0;
  let chance = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const w = (i - j) ** 2 / (k - 1) ** 2;
      disagreement += w * observed[i]![j]!;
      chance += (w * rows[i]! * cols[j]!) / n;
    }
  if (chance <= 1e-12) return Number.NaN;
  return 1 - disagreement / chance;
}
