/**
 * The pass mark at which a judge's pass/fail agrees best with people's.
 *
 * - **Candidates**: every distinct score the judge gave (the judge passes an item when score ≥
 *   mark); a mark between two observed scores splits the items exactly as the higher of the two.
 * - **Best**: the highest Cohen's κ of judge pass/fail against the people's pass/fail (κ, not plain
 *   agreement: with most items failing, a mark that fails everything agrees often and means
 *   nothing); a tie goes to the higher percent agreement, then to the mark nearest `current`, then
 *   to the lower mark.
 * - **Undefined** (null) when κ is undefined at every candidate (the people all on one side and
 *   every score equal) or there are no items. With the people all on one side, κ is at most 0 at
 *   any mark: no pass mark can be chosen from such labels, which the κ of 0 says.
 */
import { cohenKappa } from "./cohen-kappa.js";
import { percentAgreement } from "./percent-agreement.js";

export interface PassMarkFit {
  mark: number;
  kappa: number;
  agreement: number;
}

export function bestPassMark(scores: readonly number[], personPass: readonly boolean[], current: number): PassMarkFit | null {
  if (scores.length !== personPass.length)
    throw new RangeError(`the two lists must be equally long (got ${scores.length} and ${personPass.length})`);
  const person = personPass.map((p) => (p ? 1 : 0));
  let best: PassMarkFit | null = null;
  for (const mark of [...new Set(scores)].sort((x, y) => x - y)) {
    const judge = scores.map((s) => (s >= mark ? 1 : 0));
    const kappa = cohenKappa(person, judge);
    if (Number.isNaN(kappa)) continue;
    const fit = { mark, kappa, agreement: percentAgreement(person, judge) };
    if (best === null || better(fit, best, current)) best = fit;
  }
  return best;
}

function better(a: PassMarkFit, b: PassMarkFit, current: number): boolean {
  const eps = 1e-12;
  if (Math.abs(a.kappa - b.kappa) > eps) return a.kappa > b.kappa;
  if (Math.abs(a.agreement - b.agreement) > eps) return a.agreement > b.agreement;
  const da = Math.abs(a.mark - current);
  const db = Math.abs(b.mark - current);
  if (Math.abs(da - db) > eps) return da < db;
  return a.mark < b.mark;
}
