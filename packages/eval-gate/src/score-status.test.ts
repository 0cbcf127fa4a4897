import { describe, expect, it } from "vitest";
import { countScore, erroredScore, isScored } from "./score-status.js";

describe("counting a score (honest numbers)", () => {
  it("a score that failed, was skipped or had no judge is 0 and not scored — never 1", () => {
    for (const status of ["failed", "skipped", "no-judge", "judge-timeout"]) {
      expect(countScore({ name: "Faithfulness", score: 1, metadata: { status, method: "llm-judge" } })).toEqual({
        metric: "Faithfulness",
        value: 0,
        status,
        method: "llm-judge",
      });
    }
  });

  it("a number in [0, 1] without a contrary status is scored, its method kept", () => {
    expect(countScore({ name: "m", score: 0.7, metadata: { status: "scored", method: "heuristic" } })).toEqual({
      metric: "m",
      value: 0.7,
      status: "scored",
      method: "heuristic",
    });
    expect(countScore({ name: "m", score: 0.7 })).toEqual({ metric: "m", value: 0.7, status: "scored" });
    expect(countScore({ name: "m", score: 0, metadata: { status: "ok" } })).toEqual({ metric: "m", value: 0, status: "scored" });
    expect(countScore({ name: "m", score: 1, metadata: "not an object" })).toEqual({ metric: "m", value: 1, status: "scored" });
    expect(countScore({ name: "m", score: 1, metadata: { method: 3 } })).toEqual({ metric: "m", value: 1, status: "scored" });
  });

  it("a value that is not a number in [0, 1], or a status that is not a word, is invalid, counted 0", () => {
    for (const score of [Number.NaN, Number.POSITIVE_INFINITY, 1.5, -0.1, 5])
      expect(countScore({ name: "m", score })).toMatchObject({ value: 0, status: "invalid" });
    // JSON has no NaN: a stored NaN comes back as null.
    expect(countScore(JSON.parse('{ "name": "m", "score": null }'))).toMatchObject({ value: 0, status: "invalid" });
    expect(countScore({ name: "m", score: 1, metadata: { status: 7 } })).toMatchObject({ value: 0, status: "invalid" });
    expect(countScore({ name: "m", score: 1, metadata: { status: "" } })).toMatchObject({ value: 0, status: "invalid" });
  });

  it("a task that threw gives an errored placeholder, and only scored scores count as scored", () => {
    expect(erroredScore("nDCG@10")).toEqual({ metric: "nDCG@10", value: 0, status: "errored" });
    expect(isScored(erroredScore("m"))).toBe(false);
    expect(isScored(countScore({ name: "m", score: 0.2 }))).toBe(true);
    expect(isScored(countScore({ name: "m", score: 1, metadata: { status: "no-judge" } }))).toBe(false);
  });
});
