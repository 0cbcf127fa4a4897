/** The one-pass fact search finds exactly what a scan of every text for every fact finds. */
import { describe, expect, it } from "vitest";
import { factsFound } from "./fact-search.js";

/** The definition: a fact is found when some text holds it. */
const naive = (facts: readonly string[], texts: readonly string[]) =>
  new Set(facts.filter((f) => f !== "" && texts.some((t) => t.includes(f))));

describe("factsFound", () => {
  it("finds facts inside one text, overlapping, nested and at either end, never across two texts", () => {
    const texts = ["refunds within 12 days", "the certificate: 30 days", "abcab"];
    const facts = ["12 days", "30 days", "days", "s within", "cab", "bca", "ab", "b", "days the", "13 days", "abcabc", ""];
    expect(factsFound(facts, texts)).toEqual(naive(facts, texts));
    expect([...factsFound(facts, texts)].sort()).toEqual(["12 days", "30 days", "ab", "b", "bca", "cab", "days", "s within"]);
  });

  it("agrees with the definition on random texts and facts over a small alphabet", () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (length: number) => Array.from({ length }, () => "abcé字 "[random(6)]).join("");
    for (let round = 0; round < 50; round++) {
      const texts = Array.from({ length: 1 + random(5) }, () => word(random(40)));
      const facts = Array.from({ length: 1 + random(30) }, () => word(1 + random(6)));
      expect(factsFound(facts, texts)).toEqual(naive(facts, texts));
    }
  });
});
