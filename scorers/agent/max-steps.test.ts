import { describe, expect, it } from "vitest";
import { maxSteps } from "./max-steps.js";
import { answeredTurn } from "../test-data/turn.js";

describe("max-steps", () => {
  it("passes within the steps, else names how many it took", () => {
    expect(maxSteps.check(answeredTurn(), { kind: "max-steps", steps: 4 })).toEqual({ pass: true, fact: "took 4 of at most 4 steps" });
    expect(maxSteps.check(answeredTurn(), { kind: "max-steps", steps: 3 })).toEqual({
      pass: false,
      fact: "took 4 steps, at most 3 expected",
    });
  });
});
