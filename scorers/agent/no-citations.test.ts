import { describe, expect, it } from "vitest";
import { noCitations } from "./no-citations.js";
import { answeredTurn, approvalTurn, PLANS, TWO_FACTOR } from "../test-data/turn.js";

describe("no-citations", () => {
  it("passes when the answer cites nothing, else names what it cites", () => {
    expect(noCitations.check(approvalTurn(), { kind: "no-citations" })).toEqual({ pass: true, fact: "cites nothing" });
    expect(noCitations.check(answeredTurn(), { kind: "no-citations" })).toEqual({ pass: false, fact: `cites: ${PLANS}, ${TWO_FACTOR}` });
  });
});
