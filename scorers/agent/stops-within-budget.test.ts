import { describe, expect, it } from "vitest";
import { stopsWithinBudget } from "./stops-within-budget.js";
import { answeredTurn, approvalTurn } from "../test-data/turn.js";

const e = { kind: "stops-within-budget" } as const;

describe("stops-within-budget", () => {
  it("passes when the turn ended on its own within the case's budget, or its own", () => {
    expect(stopsWithinBudget.check(answeredTurn(), e)).toEqual({ pass: true, fact: "used 4100 tokens (estimate), budget 32000" });
    expect(stopsWithinBudget.check(approvalTurn(), { ...e, tokens: 1000 }).pass).toBe(true);
  });

  it("fails when a cap ended the turn, it used more, or it cannot show its usage", () => {
    expect(stopsWithinBudget.check(answeredTurn({ outcome: "step-limit", answer: "" }), e)).toEqual({
      pass: false,
      fact: "did not stop on its own (outcome step-limit)",
    });
    expect(stopsWithinBudget.check(answeredTurn({ outcome: "budget-exhausted", answer: "" }), e).pass).toBe(false);
    const model = answeredTurn({ usage: { inputTokens: 3000, outputTokens: 200, totalTokens: 3200, counted: "model" } });
    expect(stopsWithinBudget.check(model, { ...e, tokens: 3000 })).toEqual({
      pass: false,
      fact: "used 3200 tokens (as the model reported), budget 3000",
    });
    const { usage: _u, ...unreported } = answeredTurn();
    expect(stopsWithinBudget.check(unreported, e)).toEqual({ pass: false, fact: "the turn reports no token usage" });
    const { limits: _l, ...unlimited } = answeredTurn();
    expect(stopsWithinBudget.check(unlimited, e)).toEqual({
      pass: false,
      fact: "no budget: the case names none and the turn reports no limits",
    });
  });
});
