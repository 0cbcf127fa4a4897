import { describe, expect, it } from "vitest";
import type { Vocabulary } from "../types.js";
import { DeterministicExpander } from "./deterministic-expander.js";

/** A vocabulary of index terms (already stemmed and folded, as the index holds them). */
function vocabulary(terms: Record<string, number>, languages = ["en", "de"]): Vocabulary {
  return {
    languages,
    documentFrequency: (t) => terms[t] ?? 0,
    similarTerms: (t, maxEdits) =>
      Object.keys(terms)
        .filter((c) => c !== t && distance(c, t) <= maxEdits)
        .sort((a, b) => distance(a, t) - distance(b, t) || terms[b]! - terms[a]!),
  };
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}

const expander = new DeterministicExpander();

describe("DeterministicExpander", () => {
  it("keeps the original query first and adds nothing it cannot justify", () => {
    const e = expander.expandSync("cancel subscription", vocabulary({ cancel: 5, subscript: 4, subscription: 4 }));
    expect(e.lexicalQueries).toEqual(["cancel subscription"]);
    expect(e.vectorQueries).toEqual(["cancel subscription"]);
  });

  it("corrects a misspelled word to a near index term", () => {
    const e = expander.expandSync("cancel subscribtion", vocabulary({ cancel: 5, subscript: 4 }));
    expect(e.lexicalQueries).toContain("cancel subscript");
  });

  it("splits a German compound into indexed words", () => {
    const e = expander.expandSync("Kündigungsfrist", vocabulary({ kundig: 3, kundigung: 3, frist: 2 }, ["de"]));
    expect(e.lexicalQueries).toContain("kündigung frist");
  });

  it("splits compounds only in languages that write them as one word", () => {
    const vocab = vocabulary({ comment: 2, permet: 1, tre: 1, collegu: 2, kundig: 3, kundigung: 3, frist: 2, wie: 1, lang: 1, ist: 1 }, [
      "fr",
      "de",
    ]);
    const french = expander.expandSync("Comment permettre aux collègues", vocab);
    for (const q of french.lexicalQueries) expect(q).not.toContain("permet tre");
    const german = expander.expandSync("Wie lang ist die Kündigungsfrist", vocab);
    expect(german.lexicalQueries).toContain("Wie lang ist die kündigung frist");
  });

  it("spells identifiers joined and spaced", () => {
    const e = expander.expandSync("DEC-0054 retention", vocabulary({ dec: 1, "0054": 1, reten: 2 }));
    expect(e.lexicalQueries).toEqual(["DEC-0054 retention", "DEC0054 retention", "DEC 0054 retention"]);
  });

  it("never rewrites words inside quotes", () => {
    const e = expander.expandSync('"cancel subscribtion" now', vocabulary({ cancel: 5, subscript: 4, now: 1 }));
    for (const q of [...e.lexicalQueries, ...e.vectorQueries]) expect(q).toContain("cancel subscribtion");
  });
});
