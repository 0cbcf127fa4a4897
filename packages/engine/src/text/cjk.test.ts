import { describe, expect, it } from "vitest";
import {
  analyzeDocumentText,
  analyzeQuery,
  buildMatchExpression,
  indexTerms,
  matchingTerms,
  resolveAnalyzer,
  type AnalyzerConfig,
} from "./analyze.js";
import { CJK_STRATEGIES, cjkUnits, type CjkStrategy } from "./cjk.js";

const config = (cjk: CjkStrategy): AnalyzerConfig => resolveAnalyzer({ cjk });
const terms = (text: string, cjk: CjkStrategy = "bigram"): string[] => indexTerms(text, undefined, config(cjk)).split(" ").filter(Boolean);
const match = (q: string, cjk: CjkStrategy = "bigram"): string =>
  buildMatchExpression(matchingTerms(analyzeQuery(q, { languages: ["en"], config: config(cjk) })));

describe("CJK normalization: every written form of a run gives the same terms", () => {
  it.each([
    ["decomposed (NFD) kana", "バージョン履歴".normalize("NFD"), "バージョン履歴"],
    ["decomposed (NFD) Hangul", "휴지통에서 복원".normalize("NFD"), "휴지통에서 복원"],
    ["half-width katakana with voicing marks", "ｻﾌﾞｽｸﾘﾌﾟｼｮﾝ", "サブスクリプション"],
    ["half-width katakana with the prolonged sound mark", "ﾀﾞｳﾝﾛｰﾄﾞ", "ダウンロード"],
    ["a CJK compatibility ideograph (U+F93F)", "版本紀\uF93F", "版本紀錄"],
    ["full-width Latin and digits inside CJK text", "错误代码Ｅ－４０１２", "错误代码E-4012"],
  ])("%s", (_what, written, composed) => {
    for (const strategy of CJK_STRATEGIES) {
      expect(terms(written, strategy), strategy).toEqual(terms(composed, strategy));
      expect(match(written, strategy), strategy).toBe(match(composed, strategy));
    }
  });

  it("keeps the source offsets of each grapheme, so snippets point at the written text", () => {
    const written = "ｻﾌﾞｽｸ 解約";
    const { tokens } = analyzeDocumentText(written, "ja");
    expect(tokens.map((t) => t.term)).toEqual(["サブ", "ブス", "スク", "解約"]);
    expect(tokens.map((t) => written.slice(t.start, t.end))).toEqual(["ｻﾌﾞ", "ﾌﾞｽ", "ｽｸ", "解約"]);
    const nfd = "バス".normalize("NFD");
    expect(cjkUnits(nfd)).toEqual([
      { ch: "バ", start: 0, end: 2 },
      { ch: "ス", start: 2, end: 3 },
    ]);
  });

  it("never produces an empty term from a lone combining mark", () => {
    for (const strategy of CJK_STRATEGIES) {
      expect(
        terms("\u3099", strategy).every((t) => t !== ""),
        strategy,
      ).toBe(true);
      expect(match("ハ\u3099ス", strategy)).not.toContain('""');
    }
  });
});

describe("mixed scripts and identifiers inside CJK text", () => {
  it("splits at script changes and keeps the identifier's joined form", () => {
    expect(terms("错误代码E-4012表示文件过大")).toEqual([
      "错误",
      "误代",
      "代码",
      "e",
      "4012",
      "表示",
      "示文",
      "文件",
      "件过",
      "过大",
      "e4012",
    ]);
    expect(terms("Tessera同期")).toEqual(["tessera", "同期"]);
    expect(terms("API키")).toEqual(["api", "키"]);
    expect(terms("config.yaml의 위치")).toEqual(["config", "yaml", "의", "위치", "configyaml"]);
  });

  it("finds an identifier written inside CJK text by the identifier alone", () => {
    expect(match("E4012")).toBe('("e4012" OR "e 4012")');
    expect(terms("错误代码E-4012")).toContain("e4012");
  });

  it("treats CJK punctuation as a boundary", () => {
    expect(terms("「閲覧のみ」とは？")).toEqual(terms("閲覧のみ とは"));
    expect(terms("設定→プラン→解約")).toEqual(terms("設定 プラン 解約"));
  });
});

describe("strategies", () => {
  it("bigram: overlapping pairs, a lone character as itself", () => {
    expect(terms("取消订阅")).toEqual(["取消", "消订", "订阅"]);
    expect(terms("猫")).toEqual(["猫"]);
    expect(match("取消订阅")).toBe('"取消" OR "消订" OR "订阅"');
  });

  it("unigram+bigram: the bigrams, then every character as an extra term", () => {
    expect(terms("取消订阅", "unigram+bigram")).toEqual(["取消", "消订", "订阅", "取", "消", "订", "阅"]);
    expect(match("订阅", "unigram+bigram")).toBe('"订阅" OR "订" OR "阅"');
  });

  it("segmenter: dictionary words; a Korean word keeps its particle", () => {
    expect(terms("取消订阅后文件仍然保留", "segmenter")).toEqual(["取消", "订阅", "后", "文件", "仍然", "保留"]);
    expect(terms("二段階認証を設定する", "segmenter")).toEqual(["二", "段階", "認証", "を", "設定", "する"]);
    expect(terms("구독을 해지", "segmenter")).toEqual(["구독을", "해지"]);
  });

  it("trigram: trigrams plus the last bigram and character; short query runs become prefix queries", () => {
    expect(terms("取消订阅", "trigram")).toEqual(["取消订", "消订阅", "订阅", "阅"]);
    expect(match("取消订阅", "trigram")).toBe('"取消订" OR "消订阅"');
    expect(match("订阅", "trigram")).toBe('"订阅"*');
    expect(match("QR 碼", "trigram")).toBe('"qr" OR "碼"*');
  });

  it("rejects an unknown strategy or option with a message that names it", () => {
    expect(() => resolveAnalyzer({ cjk: "unigram" as never })).toThrow(
      'Expected analyzer "cjk" to be one of bigram, unigram+bigram, segmenter, trigram, got "unigram"',
    );
    expect(() => resolveAnalyzer({ cjkk: "bigram" } as never)).toThrow('Unknown analyzer option "cjkk" (known: stemLanguages, cjk)');
    expect(() => resolveAnalyzer({ toString: "x" } as never)).toThrow(/Unknown analyzer option "toString"/);
  });
});
