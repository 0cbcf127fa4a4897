import { describe, expect, it } from "vitest";
import { askCase, askResult, source } from "./test-data/ask.js";
import { completenessScore } from "./completeness.js";
import { ANSWER_METRICS } from "./triad/index.js";
import { HEURISTIC_VERSION, JUDGED_GRADERS, judgeConfigHash, judgedGraderName, judgeMethods } from "./judged-graders.js";
import { mockJudge } from "./test-data/ask.js";

describe("JUDGED_GRADERS", () => {
  it("are the graders a judge grades: the triad's metrics, answer correctness and topic coverage, by the ids their scores carry", async () => {
    const c = askCase({ expectedTopics: ["recovery codes"] });
    const topics = await completenessScore(c, askResult("You get ten recovery codes [1].", [source(1, "en/a.md", "Ten recovery codes.")]));
    expect(new Set(JUDGED_GRADERS)).toEqual(new Set([...Object.keys(ANSWER_METRICS), topics.metadata.grader]));
    expect(JUDGED_GRADERS).toHaveLength(5);
    expect(judgedGraderName("answer-correctness")).toBe("Answer correctness");
    expect(judgedGraderName("topic-coverage")).toBe("Topic coverage");
  });
});

describe("what a calibration must have measured", () => {
  it("the heuristic by its version, a judge model by the hash of its prompts (which names the model and each metric's prompt version)", () => {
    expect(judgeMethods(undefined)).toEqual([{ method: "heuristic", model: null, judgeConfig: `heuristic-v${HEURISTIC_VERSION}` }]);
    const [, judged] = judgeMethods(mockJudge("{}"));
    expect(judged).toEqual({ method: "llm-judge", model: "mock/judge-1", judgeConfig: judgeConfigHash("mock/judge-1") });
    expect(judgeConfigHash("mock/judge-1")).not.toBe(judgeConfigHash("mock/judge-2"));
    // A new prompt version is a new judge: its hash differs.
    const before = judgeConfigHash("mock/judge-1");
    const judge = ANSWER_METRICS.faithfulness.judge as { version: number };
    judge.version++;
    try {
      expect(judgeConfigHash("mock/judge-1")).not.toBe(before);
    } finally {
      judge.version--;
    }
  });
});
