import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES, refused } from "../test-data/ask.js";
import { answerRelevanceMetric } from "./answer-relevance.js";

const c = askCase({ expectedSubstrings: ["10"], mustCite: [CODES.docId] });
const good = askResult("Tessera creates 10 recovery codes [1]. Each code works once [1].", [CODES, PRICES]);

describe("answer relevance, heuristic", () => {
  it("of a refusal is 0", () => {
    const a = answerRelevanceMetric.heuristic(c, refused([CODES]));
    expect(a.score).toBe(0);
    expect(a.metadata.refused).toBe(true);
  });

  it("is the share of the question's terms the answer holds", () => {
    const g = answerRelevanceMetric.heuristic(c, good);
    expect(g.metadata.found).toEqual(expect.arrayContaining(["recovery", "codes"]));
    expect(g.score).toBeGreaterThan(
      answerRelevanceMetric.heuristic(c, askResult("The Personal plan costs €9.99 [2].", [CODES, PRICES])).score,
    );
  });
});
