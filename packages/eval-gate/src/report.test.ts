import { describe, expect, it } from "vitest";
import type { Evalite } from "evalite";
import { evalRow, output as runOf, suite } from "./gate-test-data.js";
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
  it("states how the triad was scored, counting fallbacks; other scores and failed answers do not count", () => {
    expect(judgeMode(output([{ grader: "faithfulness", method: "heuristic", status: "scored" }]))).toEqual({
      mode: "heuristic",
      llmJudge: 0,
      heuristic: 1,
      fallbacks: 0,
    });
    expect(
      judgeMode(
        output([
          { grader: "faithfulness", method: "llm-judge", status: "scored" },
          { grader: "context-relevance", method: "heuristic", status: "scored", fallbackFrom: "llm-judge" },
          { grader: "answer-relevance", method: "heuristic", status: "failed" },
          { grader: "refusal", method: "heuristic", status: "scored" },
        ]),
      ),
    ).toEqual({ mode: "mixed", llmJudge: 1, heuristic: 1, fallbacks: 1 });
    expect(judgeMode(output([{ grader: "cites", method: "heuristic", status: "scored" }])).mode).toBe("none");
  });
});
