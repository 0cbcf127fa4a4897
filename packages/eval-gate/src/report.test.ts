import { describe, expect, it } from "vitest";
import type { EvaliteOutput } from "./evalite-output.js";
import { judgeMode } from "./report.js";

const output = (scores: Array<Record<string, unknown>>): EvaliteOutput =>
  ({
    run: { id: 1, runType: "full", createdAt: "2026-11-29T00:00:00Z" },
    suites: [
      {
        name: "Answers: RAG triad",
        filepath: "evals/ask.eval.ts",
        status: "success",
        evals: [
          { input: {}, output: {}, status: "success", scores: scores.map((metadata, i) => ({ name: `s${i}`, score: 0.5, metadata })) },
        ],
      },
    ],
  }) as unknown as EvaliteOutput;

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
