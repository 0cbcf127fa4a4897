/**
 * outcome: the turn ended the way the case expects — `answered`, `refused`, `stopped-at-approval`,
 * `step-limit` or `budget-exhausted`. Fails naming both: `outcome answered, expected refused`.
 *
 * **When to use:** whenever the case knows how its turn must end: an off-corpus question is
 * refused, a question in the corpus is answered.
 * **When NOT to use:** for a stop at approval, which stops-at-approval checks with the tool named
 * and the action not run.
 */
import { defineExpectation } from "./expectation.js";

export const outcome = defineExpectation("outcome", "the turn ended as expected (its outcome)", (turn, e) =>
  turn.outcome === e.is ? { pass: true, fact: `outcome ${e.is}` } : { pass: false, fact: `outcome ${turn.outcome}, expected ${e.is}` },
);
