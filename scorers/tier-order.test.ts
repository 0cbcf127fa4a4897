import { describe, expect, it } from "vitest";
import { presetOrderScore, presetsOrdered, tierOrderScore } from "./tier-order.js";

describe("a comparison with a variant that has no value is not scored, never ordered", () => {
  it("every preset's answer failed: not scored (failed), though three equal values would be ordered", () => {
    expect(presetOrderScore("expectations met", { slim: null, balanced: null, quality: null })).toEqual({
      score: 0,
      metadata: {
        metric: "expectations met",
        values: { slim: null, balanced: null, quality: null },
        violations: [],
        convention: "1 when quality ≥ balanced ≥ slim, else 0",
        status: "failed",
        notMeasured: ["slim", "balanced", "quality"],
        error: "not compared: no expectations met for any of slim, balanced, quality (the target or a model failed there)",
      },
    });
    // What a failed answer used to be compared as: three zeros, ordered.
    expect(presetOrderScore("expectations met", { slim: 0, balanced: 0, quality: 0 }).score).toBe(1);
  });

  it("one preset without a value: the others are not compared with a failure as if it were a 0", () => {
    // quality failed: as a 0 it would be a violation (quality < balanced), and slim's failure as a 0 would be "ordered".
    for (const values of [
      { slim: 0.5, balanced: 0.6, quality: null },
      { slim: null, balanced: 0.6, quality: 0.7 },
    ]) {
      const score = presetOrderScore("expectations met", values);
      expect(score).toMatchObject({ score: 0, metadata: { status: "failed", violations: [] } });
      expect(score.metadata.notMeasured).toEqual(Object.keys(values).filter((k) => values[k as keyof typeof values] === null));
      expect(score.metadata.error).toMatch(/^not compared: no expectations met for (quality|slim) \(the target or a model failed there\)$/);
    }
  });

  it("measured values are compared as before: ties are ordered, a drop is a named violation, NaN is a bug", () => {
    expect(presetOrderScore("expectations met", { slim: 0.4, balanced: 0.4, quality: 0.4 }).metadata.status).toBeUndefined();
    expect(tierOrderScore("nDCG@10", { fast: 0.7, balanced: 0.5, thorough: 0.5 }).metadata.violations).toEqual([
      "balanced < fast by 0.2000",
    ]);
    expect(() => presetOrderScore("x", { slim: Number.NaN, balanced: null, quality: 0 })).toThrow(RangeError);
  });

  it("the Evalite scorer says so too: its score is labeled failed, which the gate counts as not scored", async () => {
    const scorer = presetsOrdered<unknown, { "expectations met": { slim: null; balanced: null; quality: null } }, unknown>(
      "expectations met",
    );
    const result = await scorer({
      input: {},
      output: { "expectations met": { slim: null, balanced: null, quality: null } },
      expected: {},
    } as never);
    expect(result).toMatchObject({ score: 0, metadata: { status: "failed", notMeasured: ["slim", "balanced", "quality"] } });
  });
});
