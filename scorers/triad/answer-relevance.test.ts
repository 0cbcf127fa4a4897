import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES, refused, source } from "../test-data/ask.js";
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

  it("does not punish a short answer the sources put where the question points", () => {
    const capital = source(1, "en/geo.md", "New Delhi is the capital of India. Mumbai is its largest city.");
    const delhi = askResult("Delhi", [capital], { question: "What is the capital of India?" });
    const g = answerRelevanceMetric.heuristic(askCase({ question: "What is the capital of India?" }), delhi);
    expect(g.score).toBe(1);
    expect(g.metadata).toMatchObject({ inAnswer: 0, besideInSources: { share: 1, sentence: "New Delhi is the capital of India." } });
    // A short answer the sources do not place beside the question's terms gains nothing.
    const paris = askResult("Paris", [capital], { question: "What is the capital of India?" });
    expect(answerRelevanceMetric.heuristic(askCase({ question: "What is the capital of India?" }), paris).score).toBe(0);
    // "10" for "How many recovery codes do I get?": the sentence with 10 holds "recovery codes", not "many" or "get".
    expect(answerRelevanceMetric.heuristic(c, askResult("10", [CODES])).score).toBe(0.5);
  });

  it("scores a bare yes or no 1 to a yes/no question and 0 to another", () => {
    expect(answerRelevanceMetric.heuristic(c, askResult("Yes.", [CODES], { question: "Can I use a code twice?" })).score).toBe(1);
    expect(answerRelevanceMetric.heuristic(c, askResult("Nein.", [CODES], { question: "Kann ich einen Code zweimal nutzen?" })).score).toBe(
      1,
    );
    expect(answerRelevanceMetric.heuristic(c, askResult("No.", [CODES], { question: "How many codes do I get?" })).score).toBe(0);
  });
});
