import { describe, expect, it } from "vitest";
import { askCase, askResult, refused, TWO_FA } from "../test-data/ask.js";
import { questionVerdict } from "../verdict.js";
import { answerIncludesAnyScore, casesFor } from "./index.js";

describe("answer-includes-any", () => {
  const c = askCase({ expectedSubstringsAny: ["recovery codes", "backup codes", "Wiederherstellungscodes"] });

  it("holds when the answer states one alternative, naming which; the others are not missed", () => {
    const g = answerIncludesAnyScore(c, askResult("You get 10 backup codes [1].", [TWO_FA]));
    expect(g.score).toBe(1);
    expect(g.metadata).toMatchObject({
      grader: "answer-includes-any",
      method: "heuristic",
      status: "scored",
      found: ["backup codes"],
      missing: ["recovery codes", "Wiederherstellungscodes"],
    });
  });

  it("is 0 when the answer states none, matched as answer-includes matches (a fact starts a word, markers removed)", () => {
    expect(answerIncludesAnyScore(c, askResult("You get 10 codes [1].", [TWO_FA])).score).toBe(0);
    // "codes" inside "barcodes" starts no word; a citation marker never counts as a number.
    expect(
      answerIncludesAnyScore(askCase({ expectedSubstringsAny: ["codes", "1"] }), askResult("Scan the barcodes [1].", [TWO_FA])).score,
    ).toBe(0);
    expect(answerIncludesAnyScore(c, refused([TWO_FA])).metadata).toMatchObject({ refused: true, found: [] });
  });

  it("applies only to cases that list alternatives", () => {
    const plain = askCase({ id: "t-002", expectedSubstrings: ["10"] });
    expect(casesFor("answer-includes-any", [c, plain])).toEqual([c]);
    expect(() => answerIncludesAnyScore(plain, askResult("x", [TWO_FA]))).toThrow(/expectedSubstringsAny/);
  });
});

describe("the question verdict holds the tool's rule: every expectedSubstrings and one of expectedSubstringsAny", () => {
  const both = askCase({ expectedSubstrings: ["10"], expectedSubstringsAny: ["recovery codes", "backup codes"], mustCite: [TWO_FA.docId] });

  it.each([
    { answer: "You get 10 backup codes [1].", pass: true, failed: [] },
    { answer: "You get 10 codes [1].", pass: false, failed: ['states none of "recovery codes", "backup codes"'] },
    { answer: "You get recovery codes [1].", pass: false, failed: ['missing "10"'] },
  ])("$answer → pass $pass", async ({ answer, pass, failed }) => {
    const v = await questionVerdict(both, askResult(answer, [TWO_FA]));
    expect(v.pass).toBe(pass);
    expect(v.failed).toEqual(failed);
    expect(v.expectations.map((e) => e.expectation)).toContain("answer-includes-any");
  });
});
