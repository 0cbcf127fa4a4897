import { describe, expect, it } from "vitest";
import { answerFirst, formatLaneSummary, hasResults, laneSummary } from "./lane.js";

const run = async (scorer: ReturnType<typeof answerFirst>, docIds: string[], judgments: Record<string, number>) =>
  (await scorer({ input: undefined, output: { results: docIds.map((docId) => ({ docId })) }, expected: { judgments } })) as {
    score: number;
    metadata: Record<string, unknown>;
  };

describe("answerFirst", () => {
  const judgments = { a: 3, b: 1, c: 0 };
  it("is 1 only when the best-graded document is first", async () => {
    expect((await run(answerFirst(), ["a", "b"], judgments)).score).toBe(1);
    expect((await run(answerFirst(), ["b", "a"], judgments)).score).toBe(0);
    expect((await run(answerFirst(), ["c", "a"], judgments)).score).toBe(0);
    expect((await run(answerFirst(), [], judgments)).score).toBe(0);
  });
  it("uses the best grade judged, also when it is below 3", async () => {
    expect((await run(answerFirst(), ["b"], { b: 2, d: 1 })).score).toBe(1);
    expect((await run(answerFirst(), ["d", "b"], { b: 2, d: 1 })).metadata).toMatchObject({ bestGrade: 2, top: "d" });
  });
});

describe("hasResults", () => {
  it("is 1 with any result and 0 with none", async () => {
    expect((await run(hasResults(), ["z"], { a: 3 })).score).toBe(1);
    expect((await run(hasResults(), [], { a: 3 })).score).toBe(0);
  });
});

describe("laneSummary", () => {
  it("averages Recall@10, nDCG@10, MRR@10 and counts zero-result queries", () => {
    const s = laneSummary("ko", [
      { ranking: ["a", "x"], judgments: { a: 3 } },
      { ranking: ["x", "b"], judgments: { b: 3 } },
      { ranking: [], judgments: { c: 3 } },
    ]);
    expect(s.queries).toBe(3);
    expect(s.recallAt10).toBeCloseTo(2 / 3, 12);
    expect(s.mrrAt10).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
    expect(s.ndcgAt10).toBeCloseTo((1 + 1 / Math.log2(3) + 0) / 3, 12);
    expect(s.zeroResultRate).toBeCloseTo(1 / 3, 12);
    expect(formatLaneSummary(s)).toBe("ko: Recall@10 0.667, nDCG@10 0.544, MRR@10 0.500, zero-result rate 0.333 (3 queries)");
  });
});
