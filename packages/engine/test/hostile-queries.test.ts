import { describe, expect, it } from "vitest";
import { smallCorpusEngine } from "./helpers.js";

/** Input that would be FTS5 syntax, or break a naive tokenizer, if it reached SQLite raw. */
const HOSTILE: Array<[string, string]> = [
  ["empty", ""],
  ["spaces", "    "],
  ["tab and newline", "\t\n\r"],
  ["lone double quote", '"'],
  ["three quotes", '"""'],
  ["unbalanced quote", '"cancel subscription'],
  ["quoted phrase", '"cancel your subscription"'],
  ["single quotes", "'cancel'"],
  ["star alone", "*"],
  ["prefix star", "cancel*"],
  ["leading star", "*cancel"],
  ["minus alone", "-"],
  ["negation", "-cancel"],
  ["double minus", "--cancel --subscription"],
  ["caret", "^cancel"],
  ["caret alone", "^"],
  ["NEAR", "NEAR(cancel subscription)"],
  ["NEAR with distance", "NEAR(cancel subscription, 2)"],
  ["near lowercase", "near"],
  ["AND", "cancel AND subscription"],
  ["OR", "cancel OR"],
  ["NOT", "NOT cancel"],
  ["operators only", "AND OR NOT"],
  ["parentheses", "(cancel)"],
  ["unbalanced open", "((cancel"],
  ["unbalanced close", "cancel))"],
  ["empty parens", "()"],
  ["column filter", "title:cancel"],
  ["column filter set", "{title body}: cancel"],
  ["colon alone", ":"],
  ["colons", "a:b:c"],
  ["plus", "+cancel +subscription"],
  ["braces", "{cancel}"],
  ["brackets", "[cancel]"],
  ["backslash", "C:\\Users\\files"],
  ["semicolon SQL", "cancel'; DROP TABLE documents; --"],
  ["percent and underscore", "%_%"],
  ["emoji", "😀🎉"],
  ["emoji with text", "cancel 😀 subscription"],
  ["ZWJ emoji", "👩‍👩‍👧‍👦"],
  ["flag emoji", "🇩🇪"],
  ["combining marks only", "\u0301\u0308"],
  ["zero-width space", "can\u200bcel"],
  ["NUL", "cancel\u0000subscription"],
  ["control characters", "\u0001\u0002\u0003"],
  ["lone surrogate", "\ud800cancel"],
  ["RTL override", "\u202ecancel"],
  ["right-to-left text", "إلغاء الاشتراك"],
  ["full-width syntax", "＂ＮＥＡＲ（ａ　ｂ）＂"],
  ["CJK punctuation", "「取消」『订阅』。"],
  ["only digits", "0054"],
  ["long number", "9".repeat(500)],
  ["a 10,000-character query", "cancel subscription ".repeat(500)],
  ["10,000 distinct words", Array.from({ length: 1500 }, (_, i) => `w${i}`).join(" ")],
  ["10,000 x", "x".repeat(10_000)],
  ["connector soup", "-_-.-/-@-:-"],
  ["hyphen run", "a---b"],
  ["dots", "...."],
  ["url with query", 'https://example.com/?q="x"&a=(b)'],
  ["markdown", "**cancel** `subscription` [link](x)"],
  ["html", "<script>alert('x')</script>"],
  ["json", '{"query": "cancel"}'],
];

const setup = smallCorpusEngine();

describe(`${HOSTILE.length} hostile queries never reach SQLite as syntax`, () => {
  it("has at least 50 cases", () => expect(HOSTILE.length).toBeGreaterThanOrEqual(50));

  it.each(HOSTILE)("%s", async (_name, query) => {
    const lexical = setup.engine.search(query);
    expect(Array.isArray(lexical.results)).toBe(true);
    expect((await setup.engine.vsearch(query)).results).toBeInstanceOf(Array);
    for (const tier of ["fast", "balanced", "thorough"] as const) {
      const r = await setup.engine.query(query, { tier });
      expect(r.results).toBeInstanceOf(Array);
      expect(r.results.length).toBeLessThanOrEqual(10);
    }
  });

  it("still finds the document when the syntax wraps real words", () => {
    for (const q of [
      '"cancel your subscription"',
      "NEAR(cancel subscription)",
      "title:cancel",
      "-cancel",
      "cancel*",
      "(cancel)",
      "cancel'; DROP TABLE documents; --",
    ]) {
      expect(setup.engine.search(q).results[0]?.docId, q).toBe("en/billing.md");
    }
  });

  it("returns an empty list, with a note in the trace, when nothing is searchable", () => {
    const r = setup.engine.search("😀🎉");
    expect(r.results).toEqual([]);
    expect(r.trace[0]!.note).toMatch(/no searchable terms/);
  });

  it("says in the trace when a long query was cut", () => {
    const r = setup.engine.search(Array.from({ length: 1500 }, (_, i) => `w${i}`).join(" "));
    expect(r.trace[0]!.note).toMatch(/terms beyond the first 64 were ignored/);
  });
});
