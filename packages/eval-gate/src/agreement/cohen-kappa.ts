/**
 * Cohen's κ (Cohen 1960, "A coefficient of agreement for nominal scales"): agreement between two
 * raters beyond what their own category frequencies would give by chance.
 *
 *   κ = (p_o − p_e) / (1 − p_e)
 *   p_o = (1/n) · Σᵢ [aᵢ = bᵢ]                 observed agreement
 *   p_e = Σ_k (n_a(k) / n) · (n_b(k) / n)       chance agreement from each rater's marginals
 *
 * - **Scale**: nominal; for pass/fail (0/1) labels. Ordinal scales use `weightedKappa`.
 * - **Reading**: 1 perfect agreement, 0 no better than chance, < 0 worse than chance. Landis & Koch
 *   (1977) name 0.41–0.60 moderate, 0.61–0.80 substantial, 0.81–1 almost perfect.
 * - **Undefined** (NaN) when p_e = 1 — both raters put every item in one and the same category —
 *   and when there are no items: agreement beyond chance cannot be measured then. Callers say
 *   "undefined", never 0 or 1.
 */
import { checkPairs } from "./percent-agreement.js";

export function cohenKappa(a: readonly number[], b: readonly number[]): number {
  checkPairs(a, b);
  const n = a.length;
  if (n === 0) return Number.NaN;
  const countA = new Map<number, number>();
  const countB = new Map<number, number>();
  let same = 0;
  for (let i = 0; i < n; i++) {
    countA.set(a[i]!, (countA.get(a[i]!) ?? 0) + 1);
    countB.set(b[i]!, (countB.get(b[i]!) ?? 0) + 1);
    if (a[i] === b[i]) same++;
  }
  const po = same / n;
  let pe = 0;
  for (const [k, na] of countA) pe += (na / n) * ((countB.get(k) ?? 0) / n);
  if (pe >= 1 - 1e-12) return Number.NaN;
  return (po - pe) / (1 - pe);
}
