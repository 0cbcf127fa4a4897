import { describe, expect, it } from "vitest";
import { bagOfWords, bagOfWordsScore, bagOfWordsShare } from "./bag-of-words.js";

describe("the bag-of-words reference row", () => {
  it("is the share of a text's distinct lower-cased words found in the evidence, function words and all", () => {
    expect([...bagOfWords("The code, the CODE and １０ codes.")]).toEqual(["the", "code", "and", "10", "codes"]);
    // the, codes found; tessera, creates, 12 not: 2 of 5.
    expect(bagOfWordsShare("Tessera creates 12 codes, the codes", ["the codes"])).toBe(2 / 5);
    expect(bagOfWordsShare("", ["x"])).toBe(0);
  });

  it("relates per metric the two texts the metric relates, citation markers removed", () => {
    const item = { question: "How many codes?", answer: "Ten codes [1].", contexts: ["ten codes"], reference: "Ten." };
    expect(bagOfWordsScore("faithfulness", item)).toBe(1);
    expect(bagOfWordsScore("answer-relevance", item)).toBe(1 / 3);
    expect(bagOfWordsScore("context-relevance", item)).toBe(1 / 3);
    expect(bagOfWordsScore("answer-correctness", item)).toBe(1);
    expect(bagOfWordsScore("answer-correctness", { ...item, reference: undefined })).toBeNull();
    expect(bagOfWordsScore("topic-coverage", { ...item, topics: ["ten codes", "once"] })).toBe(2 / 3);
  });
});
