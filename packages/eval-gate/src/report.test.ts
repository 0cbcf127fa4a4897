import { describe, expect, it } from "vitest";
import type { Evalite } from "evalite";
import { evalRow, JUDGED_GRADERS, output as runOf, suite } from "./test-data/gate.js";
import { judgeMode } from "./report.js";

const output = (scores: Array<Record<string, unknown>>): Evalite.Exported.Output =>
  runOf([
    suite("Answers: RAG triad", [
      evalRow({
        input: {},
        output: {},
        scores: scores.map((metadata, i) => ({ id: i + 1, name: `s${i}`, score: 0.5, metadata, createdAt: "2026-11-29 00:00:00" })),
      }),
    ]),
  ]);

describe("judgeMode", () => {
  const graders = new Set(JUDGED_GRADERS);

  it("states how the judged graders scored, counting fallbacks; other graders and failed answers do not count", () => {
    expect(judgeMode(output([{ grader: "faithfulness", method: "heuristic", status: "scored" }]), graders)).toEqual({
      mode: "heuristic",
      llmJudge: 0,
      heuristic: 1,
      fallbacks: 0,
    });
    const mixed = output([
      { grader: "faithfulness", method: "llm-judge", status: "scored" },
      { grader: "context-relevance", method: "heuristic", status: "scored", fallbackFrom: "llm-judge" },
      { grader: "answer-relevance", method: "heuristic", status: "failed" },
      { grader: "refusal", method: "heuristic", status: "scored" },
    ]);
    expect(judgeMode(mixed, graders)).toEqual({ mode: "mixed", llmJudge: 1, heuristic: 1, fallbacks: 1 });
    expect(judgeMode(output([{ grader: "cites", method: "heuristic", status: "scored" }]), graders).mode).toBe("none");
  });

  it("counts exactly the graders the suite registers: the gate names none of its own", () => {
    const scores = output([
      { grader: "faithfulness", method: "llm-judge", status: "scored" },
      { grader: "cites", method: "heuristic", status: "scored" },
    ]);
    expect(judgeMode(scores, new Set())).toEqual({ mode: "none", llmJudge: 0, heuristic: 0, fallbacks: 0 });
    expect(judgeMode(scores, new Set(["cites"]))).toEqual({ mode: "heuristic", llmJudge: 0, heuristic: 1, fallbacks: 0 });
  });
});
