import { describe, expect, it } from "vitest";
import { askCase, askResult, TWO_FA, TWO_FA_DE } from "../test-data/ask.js";
import { topicCoverageScore } from "./index.js";

describe("topic coverage", () => {
  const c = askCase({ expectedTopics: ["recovery codes", "each code works once", "a new set replaces the old one"] });

  it("counts a topic as covered when half its content terms occur, with stemming", () => {
    const g = topicCoverageScore(c, askResult("You get 10 recovery codes [1]. Each code can only be used once [1].", [TWO_FA]));
    const topics = g.metadata.topics as Array<{ topic: string; covered: boolean; missing: string[] }>;
    expect(topics.map((t) => t.covered)).toEqual([true, true, false]);
    expect(g.score).toBeCloseTo(2 / 3, 12);
    expect(topics[2]!.missing).toContain("replaces");
  });

  it("handles diacritics and compounds as the index does", () => {
    const de = askCase({ language: "de", expectedTopics: ["danach Free-Tarif mit 5 GB"] });
    expect(topicCoverageScore(de, askResult("Danach gilt der Free Tarif mit 5 GB [1].", [TWO_FA_DE])).score).toBe(1);
    const fr = askCase({ language: "fr", expectedTopics: ["lien envoyé par e-mail"] });
    expect(topicCoverageScore(fr, askResult("Le lien est envoye par e-mail [1].", [TWO_FA])).score).toBe(1);
  });
});
