/**
 * refusal ("Refusal"): 1 when the answer refuses exactly when the case expects it
 * (`expectedRefusal: true`: the corpus does not hold the answer), else 0. False-premise and
 * injection cases must answer. Whether it refused is the eval's recognition (scorers/refusal.ts:
 * the engine's own refusals, a structured answer's `refused`, or refusal phrases and the judge for
 * free text); metadata says who decided.
 *
 * **When to use:** on every answer: refusing what the corpus answers, or answering what it does
 * not, is the first thing to get right.
 * **When NOT to use:** as a grade of what an answer says (the other graders).
 */
import { isRefused } from "../refusal-check.js";
import { type AskScorer, defineGrader, refusalBasis, scorerFor } from "./grade.js";

export const refusalGrader = defineGrader(
  "refusal",
  {
    name: "Refusal",
    definition: "refuses exactly when the case has expectedRefusal: true",
    needs: null,
    appliesTo: () => true,
  },
  (c, result) => {
    const expected = c.expectedRefusal === true;
    return [
      isRefused(result) === expected ? 1 : 0,
      {
        expected: expected ? "refuse" : "answer",
        refused: isRefused(result),
        refusal: result.refusal ?? null,
        category: c.category,
        ...refusalBasis(result),
      },
    ];
  },
);

export const refusalScore = refusalGrader.score;

/** "Refusal": refuses exactly when the case expects it. Every case. */
export const refusal = (): AskScorer => scorerFor(refusalGrader, refusalScore);
