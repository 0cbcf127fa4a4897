import { describe, expect, it } from "vitest";
import { chunkDocument, validateChunker } from "./chunk.js";
import { parseDocument } from "./markdown.js";
import { languageFromPath } from "./language-path.js";

describe("parseDocument", () => {
  it("takes the title from front matter, else the first heading, else the file name", () => {
    expect(parseDocument("a.md", "---\ntitle: From FM\nlang: de\n---\n# Heading\n\ntext")).toMatchObject({
      title: "From FM",
      language: "de",
    });
    expect(parseDocument("a.md", "intro\n\n## First **bold** heading\n\ntext").title).toBe("First bold heading");
    expect(parseDocument("notes/plan-b.txt", "# not a heading in plain text").title).toBe("plan-b");
    expect(parseDocument("x.md", "```\n# inside code\n```\n").title).toBe("x");
  });
});

describe("languageFromPath", () => {
  it.each([
    ["en/a.md", "en"],
    ["docs/de/x/y.md", "de"],
    ["zh-hant/a.md", "zh-hant"],
    ["pt_BR/a.md", "pt-br"],
    ["xx/a.md", undefined],
    ["en.md", undefined],
  ])("%s → %s", (path, lang) => expect(languageFromPath(path)).toBe(lang));
});

describe("chunkDocument", () => {
  const doc =
    "# Title\n\nIntro paragraph.\n\n## Section A\n\nA one.\n\nA two.\n\n### Sub\n\nSub text.\n\n## Section B\n\n```\ncode\n\nstill code\n```\n";

  it("splits at headings, keeps heading trails and leaves the title heading out", () => {
    const chunks = chunkDocument(doc, "Title", true);
    expect(chunks.map((c) => [c.seq, c.heading, c.text])).toEqual([
      [0, "", "Intro paragraph."],
      [1, "Section A", "A one.\n\nA two."],
      [2, "Section A › Sub", "Sub text."],
      [3, "Section B", "```\ncode\n\nstill code\n```"],
    ]);
  });

  it("is stable: the same text gives the same passages", () => {
    expect(chunkDocument(doc, "Title", true)).toEqual(chunkDocument(doc, "Title", true));
  });

  it("packs paragraphs up to targetChars and never exceeds maxChars", () => {
    const para = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(4).trim();
    const long = Array.from({ length: 30 }, () => para).join("\n\n");
    const giant = `${"word ".repeat(2000)}\n\n${"字".repeat(3000)}`;
    const config = { targetChars: 800, maxChars: 1200 };
    for (const body of [long, giant]) {
      const chunks = chunkDocument(body, "t", false, config);
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(config.maxChars);
      expect(
        chunks
          .map((c) => c.text)
          .join("")
          .replace(/\s/g, ""),
      ).toBe(body.replace(/\s/g, ""));
    }
  });

  it("splits an over-long paragraph at sentence ends", () => {
    const sentence = "This sentence has exactly some words in it. ";
    const chunks = chunkDocument(sentence.repeat(60).trim(), "t", false, { targetChars: 200, maxChars: 300 });
    for (const c of chunks) expect(c.text.endsWith(".")).toBe(true);
  });

  it("validates its parameters", () => {
    expect(() => validateChunker({ targetChars: 900, maxChars: 800 })).toThrow(/"targetChars" to be an integer between 50 and maxChars/);
    expect(() => validateChunker({ targetChars: 50, maxChars: 10 })).toThrow(/"maxChars" to be an integer ≥ 100/);
  });
});
