// "The answer states the fact": each matching rule of contains-fact.ts on its own.
import { describe, expect, it } from "vitest";
import { containsFact, findFacts } from "./contains-fact.js";

describe("containsFact", () => {
  it("compares grading forms: case, diacritics, compatibility forms, punctuation, white space", () => {
    expect(containsFact("Les rôles : ÉDITEUR et lecteur", "éditeur")).toBe(true);
    expect(containsFact("Gérer l’accès", "gerer l'acces")).toBe(true);
    expect(containsFact("valable 7\u202Fjours", "7 jours")).toBe(true);
    expect(containsFact("Retry\u2011After", "Retry-After")).toBe(true);
    expect(containsFact("１４，９９ €", "14,99")).toBe(true);
  });

  it("finds a fact only at the start of a word", () => {
    expect(containsFact("the happ web", "app web")).toBe(false);
    expect(containsFact("dall'app web", "app web")).toBe(true);
    expect(containsFact("(app web)", "app web")).toBe(true);
    expect(containsFact("Free-Tarif", "Tarif")).toBe(true);
    expect(containsFact("Monatstarif", "Tarif")).toBe(false);
  });

  it("lets the fact's last word continue (inflection), but not an earlier one", () => {
    expect(containsFact("bis zum Ende des Abrechnungsmonats", "Abrechnungsmonat")).toBe(true);
    expect(containsFact("les lecteurs et éditeurs", "lecteur")).toBe(true);
    expect(containsFact("drei Monaten Frist", "drei Monat")).toBe(true);
    expect(containsFact("dreifache Monaten", "drei Monaten")).toBe(false);
  });

  it("keeps numbers whole on both sides", () => {
    expect(containsFact("error E-4010", "10")).toBe(false);
    expect(containsFact("options 1,2,3", "2")).toBe(false);
    expect(containsFact("costs 4.99.", "4.99")).toBe(true);
  });

  it("folds white space (narrow and plain no-break spaces) and typographic apostrophes", () => {
    expect(containsFact("valable 7\u202fjours", "7 jours")).toBe(true);
    expect(containsFact("valable 7\u00a0jours", "7 jours")).toBe(true);
    expect(containsFact("dall’app web", "dall'app web")).toBe(true);
  });

  it("does not find a number inside a longer number, but does find a word inside a longer word", () => {
    expect(containsFact("you get 100 codes", "10")).toBe(false);
    expect(containsFact("since 2010", "10")).toBe(false);
    expect(containsFact("costa 149,50 €", "49,50")).toBe(false);
    expect(containsFact("costa 4,99 €", "4")).toBe(false);
    expect(containsFact("version 3.2.1", "3.2")).toBe(false);
    expect(containsFact("you get 10 codes.", "10")).toBe(true);
    expect(containsFact("values 1 to 16.", "16")).toBe(true);
    expect(containsFact("bis zum ende des abrechnungsmonats", "abrechnungsmonat")).toBe(true);
    expect(containsFact("e-4012 and then 10", "10")).toBe(true);
    expect(() => containsFact("x", "")).toThrow(RangeError);
  });

  it("matches a number in any decimal or grouping convention", () => {
    expect(containsFact("Personal costs €49.50 a year", "49,50")).toBe(true);
    expect(containsFact("bis zu 1.000 Nutzer", "1,000")).toBe(true);
    expect(containsFact("up to 1000 users", "1 000")).toBe(true);
    expect(containsFact("jusqu'à 1\u202F000 utilisateurs", "1 000")).toBe(true);
    expect(containsFact("ab 12 000 Euro", "12000")).toBe(true);
  });

  it("reads a plain space between digit groups both ways, each reading on both sides", () => {
    expect(containsFact("buy 2 100 GB add-ons", "100 GB")).toBe(true);
    expect(containsFact("buy 2 100 GB add-ons", "2100 GB")).toBe(true);
    expect(containsFact("1 000 €", "1 000 €")).toBe(true);
  });

  it("makes the space between a number and a unit or sign optional", () => {
    expect(containsFact("a 5GB video", "5 GB")).toBe(true);
    expect(containsFact("sconto del 50 %", "50%")).toBe(true);
    expect(containsFact("remise de 20%", "20 %")).toBe(true);
  });

  it("asks for no word start where words are written without spaces (CJK)", () => {
    expect(containsFact("如何取消订阅", "订阅")).toBe(true);
    expect(containsFact("使用Tessera同步文件", "Tessera")).toBe(true);
    expect(containsFact("サブスクリプションを解約", "ｻﾌﾞｽｸ")).toBe(true);
    expect(containsFact("구독을 취소하려면", "구독")).toBe(true);
  });

  it("does not fold digits into words, nor transliterate umlauts", () => {
    expect(containsFact("you get ten codes", "10")).toBe(false);
    expect(containsFact("die Gebuehr", "Gebühr")).toBe(false);
  });

  it("refuses an empty fact, which every answer would contain", () => {
    expect(() => containsFact("x", " \u00AD ")).toThrow(/Expected a fact/);
  });
});

describe("findFacts", () => {
  it("splits the facts into found and missing, each as given", () => {
    expect(findFacts("14 giorni, poi 30 Giorni", ["30 giorni", "14 GIORNI", "7 giorni"])).toEqual({
      found: ["30 giorni", "14 GIORNI"],
      missing: ["7 giorni"],
    });
  });
});
