import { describe, expect, it } from "vitest";
import { citesThenValidScore, staleHiddenScore, staleMarkedScore, statesThenValidScore, type TemporalExpected } from "./temporal.js";

const expected: TemporalExpected = {
  valid: ["b.md"],
  stale: ["a.md", "c.md"],
  expectedSubstrings: ["5.99"],
  forbiddenSubstrings: ["4.99"],
};

describe("temporal scorers", () => {
  it("Stale hidden: share of (mode, stale document) pairs out of the top k", () => {
    const hidden = staleHiddenScore({ byMode: { search: ["b.md"], balanced: ["b.md", "x.md"] }, included: [], k: 10 }, expected);
    expect(hidden.score).toBe(1);
    const leaked = staleHiddenScore({ byMode: { search: ["b.md", "a.md"], balanced: ["b.md"] }, included: [], k: 10 }, expected);
    expect(leaked.score).toBe(0.75);
    expect(leaked.metadata).toMatchObject({ leaks: [{ mode: "search", docId: "a.md", rank: 2 }] });
    // Beyond k does not count.
    expect(staleHiddenScore({ byMode: { search: ["b.md", "a.md"] }, included: [], k: 1 }, expected).score).toBe(1);
    expect(() => staleHiddenScore({ byMode: {}, included: [], k: 10 }, expected)).toThrow(RangeError);
  });

  it("Stale kept and marked: returned and marked stale, not merely returned", () => {
    const output = {
      byMode: {},
      included: [
        { docId: "b.md", stale: false },
        { docId: "a.md", stale: true, reason: "superseded by b.md" },
        { docId: "c.md", stale: false },
      ],
      k: 10,
    };
    expect(staleMarkedScore(output, expected).score).toBe(0.5);
    expect(staleMarkedScore({ ...output, included: [] }, expected).score).toBe(0);
  });

  it("States then-valid value: 0 when the stale value is stated too", () => {
    const answer = (text: string) => ({ answer: text, refused: false, citations: [] });
    expect(statesThenValidScore(answer("It costs 5.99 euros [1]."), expected).score).toBe(1);
    expect(statesThenValidScore(answer("It costs 5.99, formerly 4.99."), expected).score).toBe(0);
    expect(statesThenValidScore(answer("It costs 15.99."), expected).score).toBe(0);
    expect(statesThenValidScore({ ...answer(""), error: "model timed out" }, expected)).toMatchObject({
      score: 0,
      metadata: { status: "failed" },
    });
  });

  it("Cites only then-valid: a valid document and no stale one", () => {
    const cites = (...docIds: string[]) => ({ answer: "x", refused: false, citations: docIds.map((docId) => ({ docId })) });
    expect(citesThenValidScore(cites("b.md"), expected).score).toBe(1);
    expect(citesThenValidScore(cites("b.md", "x.md"), expected).score).toBe(1);
    expect(citesThenValidScore(cites("b.md", "a.md"), expected).score).toBe(0);
    expect(citesThenValidScore(cites(), expected).score).toBe(0);
    expect(citesThenValidScore({ ...cites("b.md"), error: "boom" }, expected).metadata).toMatchObject({ status: "failed" });
  });
});
