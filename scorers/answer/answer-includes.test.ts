import { describe, expect, it } from "vitest";
import { askCase, askResult, refused, source, TWO_FA } from "../test-data/ask.js";
import { answerIncludesScore } from "./index.js";

describe("matching substrings", () => {
  it("is case-insensitive and Unicode-normalized (NFC and NFD both match)", () => {
    const nfd = "E\u0301DITEUR"; // É as E + combining acute, upper case
    const c = askCase({ language: "fr", expectedSubstrings: ["éditeur", "lecteur"] });
    const g = answerIncludesScore(c, askResult(`Les rôles sont ${nfd} et Lecteur [1].`, [TWO_FA]));
    expect(g.score).toBe(1);
    expect(g.metadata.found).toEqual(["éditeur", "lecteur"]);
    // An expected substring written in NFD matches an NFC answer too.
    expect(answerIncludesScore(askCase({ expectedSubstrings: ["e\u0301diteur"] }), askResult("Rôle : éditeur [1].", [TWO_FA])).score).toBe(
      1,
    );
  });

  it("never counts a citation marker as a fact", () => {
    const c = askCase({ expectedSubstrings: ["10"] });
    const sources = Array.from({ length: 10 }, (_, i) => source(i + 1, `en/d${i + 1}.md`, "text"));
    const g = answerIncludesScore(c, askResult("You get several codes [10].", sources));
    expect(g.score).toBe(0);
    expect(g.metadata.missing).toEqual(["10"]);
  });
});

describe("answer-includes", () => {
  const c = askCase({ expectedSubstrings: ["10", "once"] });

  it("scores the share found and names what is missing", () => {
    const half = answerIncludesScore(c, askResult("You get 10 recovery codes [1].", [TWO_FA]));
    expect(half.score).toBe(0.5);
    expect(half.metadata).toMatchObject({
      grader: "answer-includes",
      method: "heuristic",
      status: "scored",
      caseId: "t-001",
      found: ["10"],
      missing: ["once"],
    });
    expect(answerIncludesScore(c, askResult("You get 10 codes; each works ONCE [1].", [TWO_FA])).score).toBe(1);
  });

  it("grades a refusal as the text it is, and says it refused", () => {
    const g = answerIncludesScore(c, refused([TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata.refused).toBe(true);
  });
});
