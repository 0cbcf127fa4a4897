import { describe, expect, it } from "vitest";
import { detectLanguage } from "./language.js";

describe("detectLanguage", () => {
  it.each([
    ["How do I cancel my subscription?", "en"],
    ["Wie kündige ich mein Abo?", "de"],
    ["Comment résilier mon abonnement ?", "fr"],
    ["Come posso disdire il mio abbonamento?", "it"],
    ["取消订阅", "zh"],
    ["サブスクリプションの解約", "ja"],
    ["구독 해지", "ko"],
  ])("%s → %s", (text, lang) => expect(detectLanguage(text)).toBe(lang));

  it("says nothing when there is no evidence", () => {
    expect(detectLanguage("DEC-0054")).toBeUndefined();
    expect(detectLanguage("")).toBeUndefined();
    expect(detectLanguage("😀")).toBeUndefined();
  });
});
