/**
 * What the agent eval shows of a turn: one trace entry per tool call (its tool, input, status,
 * output or error, its duration as its span) and one for the answer; the tools in order for the
 * column; who drove the turn.
 */
import { describe, expect, it } from "vitest";
import { answeredTurn, approvalTurn, call, step } from "../scorers/test-data/turn.js";
import { agentLabel, toolsInOrder, turnTraceEntries } from "./agent-task.js";

describe("a turn in the Evalite UI", () => {
  it("is one trace entry per tool call and one for the answer, each led by its step and tool", () => {
    const turn = answeredTurn();
    turn.steps[0]!.start = 1000;
    const entries = turnTraceEntries(turn, 5000);
    expect(entries.map((e) => (e.input as { stage: string }).stage)).toEqual([
      "step 1: search",
      "step 2: read_document",
      "step 3: read_document",
      "step 4: answer",
    ]);
    expect(entries[0]).toMatchObject({ start: 1000, end: 1001, input: { status: "done", needsApproval: false, ms: 1 } });
    expect(String((entries[0]!.input as Record<string, unknown>).input)).toContain("family plan price");
    expect(entries[0]!.output).toMatch(/^\*\*results\*\*\n\n\| document +\| title +\| snippet +\|/);
    expect(entries[1]).toMatchObject({ start: 5000 });
    expect(entries[3]!.output).toBe(turn.answer);
  });

  it("says what became of a call that errored or awaits approval", () => {
    const turn = answeredTurn({ steps: [step(1, [call("read_document", { status: "error", error: "no document", output: undefined })])] });
    expect(turnTraceEntries(turn, 0)[0]!.output).toBe("**error**: no document");
    expect(turnTraceEntries(approvalTurn(), 0)[1]!.output).toBe("awaiting approval: not run");
  });

  it("lists the tools in order, marking errors and proposals; names who drove the turn", () => {
    expect(toolsInOrder(answeredTurn())).toBe("1 search → 2 read_document → 3 read_document");
    expect(toolsInOrder(approvalTurn())).toBe("1 search → 2 file_correction ⏸");
    expect(toolsInOrder(null)).toBe("(no turn)");
    const suite = { label: "in-process engine, offline models" };
    expect(agentLabel({ agent: "offline/agent-policy-v1" }, suite, true)).toBe("agent: offline policy");
    expect(agentLabel({ agent: "google/gemini-2.5-flash" }, suite, true)).toBe("agent: google/gemini-2.5-flash");
    expect(agentLabel(null, { label: "http:staging" }, false)).toBe("agent: not reported (http:staging)");
    expect(agentLabel({ agent: "offline/agent-policy-v1" }, { label: "run:nightly" }, false)).toBe("agent: offline policy (run:nightly)");
  });
});
