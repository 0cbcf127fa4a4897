import { describe, expect, it } from "vitest";
import {
  bootstrapMeanCI,
  holm,
  MDE_Z,
  mean,
  minimumDetectableEffect,
  pairedRandomizationTest,
  percentile,
  requiredPairs,
  sd,
} from "./stats.js";

describe("descriptive statistics", () => {
  it("mean, sample SD and nearest-rank percentiles", () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(Number.isNaN(mean([]))).toBe(true);
    expect(sd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138, 3);
    expect(sd([5])).toBe(0);
    const xs = [15, 20, 35, 40, 50];
    expect(percentile(xs, 5)).toBe(15);
    expect(percentile(xs, 30)).toBe(20);
    expect(percentile(xs, 40)).toBe(20);
    expect(percentile(xs, 50)).toBe(35);
    expect(percentile(xs, 95)).toBe(50);
    expect(percentile([3, 1, 2], 100)).toBe(3);
  });
});

describe("paired randomization test", () => {
  it("identical runs: every difference is a tie, p = 1", () => {
    expect(pairedRandomizationTest([0, 0, 0, 0])).toEqual({ p: 1, method: "exact", assignments: 1 });
    expect(pairedRandomizationTest([])).toMatchObject({ p: 1 });
  });

  it("enumerates every sign assignment of few non-zero differences (ties are left out)", () => {
    // 3 equal positive differences: only all-plus and all-minus reach |Σ| = 3 → 2/8.
    expect(pairedRandomizationTest([0.1, 0.1, 0.1, 0, 0])).toEqual({ p: 0.25, method: "exact", assignments: 8 });
    // Opposite differences cancel: every assignment is at least as extreme as Σ = 0.
    expect(pairedRandomizationTest([0.5, -0.5]).p).toBe(1);
    // {+1, +1, −1}: Σ = 1; |Σ| ≥ 1 for all 8 assignments (sums are ±1 or ±3).
    expect(pairedRandomizationTest([1, 1, -1]).p).toBe(1);
    // 10 losses, no wins: 2 / 1024.
    expect(pairedRandomizationTest(Array(10).fill(-0.2)).p).toBeCloseTo(2 / 1024, 12);
  });

  it("a clear shift over many cases gets a small p, from a seeded Monte Carlo run", () => {
    const diffs = Array.from({ length: 40 }, (_, i) => 0.1 + (i % 5) * 0.01);
    const r = pairedRandomizationTest(diffs, 2000);
    expect(r.method).toBe("monte-carlo");
    expect(r.p).toBeCloseTo(1 / 2001, 10);
    // Noise around zero does not.
    const noise = Array.from({ length: 40 }, (_, i) => (i % 2 ? 0.1 : -0.1) + (i % 7) * 0.001);
    expect(pairedRandomizationTest(noise, 2000).p).toBeGreaterThan(0.3);
    // Reproducible.
    expect(pairedRandomizationTest(noise, 2000)).toEqual(pairedRandomizationTest(noise, 2000));
  });
});

describe("bootstrap CI, MDE, Holm", () => {
  it("bootstrap interval: constant differences give a point, a shift excludes 0, reproducible", () => {
    expect(bootstrapMeanCI([0.25, 0.25, 0.25])).toEqual([0.25, 0.25]);
    const diffs = Array.from({ length: 30 }, (_, i) => 0.1 + ((i * 7) % 11) / 100);
    const [lo, hi] = bootstrapMeanCI(diffs, 4000);
    expect(lo).toBeGreaterThan(0);
    expect(lo).toBeLessThan(mean(diffs));
    expect(hi).toBeGreaterThan(mean(diffs));
    expect(bootstrapMeanCI(diffs, 4000)).toEqual([lo, hi]);
  });

  it("minimum detectable effect = 2.8016 · s_d / √n, and the cases it takes to detect an effect", () => {
    expect(MDE_Z).toBeCloseTo(2.8016, 4);
    expect(minimumDetectableEffect(1, 4)).toBeCloseTo(1.4008, 4);
    expect(minimumDetectableEffect(0.2, 100)).toBeCloseTo(0.056, 3);
    expect(requiredPairs(0.2, 0.056)).toBe(101); // ⌈(2.8016·0.2/0.056)²⌉ = ⌈100.1⌉
    expect(requiredPairs(0.2, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it("Holm's step-down adjustment", () => {
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([0.001, 0.2])).toEqual([0.002, 0.2]);
    expect(holm([])).toEqual([]);
  });
});
