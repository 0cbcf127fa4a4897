// Language detection on plain prose: 20 paragraphs each in English, German and Spanish
// (fixtures/language-paragraphs.json, written for this test), and every run of 20 consecutive
// words taken from them. Spanish shares most of its short function words with French, Italian and
// Portuguese (de, la, que, en, un, se, y…); before the rest of its everyday function words (más,
// muy, entre, sobre, hay, también…) counted as evidence, 24 of the 4,896 runs were filed as
// unknown or as another language, plainly Spanish paragraphs among them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectLanguage } from "../src/text/language.js";

const { paragraphs } = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures/language-paragraphs.json"), "utf8")) as {
  paragraphs: Record<string, string[]>;
};
const RUN_WORDS = 20;

/** Every run of `n` consecutive words of a text. */
function runsOf(text: string, n: number): string[] {
  const words = text.split(/\s+/);
  return Array.from({ length: Math.max(0, words.length - n + 1) }, (_, i) => words.slice(i, i + n).join(" "));
}

describe("detectLanguage on paragraphs of plain prose", () => {
  it("has 20 paragraphs of 80-200 words in each language", () => {
    expect(Object.keys(paragraphs).sort()).toEqual(["de", "en", "es"]);
    for (const texts of Object.values(paragraphs)) {
      expect(texts).toHaveLength(20);
      for (const text of texts) expect(text.split(/\s+/).length).toBeGreaterThanOrEqual(80);
      for (const text of texts) expect(text.split(/\s+/).length).toBeLessThanOrEqual(200);
    }
  });

  it.each(Object.keys(paragraphs))("files every %s paragraph as its language", (language) => {
    const misfiled = paragraphs[language]!.map((text, i) => ({ i, got: detectLanguage(text) })).filter((r) => r.got !== language);
    expect(misfiled).toEqual([]);
  });

  it.each(Object.keys(paragraphs))(`files every run of ${RUN_WORDS} words of the %s paragraphs as its language`, (language) => {
    const misfiled = paragraphs[language]!.flatMap((text) => runsOf(text, RUN_WORDS))
      .map((run) => ({ run, got: detectLanguage(run) }))
      .filter((r) => r.got !== language);
    expect(misfiled).toEqual([]);
  });
});
