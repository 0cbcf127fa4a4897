import { describe, expect, it } from "vitest";
import {
  averagePrecision,
  averagePrecisionScore,
  mrr,
  ndcgAtK,
  ndcgAtKScore,
  precisionAtK,
  recallAtK,
  recallAtKScore,
  reciprocalRankScore,
  type RetrievalExpected,
  type RetrievalRanking,
} from "./retrieval.js";

const ranked = (...ids: string[]): RetrievalRanking => ({ results: ids.map((docId, i) => ({ docId, score: 10 - i })) });
// d1 grade 3, d2 grade 0, d3 grade 1, d4 grade 2 (never retrieved below)
const judged: RetrievalExpected = { judgments: { d1: 3, d2: 0, d3: 1, d4: 2 } };

async function run(scorer: ReturnType<typeof recallAtK>, output: RetrievalRanking, expected: RetrievalExpected) {
  return scorer({ input: "q", output, expected });
}

describe("retrieval scorers", () => {
  it("recall@k divides by every judged-relevant doc, retrieved or not", async () => {
    const s = await run(recallAtK(2), ranked("d1", "x", "d3"), judged);
    expect(s.score).toBeCloseTo(1 / 3, 12); // d1 in top 2; relevant = d1, d3, d4
    expect(s.metadata).toMatchObject({ k: 2, hits: 1, relevantTotal: 3, retrieved: 3 });
    expect(s.name).toBe("Recall@2");
  });

  it("precision@k divides by k even when fewer results came back", async () => {
    const s = await run(precisionAtK(10), ranked("d1", "d3"), judged);
    expect(s.score).toBeCloseTo(0.2, 12);
    expect(s.metadata).toMatchObject({ k: 10, hits: 2 });
  });

  it("nDCG@k uses linear gain by default (trec_eval ndcg_cut) and exponential on request", async () => {
    // ranking d3 (1), d1 (3): DCG = 1/log2(2) + 3/log2(3); ideal d1 (3), d4 (2)
    const out = ranked("d3", "d1");
    const linear = ndcgAtKScore(out, judged, 2);
    const dcg = 1 + 3 / Math.log2(3);
    const idcg = 3 + 2 / Math.log2(3);
    expect(linear.score).toBeCloseTo(dcg / idcg, 12);
    expect(linear.metadata).toMatchObject({ dcg, idcg, k: 2 });
    expect(linear.metadata.convention).toContain("linear gain=grade");
    const exp = ndcgAtKScore(out, judged, 2, { gain: "exponential" });
    expect(exp.score).toBeCloseTo((1 + 7 / Math.log2(3)) / (7 + 3 / Math.log2(3)), 12);
    const custom = ndcgAtKScore(out, judged, 2, { gain: { 3: 10 } });
    expect(custom.score).toBeCloseTo((1 + 10 / Math.log2(3)) / (10 + 2 / Math.log2(3)), 12);
  });

  it("MRR looks at the whole list unless k is given", () => {
    const out = ranked("x1", "x2", "x3", "d3");
    expect(reciprocalRankScore(out, judged).score).toBe(0.25);
    expect(reciprocalRankScore(out, judged, { k: 3 }).score).toBe(0);
    expect(reciprocalRankScore(out, judged, { k: 4 }).score).toBe(0.25);
  });

  it("AP averages over all judged-relevant docs", () => {
    // d1 at 1 (P=1), d3 at 3 (P=2/3), d4 missing: (1 + 2/3) / 3
    expect(averagePrecisionScore(ranked("d1", "x", "d3"), judged).score).toBeCloseTo((1 + 2 / 3) / 3, 12);
  });

  it("takes the engine's order as given and never re-sorts by score", () => {
    const out: RetrievalRanking = {
      results: [
        { docId: "x", score: 1 },
        { docId: "d1", score: 9 },
      ],
    };
    expect(reciprocalRankScore(out, judged).score).toBe(0.5);
  });

  it("relevanceLevel from the row overrides the option", () => {
    const out = ranked("d3", "d1");
    expect(recallAtKScore(out, { ...judged, relevanceLevel: 2 }, 1).score).toBe(0); // d3 is grade 1
    expect(recallAtKScore(out, judged, 1, { relevanceLevel: 1 }).score).toBeCloseTo(1 / 3, 12);
  });

  it("a query without relevant documents scores 0 with the policy named, never 1", async () => {
    const none: RetrievalExpected = { judgments: { a: 0, b: 0 } };
    for (const scorer of [recallAtK(5), precisionAtK(5), ndcgAtK(5), mrr(), averagePrecision()]) {
      const s = await run(scorer, ranked("a", "b"), none);
      expect(s.score).toBe(0);
      expect(s.metadata).toMatchObject({ noRelevant: true, relevantTotal: 0 });
      expect((s.metadata as { policy: string }).policy).toMatch(/score 0/);
    }
    expect(() => recallAtKScore(ranked("a"), none, 5, { onNoRelevant: "throw" })).toThrow(/no judged document/);
  });

  it("scores stay in [0, 1] (Evalite does not check) on random rankings", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let t = 0; t < 300; t++) {
      const judgments: Record<string, number> = {};
      for (let d = 0; d < 15; d++) if (rnd() < 0.6) judgments[`d${d}`] = Math.floor(rnd() * 4);
      const ids = Array.from({ length: 15 }, (_, d) => `d${d}`).filter(() => rnd() < 0.7);
      const out = ranked(...ids);
      const k = 1 + Math.floor(rnd() * 20);
      for (const s of [
        recallAtKScore(out, { judgments }, k),
        ndcgAtKScore(out, { judgments }, k),
        ndcgAtKScore(out, { judgments }, k, { gain: "exponential" }),
        reciprocalRankScore(out, { judgments }),
        averagePrecisionScore(out, { judgments }),
      ]) {
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(1);
      }
    }
  });

  it("rejects bad arguments when the eval is defined and broken rankings when scored", () => {
    expect(() => recallAtK(0)).toThrow(RangeError);
    expect(() => ndcgAtK(2.5)).toThrow(/k must be an integer >= 1/);
    expect(() => ndcgAtK(10, { gain: { 2: -1 } })).toThrow(/gain for grade 2/);
    expect(() => recallAtKScore(ranked("d1", "d1"), judged, 5)).toThrow(/appears twice/);
    expect(() => recallAtKScore({} as RetrievalRanking, judged, 5)).toThrow(/output.results/);
  });
});
