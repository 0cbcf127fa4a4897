import { describe, expect, it } from "vitest";
import { analyzeDocumentText, analyzeQuery, buildMatchExpression, indexTerms, matchingTerms, MAX_QUERY_TERMS } from "./analyze.js";

const terms = (text: string, lang?: string): string[] => indexTerms(text, lang).split(" ").filter(Boolean);
const match = (q: string, languages = ["en", "de", "fr", "it"]): string =>
  buildMatchExpression(matchingTerms(analyzeQuery(q, { languages })));

describe("document analysis: token classes", () => {
  it.each([
    ["real-time", ["real", "time", "realtime"]],
    ["multi-agent", ["multi", "agent", "multiagent"]],
    ["GPT-4", ["gpt", "4", "gpt4"]],
    ["DEC-0054", ["dec", "0054", "dec0054"]],
    ["E4012", ["e", "4012", "e4012"]],
    ["max_parallel_uploads", ["max", "parallel", "uploads", "maxparalleluploads"]],
    ["maxRetryCount", ["max", "retry", "count", "maxretrycount"]],
    ["HTTPServer", ["http", "server", "httpserver"]],
    ["config.yaml", ["config", "yaml", "configyaml"]],
    ["src/index.ts", ["src", "index", "ts", "srcindexts"]],
    ["v1.2.3", ["v", "1", "2", "3", "v123"]],
    ["privacy@tessera.example", ["privacy", "tessera", "example", "privacytesseraexample"]],
  ])("%s → %j (unstemmed)", (input, expected) => {
    expect(terms(input)).toEqual(expected);
  });

  it("keeps joined forms after the positional stream so phrases stay adjacent", () => {
    const { tokens, extras } = analyzeDocumentText("the real-time sync", undefined);
    expect(tokens.map((t) => t.term)).toEqual(["the", "real", "time", "sync"]);
    expect(extras).toEqual(["realtime"]);
  });

  it("records source offsets for every positional token", () => {
    const text = "Die Kündigung: DEC-0054.";
    for (const t of analyzeDocumentText(text, "de").tokens) {
      expect(text.slice(t.start, t.end).length).toBeGreaterThan(0);
    }
    const dec = analyzeDocumentText(text, "de").tokens.find((t) => t.term === "0054")!;
    expect(text.slice(dec.start, dec.end)).toBe("0054");
  });

  it("folds Latin diacritics after stemming, and ß", () => {
    expect(terms("Kündigungen", "de")).toContain("kundig");
    expect(terms("Kundigung", "de")).toContain("kundig");
    expect(terms("résiliation", "fr")).toEqual(["resili"]);
    expect(terms("Straße", undefined)).toEqual(["strasse"]);
  });

  it("adds the transliterated stem of German umlaut words (Kuendigung finds Kündigung)", () => {
    expect(analyzeDocumentText("Kündigung", "de").extras).toContain("kuendig");
    expect(match("Kuendigung")).toContain('"kuendig"');
  });

  it("stems per language; the joined form of an identifier stays exact", () => {
    expect(terms("cancellations", "en")).toEqual(["cancel"]);
    expect(terms("abbonamenti", "it")).toEqual(["abbon"]);
    expect(terms("uploads2024", "en")).toEqual(["upload", "2024", "uploads2024"]);
    expect(terms("cancellations", undefined)).toEqual(["cancellations"]);
  });

  it("normalizes full-width forms and decomposed (NFD) input", () => {
    expect(terms("ＤＥＣ－００５４")).toEqual(["dec", "0054", "dec0054"]);
    expect(terms("Ku\u0308ndigung", "de")).toEqual(terms("Kündigung", "de"));
  });

  it("indexes CJK runs as overlapping bigrams, a lone character as itself", () => {
    expect(terms("取消订阅")).toEqual(["取消", "消订", "订阅"]);
    expect(terms("구독을 해지")).toEqual(["구독", "독을", "해지"]);
    expect(terms("猫")).toEqual(["猫"]);
    expect(terms("Tessera同期")).toEqual(["tessera", "同期"]);
  });
});

describe("query analysis and MATCH expressions", () => {
  it("quotes every alternative and ORs terms", () => {
    expect(match("DEC-0054")).toBe('("dec0054" OR "dec 0054")');
    expect(match("cancel subscription", ["en"])).toBe('"cancel" OR ("subscription" OR "subscrip")');
  });

  it("drops stop words of the detected language but keeps a query made only of them", () => {
    expect(match("how do I cancel my subscription", ["en"])).toBe('"cancel" OR ("subscription" OR "subscrip")');
    expect(match("the", ["en"])).toBe('"the"');
  });

  it.each(['"NEAR(a b)"', "a AND b OR NOT c", "col:value", "x* -y ^z", "((()))", '"""', "\u0000", "😀"])(
    "turns FTS5 syntax %j into plain quoted terms",
    (q) => {
      const expr = match(q);
      // Every token is inside double quotes; the only bare words are the OR operators.
      const bare = expr
        .replace(/"(?:[^"]|"")*"/g, "")
        .replace(/[()\s]/g, "")
        .replace(/OR/g, "");
      expect(bare).toBe("");
    },
  );

  it("caps very long queries at MAX_QUERY_TERMS distinct terms and reports the rest", () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}x`).join(" ");
    const analyzed = analyzeQuery(words, { languages: ["en"] });
    expect(analyzed.terms).toHaveLength(MAX_QUERY_TERMS);
    expect(analyzed.truncated).toBe(200 - MAX_QUERY_TERMS);
  });

  it("with spacedCompounds, adds the joined form of 2-3 plain words in a row, after every other term", () => {
    const spaced = (q: string): string =>
      buildMatchExpression(matchingTerms(analyzeQuery(q, { languages: ["en"], spacedCompounds: true })));
    expect(spaced("real time")).toBe('"real" OR "time" OR "realtime"');
    expect(spaced("max parallel uploads")).toBe(
      '"max" OR "parallel" OR ("uploads" OR "upload") OR "maxparallel" OR "paralleluploads" OR "maxparalleluploads"',
    );
    // Not across punctuation, compounds or stop words; never without the option.
    expect(spaced("real, time")).not.toContain("realtime");
    expect(spaced("real-time channel")).not.toContain("realtimechannel");
    expect(
      analyzeQuery("cancel my subscription", { languages: ["en"], queryLanguage: "en", spacedCompounds: true }).terms.map((t) => t.surface),
    ).toEqual(["cancel", "my", "subscription"]);
    expect(match("real time")).not.toContain("realtime");
  });

  it("drops joined forms of spaced words silently at the term cap: the truncation count is about words", () => {
    const letters = (i: number): string => String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));
    const words = Array.from({ length: 60 }, (_, i) => `w${letters(i)}q`).join(" ");
    const analyzed = analyzeQuery(words, { languages: ["en"], spacedCompounds: true });
    expect(analyzed.terms).toHaveLength(MAX_QUERY_TERMS);
    expect(analyzed.truncated).toBe(0);
  });

  it("gives nothing to match for empty or symbol-only queries", () => {
    expect(match("")).toBe("");
    expect(match("   ")).toBe("");
    expect(match("!!! ??? ...")).toBe("");
  });
});
