// The token overlap's rules (overlap.ts). That grading never reads text with the engine's analyzer
// is a dependency rule (grading-without-engine-analysis, .dependency-cruiser.cjs).
import { describe, expect, it } from "vitest";
import { askResult, source } from "../test-data/ask.js";
import { analyzedText, answerLanguage, guessLanguage, KEY_WEIGHT, termOverlap, weightedOverlap } from "./overlap.js";

const overlap = (text: string, language: string, evidence: string, evidenceLanguage = language) =>
  termOverlap(text, language, [analyzedText(evidence, evidenceLanguage)]);

describe("terms", () => {
  it("are words, each once, without the function words of the text's language", () => {
    expect(overlap("How many recovery codes do I get, and how many codes?", "en", "").terms).toEqual(["many", "recovery", "codes", "get"]);
    expect(overlap("Wie kündige ich den Vertrag?", "de", "").terms).toEqual(["kündige", "vertrag"]);
  });

  it("keep the function words when nothing else is left", () => {
    expect(overlap("Is it?", "en", "it is").terms).toEqual(["is", "it"]);
  });

  it("hold numbers in their one reading, compounds whole and CJK runs as bigrams", () => {
    expect(overlap("costa 49,50 €", "it", "").terms).toEqual(["costa", "49.50"]);
    expect(overlap("max_parallel_uploads und Free-Tarif", "de", "").terms).toEqual(["max_parallel_uploads", "free-tarif"]);
    expect(overlap("取消订阅", "zh", "").terms).toEqual(["取消", "消订", "订阅"]);
    expect(overlap("订", "zh", "").terms).toEqual(["订"]);
  });
});

describe("a term occurs in evidence", () => {
  it("as the same word, diacritics folded", () => {
    expect(overlap("lien envoyé par e-mail", "fr", "Le lien est envoye par e-mail").share).toBe(1);
  });

  it("as a word with the same stem in the evidence's language", () => {
    const o = overlap("each code works once", "en", "Each code can only be used once; the codes work offline");
    expect(o.found).toEqual(["each", "code", "works", "once"]);
    expect(overlap("giorni", "it", "trenta giorno", "it").share).toBe(1);
  });

  it("across languages when the text word's stem equals an evidence stem: cognates and false friends alike", () => {
    expect(overlap("costa", "it", "Personal costs €9.99", "en").found).toEqual(["costa"]);
    expect(overlap("vero", "it", "aller vers le dossier", "fr").found).toEqual(["vero"]);
    expect(overlap("recovery codes", "en", "Wiederherstellungscodes", "de").share).toBe(0);
  });

  it("as a compound: its parts in a row, however joined, or joined as one word", () => {
    expect(overlap("danach Free-Tarif mit 5 GB", "de", "Danach gilt der Free Tarif mit 5 GB").share).toBe(1);
    expect(overlap("e-mail", "en", "send an email").share).toBe(1);
    expect(overlap("email", "en", "send an e-mail").share).toBe(1);
    expect(overlap("Free-Tarif", "de", "Tarif Free").share).toBe(0);
  });

  it("as a number in any convention, or a CJK bigram it holds", () => {
    expect(overlap("costa 49,50", "it", "Personal costs 49.50 a year", "en").share).toBe(1);
    const numbers = overlap("Tessera creates 12 codes", "en", "Tessera creates 10 codes");
    expect(numbers.missing).toEqual(["12"]);
    expect(numbers.missingNumbers).toEqual(["12"]);
    expect(overlap("取消订阅", "zh", "如何取消订阅服务").share).toBe(1);
  });
});

describe("answerLanguage", () => {
  const it_ = source(1, "it/file/cestino.md", "Il file resta nel cestino.", "it");
  const en = source(2, "en/files/trash.md", "Files stay in the trash.", "en");

  it("is the case's or a source's language, whichever's function words the answer uses most", () => {
    expect(answerLanguage(askResult("The file stays in the trash for 30 days [2].", [it_, en]), "it")).toBe("en");
    expect(answerLanguage(askResult("Il file resta nel cestino per 30 giorni [1].", [it_, en]), "it")).toBe("it");
  });

  it("is the case's on a tie or without function words", () => {
    expect(answerLanguage(askResult("30 giorni [1].", [it_, en]), "fr")).toBe("fr");
  });
});

describe("weighted overlap: numbers and names weigh KEY_WEIGHT, words 1", () => {
  const weighted = (text: string, language: string | undefined, evidence: string) =>
    weightedOverlap(text, language, [analyzedText(evidence, language)]);

  it("weighs a missing number as three words", () => {
    const o = weighted("Tessera creates 12 recovery codes.", "en", "Tessera creates 10 recovery codes.");
    expect(o).toMatchObject({ keys: ["12"], missingKeys: ["12"] });
    expect(o.support).toBeCloseTo(4 / (4 + KEY_WEIGHT), 12);
    expect(o.share).toBeCloseTo(4 / 5, 12);
  });

  it("reads names from how the text writes them: acronyms, identifiers, capitals where no sentence starts; not in German", () => {
    // "Support" and "Then" start sentences: not names.
    expect(weighted("Support answers via DDC and E-4012 with Dropbox. Then Tessera.", "en", "").keys).toEqual([
      "ddc",
      "e-4012",
      "dropbox",
      "tessera",
    ]);
    // German capitalises every noun: only the acronym is a name.
    expect(weighted("Der Tarif bleibt bei SAML aktiv.", "de", "").keys).toEqual(["saml"]);
    expect(weighted("", "en", "").support).toBe(0);
  });

  it("leaves out the terms that occur in `except`, unless none would be left", () => {
    const q = [analyzedText("What is the capital of India?", "en")];
    const o = weightedOverlap("The capital of India is New Delhi.", "en", [analyzedText("Delhi", "en")], { except: q });
    expect(o.terms).toEqual(["new", "delhi"]);
    expect(weightedOverlap("capital of India", "en", [], { except: q }).terms).toEqual(["capital", "india"]);
  });
});

describe("guessLanguage", () => {
  it("is the language whose function words a text uses most; undefined with none", () => {
    expect(guessLanguage("Wie kann ich den Vertrag kündigen, und bis wann?")).toBe("de");
    expect(guessLanguage("Combien de temps le lien reste-t-il valable ?")).toBe("fr");
    expect(guessLanguage("10 GB")).toBeUndefined();
  });
});
