import { describe, expect, it } from "vitest";
import { callsAnyTool } from "./calls-any-tool.js";
import { answeredTurn, call, step } from "../test-data/turn.js";

describe("calls-any-tool", () => {
  it("passes when some tool was called without an error", () => {
    expect(callsAnyTool.check(answeredTurn(), { kind: "calls-any-tool" })).toEqual({ pass: true, fact: "called search, read_document" });
  });

  it("fails on a turn that called nothing, or whose every call failed", () => {
    const answer = "From memory.";
    expect(callsAnyTool.check(answeredTurn({ steps: [step(1, [], answer)], citations: [] }), { kind: "calls-any-tool" })).toEqual({
      pass: false,
      fact: "called no tool",
    });
    const failed = answeredTurn({ steps: [step(1, [call("search", { status: "error", error: "down", output: undefined })])] });
    expect(callsAnyTool.check(failed, { kind: "calls-any-tool" })).toEqual({
      pass: false,
      fact: "no call succeeded (1 errored or awaited approval)",
    });
  });
});
