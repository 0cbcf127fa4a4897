import { describe, expect, it } from "vitest";
import { askCase, askResult, refused, source, TWO_FA } from "../ask-test-data.js";
import { containsFact } from "../text/contains-fact.js";
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

  it("folds white space (narrow and plain no-break spaces) and typographic apostrophes", () => {
    expect(containsFact("valable 7\u202fjours", "7 jours")).toBe(true);
    expect(containsFact("valable 7\u00a0jours", "7 jours")).toBe(true);
    expect(containsFact("dall’app web", "dall'app web")).toBe(true);
  });

  it("does not find a number inside a longer number, but does find a word inside a longer word", () => {
    expect(containsFact("you get 100 codes", "10")).toBe(false);
    expect(containsFact("since 2010", "10")).toBe(false);
    expect(containsFact("costa 149,50 €", "49,50")).toBe(false);
    expect(containsFact("costa 4,99 €", "4")).toBe(false);
    expect(containsFact("version 3.2.1", "3.2")).toBe(false);
    expect(containsFact("you get 10 codes.", "10")).toBe(true);
    expect(containsFact("values 1 to 16.", "16")).toBe(true);
    expect(containsFact("bis zum ende des abrechnungsmonats", "abrechnungsmonat")).toBe(true);
    expect(containsFact("e-4012 and then 10", "10")).toBe(true);
    expect(() => containsFact("x", "")).toThrow(RangeError);
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
