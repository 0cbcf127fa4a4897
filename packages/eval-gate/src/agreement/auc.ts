/**
 * AUC, the area under the ROC curve (Hanley & McNeil 1982): how well a judge's graded score
 * separates the items people pass from those they fail, at every pass mark at once.
 *
 *   AUC = P(score of a passed item > score of a failed item) + ½ · P(the two scores are equal)
 *       = (R₊ − n₊(n₊ + 1)/2) / (n₊ · n₋)        the Mann–Whitney U of the passed items, normalised
 *
 *   R₊ = the sum of the passed items' mid-ranks among all scores (ties share the mean of the ranks
 *   they span, as the Mann–Whitney U test counts a tie as half a win); n₊, n₋ the passed and
 *   failed items.
 *
 * - **Input**: per item the judge's score (any real number; higher means better) and whether the
 *   person passed it. A 0–3 grade is read as passed at the pass mark, as the confusion matrix does.
 * - **Reading**: 1 every passed item scores above every failed one; 0.5 no better than a coin (a
 *   constant score, e.g. always-pass, is exactly 0.5); below 0.5 the score ranks them the wrong
 *   way round. It needs no pass mark: it says whether any mark could separate them.
 * - **Undefined** (NaN) when the people passed every item or failed every item: there is no pair to
 *   order.
 */
import { midRanks } from "./spearman.js";

export function auc(scores: readonly number[], personPass: readonly boolean[]): number {
  if (scores.length !== personPass.length)
    throw new RangeError(`the two lists must be equally long (got ${scores.length} and ${personPass.length})`);
  const passed = personPass.filter(Boolean).length;
  const failed = personPass.length - passed;
  if (passed === 0 || failed === 0) return Number.NaN;
  const ranks = midRanks(scores);
  let rankSum = 0;
  for (let i = 0; i < ranks.length; i++) if (personPass[i]) rankSum += ranks[i]!;
  return (rankSum - (passed * (passed + 1)) / 2) / (passed * failed);
}
