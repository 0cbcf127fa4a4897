import { describe, expect, it } from "vitest";
import { askCase, askResult, PLANS, refused, TWO_FA } from "../test-data/ask.js";
import { citesOnlySurfacedScore } from "./index.js";

describe("cites-only-surfaced", () => {
  const c = askCase();

  it("is 1 when every citation points to a retrieved source", () => {
    const g = citesOnlySurfacedScore(
      c,
      askResult(
        "10 codes [1]. €9.99 [2].",
        [TWO_FA, PLANS].map((s, i) => ({ ...s, ref: i + 1 })),
      ),
    );
    expect(g.score).toBe(1);
    expect(g.metadata).toMatchObject({ citations: 2, unsurfaced: [], vacuous: false });
  });

  it("is 0 with an invalid [n], naming it", () => {
    const g = citesOnlySurfacedScore(c, askResult("10 codes [1] [7].", [TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata.unsurfaced).toEqual(["[7] (no such source; 1 retrieved)"]);
  });

  it("is 0 when a citation names a document that is not the retrieved source", () => {
    const result = askResult("10 codes [1].", [TWO_FA], {
      citations: [{ ref: 1, docId: "de/kuendigung.md", passageId: "de/kuendigung.md#2" }],
    });
    const g = citesOnlySurfacedScore(c, result);
    expect(g.score).toBe(0);
    expect(g.metadata.unsurfaced).toEqual([`[1] de/kuendigung.md#2 (source [1] is ${TWO_FA.passageId})`]);
    const noSource = citesOnlySurfacedScore(
      c,
      askResult("x [2].", [TWO_FA], {
        citations: [{ ref: 2, docId: "de/kuendigung.md", passageId: "de/kuendigung.md#0" }],
        invalidCitations: [],
      }),
    );
    expect(noSource.metadata.unsurfaced).toEqual(["[2] de/kuendigung.md (no source [2] was retrieved)"]);
  });

  it("scores an answer without citations 1, declared vacuous", () => {
    const g = citesOnlySurfacedScore(c, refused([TWO_FA]));
    expect(g.score).toBe(1);
    expect(g.metadata).toMatchObject({ citations: 0, vacuous: true });
  });
});
