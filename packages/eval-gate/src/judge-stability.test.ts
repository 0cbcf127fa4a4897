import { describe, expect, it } from "vitest";
import type { CaseRecord } from "./evalite-output.js";
import { instabilityReasons, judgeStability, stabilityLines } from "./judge-stability.js";
import { defaultPassMarks } from "./pass-marks.js";

const trial = (value: number, method = "llm-judge", grader = "faithfulness") => ({
  status: "success" as const,
  latencyMs: 1,
  scores: [{ metric: grader === "refusal" ? "Refusal" : "Faithfulness", value, status: "scored", method, grader }],
});

const record = (id: string, trials: ReturnType<typeof trial>[]): CaseRecord => ({
  suite: "Answers: RAG triad [slim]",
  eval: "Answers: RAG triad",
  id,
  label: `question ${id}`,
  variant: { dimension: "preset", value: "slim" },
  trials,
});

describe("judge stability over trials", () => {
  it("a judge that flips on alternate trials: every case flips, flip rate 1, unstable", () => {
    const records = ["a", "b", "c", "d"].map((id) => record(id, [trial(1), trial(0), trial(1), trial(0)]));
    const s = judgeStability(records, defaultPassMarks(), new Set(["faithfulness"]));
    expect(s.metrics).toHaveLength(1);
    expect(s.metrics[0]).toMatchObject({ method: "llm-judge", cases: 4, trials: 4, flipRate: 1, unstable: true });
    expect(s.metrics[0]!.meanSd).toBeCloseTo(Math.sqrt(1 / 3), 12); // sample SD of 1, 0, 1, 0
    expect(instabilityReasons(s)[0]).toMatch(
      /1 judged metric\(s\) unstable over trials, not a gate: Answers: RAG triad \[slim\] › Faithfulness \(llm-judge\) flips on 4 of 4 cases \(100 % > 10 %\)/,
    );
    expect(stabilityLines(s)).toContain("    a: 1.00 → 0.00 → 1.00 → 0.00");
  });

  it("counts flips at the pass mark only, splits methods, leaves out unjudged graders and single trials", () => {
    const records = [
      record("steady", [trial(0.6), trial(0.9)]),
      record("flips", [trial(0.4), trial(0.6)]),
      record("mixed", [trial(0.6), trial(0.1, "heuristic")]),
      record("one", [trial(0.2)]),
      { ...record("other", [trial(0, "heuristic", "refusal"), trial(1, "heuristic", "refusal")]) },
    ];
    const s = judgeStability(records, defaultPassMarks(), new Set(["faithfulness"]), 0.5);
    const judge = s.metrics.find((m) => m.method === "llm-judge")!;
    expect(judge).toMatchObject({ cases: 2, flipRate: 0.5, unstable: false });
    expect(judge.flipped.map((f) => f.id)).toEqual(["flips"]);
    expect(s.metrics.find((m) => m.method === "mixed")).toMatchObject({ cases: 1, flipRate: 1, unstable: true });
    expect(s.metrics.some((m) => m.metric === "Refusal")).toBe(false);
    expect(instabilityReasons({ maxFlipRate: 0.5, metrics: [judge] })).toEqual([]);
  });
});
