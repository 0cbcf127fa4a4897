import { describe, expect, it } from "vitest";
import { outcome } from "./outcome.js";
import { answeredTurn, approvalTurn } from "../test-data/turn.js";

describe("outcome", () => {
  it("passes when the turn ended as expected, else names both outcomes", () => {
    expect(outcome.check(answeredTurn(), { kind: "outcome", is: "answered" })).toEqual({ pass: true, fact: "outcome answered" });
    expect(outcome.check(answeredTurn(), { kind: "outcome", is: "refused" })).toEqual({
      pass: false,
      fact: "outcome answered, expected refused",
    });
    expect(outcome.check(approvalTurn(), { kind: "outcome", is: "stopped-at-approval" }).pass).toBe(true);
  });
});
