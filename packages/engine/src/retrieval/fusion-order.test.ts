import { describe, expect, it } from "vitest";
import { convexFusion, familyWeights, minMaxNormalized } from "./fusion.js";
import { reciprocalRankFusion } from "./rrf.js";
import { compareUtf8, TopK, byScoreThenDocIdDesc } from "./order.js";

const item = (docIndex: number, docId: string) => ({ docIndex, docId, passageRowId: docIndex * 10, score: 0 });

describe("reciprocal rank fusion", () => {
  it("sums weight / (k + rank) over the lists a document appears in", () => {
    const fused = reciprocalRankFusion(
      [
        { name: "bm25", weight: 1, items: [item(1, "a"), item(2, "b")] },
        { name: "vector", weight: 2, items: [item(2, "b"), item(3, "c")] },
      ],
      60,
    );
    expect(fused.map((f) => f.docId)).toEqual(["b", "c", "a"]);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 2 / 61, 12);
    expect(fused[0]!.ranks).toEqual({ bm25: 2, vector: 1 });
    expect(fused[1]!.score).toBeCloseTo(2 / 62, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 61, 12);
  });

  it("orders equal fused scores by document id descending", () => {
    const fused = reciprocalRankFusion(
      [
        { name: "x", weight: 1, items: [item(1, "a")] },
        { name: "y", weight: 1, items: [item(2, "b")] },
      ],
      60,
    );
    expect(fused.map((f) => f.docId)).toEqual(["b", "a"]);
  });

  it("rejects a negative k", () => expect(() => reciprocalRankFusion([], -1)).toThrow(RangeError));
});

describe("convex fusion", () => {
  const scored = (docIndex: number, docId: string, score: number) => ({ docIndex, docId, passageRowId: docIndex * 10, score });

  it("sums weight × min-max normalized score over the lists, divided by the weights of lists that returned anything", () => {
    expect(minMaxNormalized([scored(1, "a", 9), scored(2, "b", 6), scored(3, "c", 3)])).toEqual([1, 0.5, 0]);
    const fused = convexFusion([
      { name: "bm25", weight: 1, items: [scored(1, "a", 9), scored(2, "b", 6), scored(3, "c", 3)] },
      { name: "vector", weight: 0.5, items: [scored(3, "c", 0.9), scored(2, "b", 0.5)] },
      { name: "empty", weight: 7, items: [] },
    ]);
    expect(fused.map((f) => [f.docId, f.score])).toEqual([
      ["a", 1 / 1.5],
      ["c", 0.5 / 1.5],
      ["b", 0.5 / 1.5],
    ]);
    expect(fused[0]!.ranks).toEqual({ bm25: 1 });
    expect(fused[1]!.ranks).toEqual({ bm25: 3, vector: 1 });
  });

  it("keeps a clear BM25 winner first where RRF lets a weak list's top document overtake it", () => {
    const lists = [
      { name: "bm25", weight: 1, items: [scored(1, "a", 20), scored(2, "b", 5), scored(3, "c", 4.9), scored(4, "d", 1)] },
      { name: "vector", weight: 1, items: [scored(3, "c", 0.31), scored(2, "b", 0.3), scored(1, "a", 0.3), scored(4, "d", 0.1)] },
    ];
    expect(convexFusion(lists)[0]!.docId).toBe("a");
    expect(reciprocalRankFusion(lists, 60)[0]!.docId).toBe("c");
  });
});

describe("ordering", () => {
  it("compares document ids in UTF-8 byte order, not UTF-16", () => {
    // U+FF21 (3 UTF-8 bytes, EF BC A1) sorts before U+1F600 (F0 ...) in bytes but after it in UTF-16.
    expect(compareUtf8("\uff21", "😀")).toBeLessThan(0);
    expect("\uff21" < "😀").toBe(false);
    expect(compareUtf8("a", "b")).toBeLessThan(0);
    expect(compareUtf8("b", "b")).toBe(0);
  });

  it("TopK keeps the best k in engine order", () => {
    const top = new TopK<{ score: number; docId: string }>(3, byScoreThenDocIdDesc);
    for (const [score, docId] of [
      [1, "a"],
      [5, "b"],
      [3, "c"],
      [5, "d"],
      [0, "e"],
      [3, "f"],
    ] as const)
      top.push({ score, docId });
    expect(top.sorted().map((x) => x.docId)).toEqual(["d", "b", "f"]);
    const none = new TopK<{ score: number; docId: string }>(0, byScoreThenDocIdDesc);
    none.push({ score: 1, docId: "a" });
    expect(none.sorted()).toEqual([]);
  });
});

describe("expanded queries' weights (familyWeights)", () => {
  it("leaves a retriever without expanded queries its whole weight", () => {
    expect(familyWeights(0.5, 0, 0.5)).toEqual({ original: 0.5, variant: 0 });
  });

  it("gives the expanded queries together expansionWeight times the original, and keeps the total", () => {
    for (const variants of [1, 2, 4]) {
      const w = familyWeights(1, variants, 0.5);
      expect(w.variant * variants).toBeCloseTo(0.5 * w.original, 12);
      expect(w.original + variants * w.variant).toBeCloseTo(1, 12);
    }
  });
});
