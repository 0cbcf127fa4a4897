import { describe, expect, it } from "vitest";
import { DuplicateDocumentError, compareUtf8, judgedRanking, placeholderRanking, rankByScore, topicQrels } from "./judged-ranking.js";
import { NOT_JUDGED, UNJUDGED_IN_POOL } from "./types.js";

describe("compareUtf8", () => {
  it("orders like the UTF-8 bytes (Buffer.compare), not like UTF-16 code units", () => {
    const samples = ["a", "b", "ab", "", "z\u00e9", "\uffff", "\ue000", "\u{1f600}", "\u{10000}x", "A\u{1f600}", "A\uff01", "é", "e"];
    for (const a of samples) {
      for (const b of samples) {
        const want = Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
        expect(Math.sign(compareUtf8(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(want);
      }
    }
    // The case plain `<` gets wrong: U+FF01 (EF BC 81) sorts before U+1F600 (F0 9F 98 80) in UTF-8.
    expect("\uff01" < "\u{1f600}").toBe(false);
    expect(compareUtf8("\uff01", "\u{1f600}")).toBeLessThan(0);
  });
});

describe("rankByScore", () => {
  it("sorts by score desc and breaks ties by docId DESC", () => {
    const ids = ["a", "c", "b", "z"];
    const order = rankByScore(ids, [1, 2, 2, 0.5], 4);
    expect([...order].map((i) => ids[i])).toEqual(["c", "b", "a", "z"]);
  });
  it("keeps an already ordered run as is (including ties already in docId desc order)", () => {
    expect([...rankByScore(["b", "a", "c"], [3, 3, 1], 3)]).toEqual([0, 1, 2]);
  });
  it("treats -0 and 0 as a tie, like C's comparison", () => {
    const ids = ["a", "b"];
    expect([...rankByScore(ids, [-0, 0], 2)].map((i) => ids[i])).toEqual(["b", "a"]);
  });
});

describe("judgedRanking", () => {
  const qrels = topicQrels({ r1: 1, r2: 2, n: 0, u: -1 });

  it("joins with the judgments and counts", () => {
    const j = judgedRanking({ docIds: ["x", "r2", "n", "u", "r1"], scores: [5, 4, 3, 2, 1] }, qrels, { relevanceLevel: 1 });
    expect([...j.rels]).toEqual([NOT_JUDGED, 2, 0, UNJUDGED_IN_POOL, 1]);
    expect(j).toMatchObject({ numRet: 5, numRel: 2, numRelRet: 2, numNotJudged: 1, numUnjudgedInPool: 1, relevanceLevel: 1 });
    expect(j.levels).toEqual([
      { grade: 0, count: 1 },
      { grade: 1, count: 1 },
      { grade: 2, count: 1 },
    ]);
  });

  it("applies the relevance level to both R and relevant retrieved", () => {
    const j = judgedRanking({ docIds: ["r1", "r2"] }, qrels, { relevanceLevel: 2 });
    expect(j).toMatchObject({ numRel: 1, numRelRet: 1 });
  });

  it("truncates after ordering, at maxDepth", () => {
    const j = judgedRanking({ docIds: ["r1", "x", "r2"], scores: [1, 3, 2] }, qrels, { maxDepth: 2 });
    expect([...j.rels]).toEqual([NOT_JUDGED, 2]);
    expect(j.numRet).toBe(2);
  });

  it("rejects a repeated docId with both positions", () => {
    try {
      judgedRanking({ docIds: ["a", "b", "a"] }, qrels);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DuplicateDocumentError);
      expect(error).toMatchObject({ docId: "a", firstIndex: 0, secondIndex: 2 });
    }
  });

  it("rejects a bad level or depth", () => {
    expect(() => judgedRanking({ docIds: [] }, qrels, { relevanceLevel: -1 })).toThrow(RangeError);
    expect(() => judgedRanking({ docIds: [] }, qrels, { maxDepth: 0 })).toThrow(RangeError);
  });

  it("placeholder ranking (-c) is one unjudged document", () => {
    const j = placeholderRanking(qrels);
    expect([...j.rels]).toEqual([NOT_JUDGED]);
    expect(j).toMatchObject({ numRet: 1, numRel: 2, numRelRet: 0 });
  });
});
