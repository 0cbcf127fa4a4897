/**
 * Hand-computed values for the measures that no trec_eval expected output covers (dcg,
 * ideal_dcg, yaap and our additions) and a few small cases of the covered ones.
 */
import { describe, expect, it } from "vitest";
import { averagePrecision, averagePrecisionCut } from "./average-precision.js";
import { judgedRanking, topicQrels } from "./judged-ranking.js";
import { ndcg, ndcgExp } from "./ndcg.js";
import { dcgAtCutoffs, ndcgCut } from "./ndcg-cut.js";
import { precision } from "./precision.js";
import { recall } from "./recall.js";
import { recipRank, recipRankCut } from "./recip-rank.js";
import { rPrecision } from "./r-precision.js";
import { success } from "./success.js";
import { yaap } from "./yaap.js";

// Ranking (rank order): a (grade 2), x (unjudged), b (0), c (3); judged but unretrieved: d (1).
const qrels = topicQrels({ a: 2, b: 0, c: 3, d: 1 });
const judged = judgedRanking({ docIds: ["a", "x", "b", "c"] }, qrels);
const L = Math.log2;

describe("hand-computed metric values", () => {
  it("P, recall, success, R-precision", () => {
    expect(precision(judged, [1, 4, 10])).toEqual([1, 2 / 4, 2 / 10]);
    expect(recall(judged, [1, 4])).toEqual([1 / 3, 2 / 3]);
    expect(success(judged, [1, 2])).toEqual([1, 1]);
    expect(rPrecision(judged)).toBe(1 / 3); // top 3 = a, x, b
  });

  it("AP, map_cut and yaap", () => {
    // relevant a (rank 1, P=1), c (rank 4, P=2/4); R = 3 (a, c, d)
    expect(averagePrecision(judged)).toBe((1 + 0.5) / 3);
    expect(averagePrecisionCut(judged, [1, 3, 4])).toEqual([1 / 3, 1 / 3, 1.5 / 3]);
    expect(yaap(judged)).toBeCloseTo(Math.log((1 + 1.5) / (1 + 3 - 1.5)), 15);
  });

  it("reciprocal rank over the whole list and at cut-offs", () => {
    const late = judgedRanking({ docIds: ["x", "b", "c"] }, qrels);
    expect(recipRank(late)).toBe(1 / 3);
    expect(recipRankCut(late, [1, 2, 3, 10])).toEqual([0, 0, 1 / 3, 1 / 3]);
  });

  it("dcg, ideal_dcg and ndcg with linear gain", () => {
    const dcg = 2 / L(2) + 3 / L(5); // a at 1, c at 4
    const idcg = 3 / L(2) + 2 / L(3) + 1 / L(4); // c, a, d
    const parts = ndcg(judged);
    expect(parts.dcg).toBeCloseTo(dcg, 15);
    expect(parts.idcg).toBeCloseTo(idcg, 15);
    expect(parts.ndcg).toBeCloseTo(dcg / idcg, 15);
    expect(ndcgCut(judged, [4])[0]).toBeCloseTo(dcg / idcg, 15);
  });

  it("exponential gain 2^grade - 1 (ndcg_exp, ndcg_exp_cut)", () => {
    const dcg = 3 / L(2) + 7 / L(5);
    const idcg = 7 / L(2) + 3 / L(3) + 1 / L(4);
    expect(ndcgExp(judged)).toBeCloseTo(dcg / idcg, 15);
    const at2 = dcgAtCutoffs(judged, [2], "exponential");
    expect(at2.dcg[0]).toBe(3);
    expect(at2.idcg[0]).toBeCloseTo(7 + 3 / L(3), 15);
    expect(ndcgCut(judged, [2], "exponential")[0]).toBeCloseTo(3 / (7 + 3 / L(3)), 15);
  });

  it("a custom gain map overrides only the grades it names", () => {
    // gains: a=2 (unnamed, linear), c=10
    const dcg = 2 / L(2) + 10 / L(5);
    const idcg = 10 / L(2) + 2 / L(3) + 1 / L(4);
    expect(ndcgCut(judged, [5], { 3: 10 })[0]).toBeCloseTo(dcg / idcg, 15);
    expect(ndcg(judged, [{ name: "3", value: 10 }]).ndcg).toBeCloseTo(dcg / idcg, 15);
  });
});
