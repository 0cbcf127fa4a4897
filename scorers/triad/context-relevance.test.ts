import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES } from "../test-data/ask.js";
import { contextRelevanceMetric } from "./context-relevance.js";
import { triadScore } from "./index.js";

const c = askCase({ expectedSubstrings: ["10"], mustCite: [CODES.docId] });
const good = askResult("Tessera creates 10 recovery codes [1]. Each code works once [1].", [CODES, PRICES]);

describe("context relevance, heuristic", () => {
  it("is the mean over sources of the question terms each holds", async () => {
    const g = contextRelevanceMetric.heuristic(c, good);
    const perSource = g.metadata.perSource as Array<{ ref: number; share: number }>;
    expect(perSource[0]!.share).toBeGreaterThan(perSource[1]!.share);
    expect(g.score).toBeCloseTo((perSource[0]!.share + perSource[1]!.share) / 2, 2);
    expect(g.metadata.method).toBe("heuristic");
    // Nothing to read: a mean over no source is no number, so it is not scored, with the reason.
    for (const sources of [
      [],
      [
        { ...CODES, text: undefined },
        { ...PRICES, text: "" },
      ],
    ])
      expect(await triadScore("context-relevance", c, askResult("x", sources))).toMatchObject({
        score: 0,
        metadata: { status: "unknown", reason: expect.stringMatching(/^no source text: /) },
      });
  });
});
