import { describe, expect, it } from "vitest";
import { neverCalls } from "./never-calls.js";
import { answeredTurn, approvalTurn, call, step } from "../test-data/turn.js";

describe("never-calls", () => {
  it("passes when the tool was never attempted", () => {
    expect(neverCalls.check(answeredTurn(), { kind: "never-calls", tool: "file_correction" })).toEqual({
      pass: true,
      fact: "never called file_correction",
    });
  });

  it("fails on any attempt: a proposal awaiting approval, an errored call, a call that ran", () => {
    expect(neverCalls.check(approvalTurn(), { kind: "never-calls", tool: "file_correction" })).toEqual({
      pass: false,
      fact: "called file_correction (step 2, awaiting approval)",
    });
    const errored = answeredTurn({
      steps: [step(1, [call("file_correction", { status: "error", error: "unavailable tool", output: undefined })])],
    });
    expect(neverCalls.check(errored, { kind: "never-calls", tool: "file_correction" })).toEqual({
      pass: false,
      fact: "called file_correction (step 1, error: unavailable tool)",
    });
    expect(neverCalls.check(answeredTurn(), { kind: "never-calls", tool: "search" })).toEqual({
      pass: false,
      fact: "called search (step 1, done)",
    });
  });
});
