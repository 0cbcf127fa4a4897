/**
 * Percent agreement: the share of items two raters put in the same category.
 *
 *   p_o = (1/n) · Σᵢ [aᵢ = bᵢ]
 *
 * - **Input**: two equally long lists of categories (integers), item i rated aᵢ by one rater and bᵢ
 *   by the other. A binary scale is 0 = fail, 1 = pass; an ordinal scale 0 … K−1.
 * - **No items**: NaN (there is nothing to agree on; callers report it as "undefined", never 0 or 1).
 * - **When to use**: as the plain-words figure beside κ. **When NOT to use**: alone — with 90 % of
 *   items in one category, a rater that always says that category agrees 90 % of the time; κ
 *   corrects for that.
 */
export function percentAgreement(a: readonly number[], b: readonly number[]): number {
  checkPairs(a, b);
  if (a.length === 0) return Number.NaN;
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return same / a.length;
}

/** Two raters' lists must pair up item by item. */
export function checkPairs(a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length) throw new RangeError(`the two raters' lists must be equally long (got ${a.length} and ${b.length})`);
}
