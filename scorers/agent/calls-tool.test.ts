import { describe, expect, it } from "vitest";
import { callsTool } from "./calls-tool.js";
import { answeredTurn, call, PLANS, readCall, step } from "../test-data/turn.js";

describe("calls-tool", () => {
  it("counts the calls that did not error", () => {
    expect(callsTool.check(answeredTurn(), { kind: "calls-tool", tool: "read_document", atLeast: 2 })).toEqual({
      pass: true,
      fact: "called read_document 2 times",
    });
    expect(callsTool.check(answeredTurn(), { kind: "calls-tool", tool: "search" }).pass).toBe(true);
  });

  it("names a tool never called, and too few calls that did not error", () => {
    expect(callsTool.check(answeredTurn(), { kind: "calls-tool", tool: "catalog" })).toEqual({ pass: false, fact: "did not call catalog" });
    const oneFailed = answeredTurn({
      steps: [step(1, [readCall(PLANS, "x"), call("read_document", { status: "error", error: "no document", output: undefined })])],
    });
    expect(callsTool.check(oneFailed, { kind: "calls-tool", tool: "read_document", atLeast: 2 })).toEqual({
      pass: false,
      fact: "called read_document 1 time without error, at least 2 expected (1 more call errored or awaited approval)",
    });
    const onlyErrors = answeredTurn({ steps: [step(1, [call("catalog", { status: "error", error: "boom", output: undefined })])] });
    expect(callsTool.check(onlyErrors, { kind: "calls-tool", tool: "catalog" })).toEqual({
      pass: false,
      fact: "did not call catalog (1 more call errored or awaited approval)",
    });
  });
});
