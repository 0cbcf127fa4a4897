import { describe, expect, it } from "vitest";
import { EXPECTATION_KINDS, EXPECTATIONS } from "./index.js";
import { answeredTurn, PLANS, TWO_FACTOR, turnCase } from "../test-data/turn.js";
import { expectationsMetScorer, turnVerdict, turnVerdictScorer } from "./turn-verdict.js";

const agent = "agent: offline policy";

describe("a turn case's verdict", () => {
  it("has one grader per kind, in report order", () => {
    expect(Object.keys(EXPECTATIONS)).toEqual([...EXPECTATION_KINDS]);
    for (const kind of EXPECTATION_KINDS) expect(EXPECTATIONS[kind].kind).toBe(kind);
  });

  it("passes when every expectation holds, and lists each failed fact otherwise", () => {
    const c = turnCase({
      expect: [
        { kind: "outcome", is: "answered" },
        { kind: "calls-tool", tool: "read_document", atLeast: 2 },
        { kind: "cites", doc: PLANS },
        { kind: "cites", doc: TWO_FACTOR },
        { kind: "never-calls", tool: "file_correction" },
      ],
    });
    const output = { turn: answeredTurn(), agent, elapsedMs: 12, timedBy: "target" as const };
    expect(turnVerdict(c, output)).toMatchObject({ pass: true, failed: [] });
    const failing = turnCase({ expect: [...c.expect, { kind: "calls-tool", tool: "catalog" }, { kind: "max-steps", steps: 2 }] });
    expect(turnVerdict(failing, output)).toMatchObject({
      pass: false,
      failed: ["did not call catalog", "took 4 steps, at most 2 expected"],
    });
  });

  it("fails a turn that could not be obtained, or ended in error, with the reason: a fault, not a score", async () => {
    const c = turnCase({ expect: [{ kind: "answer-excludes", text: "free" }] });
    const missing = { turn: null, error: "POST /turn: HTTP 500: INTERNAL boom (3 attempts)", agent, elapsedMs: null, timedBy: null };
    expect(turnVerdict(c, missing)).toEqual({
      pass: false,
      failed: ["the turn could not be obtained: POST /turn: HTTP 500: INTERNAL boom (3 attempts)"],
      checks: [],
      fault: "the turn could not be obtained: POST /turn: HTTP 500: INTERNAL boom (3 attempts)",
    });
    const broken = {
      turn: answeredTurn({ outcome: "error", answer: "", error: "agent mock/m failed: 503" }),
      agent,
      elapsedMs: 3,
      timedBy: "target" as const,
    };
    expect(turnVerdict(c, broken).failed).toEqual(["the turn failed: agent mock/m failed: 503"]);
    const verdict = await turnVerdictScorer()({ input: c, output: broken, expected: undefined });
    expect(verdict).toMatchObject({
      score: 0,
      metadata: { status: "failed", verdict: { pass: false }, error: expect.stringContaining("503") },
    });
    const met = await expectationsMetScorer()({ input: c, output: broken, expected: undefined });
    expect(met).toMatchObject({ score: 0, metadata: { status: "failed" } });
  });

  it("scores 1 or 0 with the verdict in metadata, and the share of expectations met", async () => {
    const c = turnCase({
      expect: [
        { kind: "outcome", is: "answered" },
        { kind: "calls-tool", tool: "catalog" },
      ],
    });
    const output = { turn: answeredTurn(), agent, elapsedMs: 12, timedBy: "target" as const };
    const verdict = await turnVerdictScorer()({ input: c, output, expected: undefined });
    expect(verdict).toMatchObject({
      score: 0,
      metadata: {
        grader: "turn-verdict",
        method: "deterministic",
        status: "scored",
        agent,
        verdict: { pass: false, failed: ["did not call catalog"] },
      },
    });
    expect(await expectationsMetScorer()({ input: c, output, expected: undefined })).toMatchObject({ score: 0.5 });
  });
});
