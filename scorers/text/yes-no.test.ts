import { describe, expect, it } from "vitest";
import { isYesNoQuestion, yesNoAnswer } from "./yes-no.js";

describe("yes/no answers", () => {
  it("start with a yes or no word of a known language, alone or before punctuation; rest is what follows", () => {
    expect(yesNoAnswer("No.")).toEqual({ polarity: "no", rest: "" });
    expect(yesNoAnswer("Yes, each code works once [1].")).toEqual({ polarity: "yes", rest: "each code works once ." });
    expect(yesNoAnswer("**Oui** — c'est gratuit")).toEqual({ polarity: "yes", rest: "c'est gratuit" });
    expect(yesNoAnswer("Nein")).toEqual({ polarity: "no", rest: "" });
  });

  it("are not sentences that merely start with such a word", () => {
    expect(yesNoAnswer("No one can read your files.")).toBeNull();
    expect(yesNoAnswer("Non è possibile.")).toBeNull();
    expect(yesNoAnswer("Tessera creates 10 codes.")).toBeNull();
  });
});

describe("yes/no questions", () => {
  it("start with a verb (or French est-ce que, an inverted pronoun)", () => {
    for (const q of ["Can I share a folder?", "Kann ich teilen?", "Est-ce que je peux partager ?", "Peut-on partager ?", "È possibile?"])
      expect(isYesNoQuestion(q), q).toBe(true);
    for (const q of ["How many codes do I get?", "Wie viele Codes?", "Combien de codes ?"]) expect(isYesNoQuestion(q), q).toBe(false);
  });
});
