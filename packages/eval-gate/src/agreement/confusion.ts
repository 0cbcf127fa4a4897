/**
 * The confusion matrix of a judge's pass/fail against a person's, at one pass mark.
 *
 *                    judge pass   judge fail
 *   person pass         tp           fn
 *   person fail         fp           tn
 *
 * - **Input**: per item whether the person passed it and whether the judge did (the judge passes an
 *   item when its score reaches the pass mark: score ≥ mark).
 * - **Reading**: fp are failures the judge lets through (a gate on it passes what people fail);
 *   fn are good answers it fails (a gate on it fails what people pass).
 */
export interface ConfusionMatrix {
  /** Person pass, judge pass. */
  tp: number;
  /** Person pass, judge fail. */
  fn: number;
  /** Person fail, judge pass. */
  fp: number;
  /** Person fail, judge fail. */
  tn: number;
}

export function confusionMatrix(person: readonly boolean[], judge: readonly boolean[]): ConfusionMatrix {
  if (person.length !== judge.length) throw new RangeError(`the two lists must be equally long (got ${person.length} and ${judge.length})`);
  const m: ConfusionMatrix = { tp: 0, fn: 0, fp: 0, tn: 0 };
  for (let i = 0; i < person.length; i++) {
    if (person[i]) judge[i] ? m.tp++ : m.fn++;
    else judge[i] ? m.fp++ : m.tn++;
  }
  return m;
}
