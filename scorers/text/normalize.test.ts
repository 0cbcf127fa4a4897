// One test per rule of the grading form (normalize.ts's header; docs/evals.md, "How answer text is matched").
import { describe, expect, it } from "vitest";
import { canonicalNumber, gradingForm } from "./normalize.js";

const same = (...texts: string[]): void => {
  const forms = texts.map((t) => gradingForm(t));
  expect(new Set(forms).size, `${JSON.stringify(texts)} → ${JSON.stringify(forms)}`).toBe(1);
};
const differ = (a: string, b: string): void => {
  expect(gradingForm(a), `${a} vs ${b}`).not.toBe(gradingForm(b));
};

describe("rule 1: invisible characters and typographic group spaces", () => {
  it("drops soft hyphens, zero-width spaces, word joiners and byte-order marks", () => {
    expect(gradingForm("Ab\u00ADrechnungs\u200Bmonat\u2060\uFEFF")).toBe("abrechnungsmonat");
  });

  it("reads a no-break, narrow no-break, figure or thin space between digit groups as a thousands separator", () => {
    for (const space of ["\u00A0", "\u202F", "\u2007", "\u2009"]) expect(gradingForm(`1${space}000 €`)).toBe("1000 €");
    // Not before a group of three digits: an ordinary space.
    expect(gradingForm("7\u202Fjours")).toBe("7 jours");
    expect(gradingForm("1\u00A000")).toBe("1 00");
  });
});

describe("rule 2: compatibility forms (NFKC)", () => {
  it("folds full-width forms, ligatures, half-width katakana, ſ and NFD text", () => {
    same("１０ ＧＢ", "10 GB");
    same("ﬁle", "file");
    same("ｻﾌﾞｽｸ", "サブスク");
    same("ſ", "s");
    same("E\u0301DITEUR", "éditeur");
  });

  it("keeps superscripts and subscripts, so 10² is not 102", () => {
    expect(gradingForm("10² m³ H₂O")).toBe("10² m³ h₂o");
    differ("10²", "102");
  });
});

describe("rule 3: case folding", () => {
  it("folds what lower case lacks: ß and ẞ to ss, final sigma", () => {
    same("Straße", "STRASSE", "STRAẞE", "strasse");
    same("ΟΔΟΣ", "οδός", "οδοσ");
  });

  it("makes dotted and dotless i one letter (Turkish)", () => {
    same("İSTANBUL", "Istanbul", "ıstanbul", "istanbul");
  });

  it("folds Cherokee to one case", () => {
    same("Ꭰ", "ꭰ");
  });
});

describe("rule 4: diacritics", () => {
  it("drops the marks of Latin and Greek letters", () => {
    same("Kündigung", "Kundigung");
    same("éditeur", "editeur", "ÉDITEUR");
    same("ά", "α");
    same("più", "piu");
  });

  it("folds the Latin letters that do not decompose, not German umlauts to ue", () => {
    expect(gradingForm("Æ Œ Ø Ł Đ Ð Þ Ħ")).toBe("ae oe o l d d th h");
    differ("Gebühr", "Gebuehr");
  });

  it("keeps the marks of other scripts: kana voicing, Cyrillic й and ё, Indic vowel signs", () => {
    differ("が", "か");
    differ("й", "и");
    differ("ё", "е");
    expect(gradingForm("हिन्दी")).toBe("हिन्दी");
  });

  it("can be left out, for the stemmers", () => {
    expect(gradingForm("Kündigung Straße", { diacritics: false })).toBe("kündigung strasse");
  });
});

describe("rule 5: punctuation", () => {
  it("makes every apostrophe ' and every dash and the minus sign -", () => {
    same("dall’app", "dall‘app", "dallʼapp", "dall´app", "dall'app");
    same("1–16", "1—16", "1‐16", "1‑16", "1−16", "1-16");
  });

  it("makes quotation marks and backticks spaces", () => {
    expect(gradingForm("«Gérer l’accès» “Retry-After” „Tarif“ 「取消」 `config.yaml`")).toBe(
      "gerer l'acces retry-after tarif 取消 config.yaml",
    );
  });

  it("keeps other punctuation as written", () => {
    expect(gradingForm("vertrag@tessera.example, tessera-sync.service; max_parallel_uploads!")).toBe(
      "vertrag@tessera.example, tessera-sync.service; max_parallel_uploads!",
    );
    differ("e-mail", "email");
    differ("Free-Tarif", "Free Tarif");
  });
});

describe("rule 6: numbers", () => {
  it("writes grouped whole numbers without their separators, whichever the separator", () => {
    same("1,000", "1.000", "1'000", "1’000", "1\u202F000", "1000");
    same("12,345,678", "12.345.678", "12345678");
  });

  it("reads a plain space between groups only when asked (it is ambiguous)", () => {
    expect(gradingForm("1 000 €")).toBe("1 000 €");
    expect(gradingForm("1 000 €", { spaceGroups: true })).toBe("1000 €");
    expect(gradingForm("buy 2 100 GB", { spaceGroups: true })).toBe("buy 2100 gb");
    expect(gradingForm("1 234,5", { spaceGroups: true })).toBe("1234.5");
    expect(gradingForm("between 10 and 0 100", { spaceGroups: true })).toBe("between 10 and 0 100");
  });

  it("writes the decimal mark as a point, with the grouping before it in any convention", () => {
    same("49,50", "49.50");
    same("1,234.5", "1.234,5", "1'234.5", "1234.5");
    same("0,125", "0.125");
    // One separator before exactly three digits is grouping, in every language alike.
    expect(canonicalNumber("2,500")).toBe("2500");
    expect(canonicalNumber("2.5")).toBe("2.5");
  });

  it("keeps dates, versions and lists as written", () => {
    for (const n of ["01.09.2024", "3.2.1", "1,2,3", "192.168.0.1", "1'5"]) expect(canonicalNumber(n)).toBe(n);
  });

  it("compares decimals and leading zeros as written, and never digits with words", () => {
    differ("49,50", "49.5");
    differ("08:00", "8:00");
    differ("10", "ten");
  });

  it("sets a number one space apart from a letter or symbol next to it", () => {
    same("5GB", "5 GB");
    same("50%", "50 %");
    same("€9.99", "€ 9.99");
    same("9,99€", "9.99 €");
    same("10个", "10 个");
  });
});

describe("rule 7: white space", () => {
  it("folds every run of white space to one space and trims", () => {
    expect(gradingForm("  a \n\t b\u3000c\u00A0d  ")).toBe("a b c d");
  });
});
