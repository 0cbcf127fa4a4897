import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES } from "../ask-test-data.js";
import { contextRelevanceMetric } from "./context-relevance.js";

const c = askCase({ expectedSubstrings: ["10"], mustCite: [CODES.docId] });
const good = askResult("Tessera creates 10 recovery codes [1]. Each code works once [1].", [CODES, PRICES]);

describe("context relevance, heuristic", () => {
  it("is the mean over sources of the question terms each holds", () => {
    const g = contextRelevanceMetric.heuristic(c, good);
    const perSource = g.metadata.perSource as Array<{ ref: number; share: number }>;
    expect(perSource[0]!.share).toBeGreaterThan(perSource[1]!.share);
    expect(g.score).toBeCloseTo((perSource[0]!.share + perSource[1]!.share) / 2, 2);
    expect(g.metadata.method).toBe("heuristic");
    expect(contextRelevanceMetric.heuristic(c, askResult("x", [])).metadata).toMatchObject({ sources: 0 });
    expect(contextRelevanceMetric.heuristic(c, askResult("x", [])).score).toBe(0);
  });
});
