/**
 * Each agreement statistic against a hand calculation (worked in the comments), the conventions
 * of its header (undefined cases, ties), and an independent formula of the same quantity.
 */
import { describe, expect, it } from "vitest";
import { bootstrapCI } from "../stats.js";
import { auc, bestPassMark, cohenKappa, confusionMatrix, midRanks, percentAgreement, spearmanRho, weightedKappa } from "./index.js";

describe("percent agreement", () => {
  it("is the share of items in the same category; undefined without items", () => {
    expect(percentAgreement([1, 0, 1, 1], [1, 1, 1, 0])).toBe(0.5);
    expect(percentAgreement([], [])).toBeNaN();
    expect(() => percentAgreement([1], [1, 0])).toThrow(/equally long/);
  });
});

describe("Cohen's κ", () => {
  it("matches a hand calculation", () => {
    // 7 of 10 agree: p_o = 0.7. Rater a: 6 pass, 4 fail; rater b: 5 and 5.
    // p_e = 0.6·0.5 + 0.4·0.5 = 0.5; κ = (0.7 − 0.5) / (1 − 0.5) = 0.4.
    const a = [1, 1, 1, 0, 0, 0, 1, 0, 1, 1];
    const b = [1, 1, 0, 0, 0, 1, 1, 0, 1, 0];
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 12);
  });

  it("is 1 for perfect agreement, below 0 for systematic disagreement, undefined when both raters use one category", () => {
    expect(cohenKappa([0, 1, 0, 1], [0, 1, 0, 1])).toBe(1);
    expect(cohenKappa([0, 1, 0, 1], [1, 0, 1, 0])).toBe(-1);
    expect(cohenKappa([1, 1, 1], [1, 1, 1])).toBeNaN();
    expect(cohenKappa([], [])).toBeNaN();
    // One rater constant, the other not: p_e = 0.5 · 1 = 0.5, p_o = 0.5, κ = 0 (chance level).
    expect(cohenKappa([1, 1, 1, 1], [1, 0, 1, 0])).toBe(0);
  });

  it("equals the 2×2 closed form 2(tp·tn − fn·fp) / ((tp+fp)(fp+tn) + (tp+fn)(fn+tn))", () => {
    const a = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1];
    const b = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1];
    const m = confusionMatrix(
      a.map((x) => x === 1),
      b.map((x) => x === 1),
    );
    const closed = (2 * (m.tp * m.tn - m.fn * m.fp)) / ((m.tp + m.fp) * (m.fp + m.tn) + (m.tp + m.fn) * (m.fn + m.tn));
    expect(cohenKappa(a, b)).toBeCloseTo(closed, 12);
  });
});

describe("quadratic-weighted κ", () => {
  it("matches a hand calculation", () => {
    // K = 3; pairs (0,0) (1,2) (2,2) (2,1): two one-step disagreements, weight 1/4 each → Σ w·O = 0.5.
    // Marginals: rows 1,1,2; columns 1,1,2; Σ w·E = (1/16) Σ (i−j)² rᵢ cⱼ = 22/16 = 1.375.
    // κ_w = 1 − 0.5 / 1.375 = 7/11.
    expect(weightedKappa([0, 1, 2, 2], [0, 2, 2, 1], 3)).toBeCloseTo(7 / 11, 12);
  });

  it("equals Cohen's κ on two categories, and the moment form 2·cov / (var a + var b + (ā − b̄)²) on more", () => {
    const a = [1, 1, 0, 0, 1, 0, 1];
    const b = [1, 0, 0, 1, 1, 0, 1];
    expect(weightedKappa(a, b, 2)).toBeCloseTo(cohenKappa(a, b), 12);
    const x = [0, 1, 2, 3, 3, 2, 1, 0, 2, 3];
    const y = [0, 2, 2, 3, 1, 2, 0, 1, 3, 3];
    const n = x.length;
    const mx = x.reduce((s, v) => s + v, 0) / n;
    const my = y.reduce((s, v) => s + v, 0) / n;
    const cov = x.reduce((s, v, i) => s + (v - mx) * (y[i]! - my), 0) / n;
    const vx = x.reduce((s, v) => s + (v - mx) ** 2, 0) / n;
    const vy = y.reduce((s, v) => s + (v - my) ** 2, 0) / n;
    expect(weightedKappa(x, y, 4)).toBeCloseTo((2 * cov) / (vx + vy + (mx - my) ** 2), 12);
  });

  it("is undefined when both raters use one category, and refuses a category off the scale", () => {
    expect(weightedKappa([2, 2], [2, 2], 4)).toBeNaN();
    expect(() => weightedKappa([0, 4], [0, 1], 4)).toThrow(/from 0 to 3/);
    expect(() => weightedKappa([0], [0], 1)).toThrow(/≥ 2/);
  });
});

describe("Spearman's ρ", () => {
  it("matches 1 − 6Σd²/(n(n²−1)) without ties", () => {
    // d = −1, 1, −1, 1, 0: Σd² = 4; ρ = 1 − 24/120 = 0.8.
    expect(spearmanRho([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
  });

  it("gives ties their mid-rank", () => {
    expect(midRanks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    // Ranks x 1, 2.5, 2.5, 4 and y 1, 3, 2, 4: Σ dev·dev = 4.5, Σ dev² = 4.5 and 5 → ρ = 4.5 / √22.5.
    expect(spearmanRho([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
  });

  it("is undefined for a constant list or fewer than two items", () => {
    expect(spearmanRho([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(spearmanRho([1], [1])).toBeNaN();
  });
});

describe("AUC", () => {
  /** The definition itself: over every (passed, failed) pair, 1 when the passed item scores higher, ½ on a tie. */
  function pairCount(scores: number[], pass: boolean[]): number {
    let wins = 0;
    let pairs = 0;
    scores.forEach((p, i) => {
      if (!pass[i]) return;
      scores.forEach((f, k) => {
        if (pass[k]) return;
        pairs++;
        wins += p > f ? 1 : p === f ? 0.5 : 0;
      });
    });
    return wins / pairs;
  }

  it("matches a hand calculation, a tie counting half as in Mann–Whitney's U", () => {
    // Passed 0.9, 0.6, 0.4; failed 0.6, 0.2. Pairs: 0.9 beats both (2), 0.6 ties 0.6 (½) and beats 0.2 (1),
    // 0.4 loses to 0.6 and beats 0.2 (1): 4.5 of 6 = 0.75.
    expect(auc([0.9, 0.6, 0.4, 0.6, 0.2], [true, true, true, false, false])).toBeCloseTo(0.75, 12);
  });

  it("equals the pair count on random scores with many ties, is ½ for a constant score, 1 and 0 at the extremes", () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let round = 0; round < 50; round++) {
      const n = 2 + Math.floor(rand() * 40);
      const scores = Array.from({ length: n }, () => Math.round(rand() * 6) / 6);
      const pass = Array.from({ length: n }, () => rand() < 0.5);
      if (pass.every(Boolean) || !pass.some(Boolean)) continue;
      expect(auc(scores, pass)).toBeCloseTo(pairCount(scores, pass), 12);
    }
    expect(auc([1, 1, 1, 1], [true, false, true, false])).toBe(0.5);
    expect(auc([0.9, 0.8, 0.1], [true, true, false])).toBe(1);
    expect(auc([0.1, 0.8, 0.9], [true, true, false])).toBe(0);
  });

  it("is undefined when people passed or failed every item, and refuses lists of different lengths", () => {
    expect(auc([0.1, 0.9], [true, true])).toBeNaN();
    expect(auc([0.1, 0.9], [false, false])).toBeNaN();
    expect(auc([], [])).toBeNaN();
    expect(() => auc([0.1], [true, false])).toThrow(/equally long/);
  });
});

describe("confusion matrix and the best pass mark", () => {
  it("counts person × judge", () => {
    expect(confusionMatrix([true, true, false, false, true], [true, false, true, false, true])).toEqual({ tp: 2, fn: 1, fp: 1, tn: 1 });
  });

  it("picks the mark with the highest κ, then agreement, then the one nearest the current mark", () => {
    // People pass the three highest; a mark of 0.6 splits exactly as they do: κ 1.
    const scores = [0.1, 0.3, 0.6, 0.7, 0.9];
    const people = [false, false, true, true, true];
    expect(bestPassMark(scores, people, 0.5)).toEqual({ mark: 0.6, kappa: 1, agreement: 1 });
    // People all passing: a mark that fails some is chance level (κ 0), one that passes all undefined.
    expect(bestPassMark([0.2, 0.8], [true, true], 0.5)).toEqual({ mark: 0.8, kappa: 0, agreement: 0.5 });
    expect(bestPassMark([0.4, 0.4], [true, true], 0.5)).toBeNull();
  });
});

describe("bootstrap interval over cases", () => {
  it("is seeded, contains the statistic of the whole sample, and is undefined without units", () => {
    const values = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1];
    const mean = (picks: readonly number[]) => picks.reduce((s, i) => s + values[i]!, 0) / picks.length;
    const ci = bootstrapCI(values.length, mean);
    expect(bootstrapCI(values.length, mean)).toEqual(ci);
    expect(ci[0]).toBeLessThanOrEqual(0.7);
    expect(ci[1]).toBeGreaterThanOrEqual(0.7);
    expect(bootstrapCI(0, mean)).toEqual([Number.NaN, Number.NaN]);
    // A statistic undefined in most resamples has no interval.
    expect(bootstrapCI(5, () => Number.NaN)).toEqual([Number.NaN, Number.NaN]);
  });
});
