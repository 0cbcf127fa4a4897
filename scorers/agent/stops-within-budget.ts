/**
 * stops-within-budget: the turn ended on its own — answered, refused or stopped at approval, not
 * cut by the step cap or the token budget — and used at most `tokens` (default: the budget the
 * turn ran under). A turn that reports no usage, or neither the case nor the turn names a budget,
 * cannot show it: that fails, saying so. Fails as `did not stop on its own (outcome step-limit)`,
 * `used 40112 tokens (estimate), budget 32000`, `the turn reports no token usage`.
 *
 * **When to use:** every case whose question should be answered in a bounded number of tokens.
 * **When NOT to use:** to compare costs between models (the usage is in each case's output).
 */
import { defineExpectation } from "./expectation.js";

export const stopsWithinBudget = defineExpectation(
  "stops-within-budget",
  "the turn ended on its own (not at the step cap or the budget) within the token budget",
  (turn, e) => {
    if (turn.outcome === "step-limit" || turn.outcome === "budget-exhausted")
      return { pass: false, fact: `did not stop on its own (outcome ${turn.outcome})` };
    if (!turn.usage) return { pass: false, fact: "the turn reports no token usage" };
    const budget = e.tokens ?? turn.limits?.tokenBudget;
    if (budget === undefined) return { pass: false, fact: "no budget: the case names none and the turn reports no limits" };
    const used = `${turn.usage.totalTokens} tokens (${turn.usage.counted === "estimate" ? "estimate" : "as the model reported"})`;
    return turn.usage.totalTokens <= budget
      ? { pass: true, fact: `used ${used}, budget ${budget}` }
      : { pass: false, fact: `used ${used}, budget ${budget}` };
  },
);
