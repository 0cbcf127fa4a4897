// The fixture answer cases (fixtures/ask-cases.json) against the graders that grade them: every
// expected fact can be found, the translation groups count for citations, each grader gets exactly
// the cases it applies to, and no fixture case can make a grader leave [0, 1].
import { describe, expect, it } from "vitest";
import { casesFor, citesScore, GRADERS } from "../scorers/answer/index.js";
import { allGraders, askCase, askResult, failed, inUnit, random, refused, source } from "../scorers/test-data/ask.js";
import { factsIn } from "../scorers/text/contains-fact.js";
import { fixtureTranslationMap, loadAskCases, readCorpusDoc } from "./fixture-files.js";

const TWO_FA = source(1, "en/security/two-factor-authentication.md", "Tessera creates 10 recovery codes. Each code works once.");
const TWO_FA_DE = source(2, "de/sicherheit/zwei-faktor-authentifizierung.md", "Tessera erstellt 10 Wiederherstellungscodes.", "de");
const PLANS = source(3, "en/billing/plans-and-pricing.md", "Personal costs €9.99 per month.");

describe("fixture answer cases and the graders", () => {
  it("finds every fixture expectedSubstring in one of its mustCite docs, so a correct answer can pass", () => {
    for (const c of loadAskCases()) {
      const docs = (c.mustCite ?? []).map((d) => factsIn(readCorpusDoc(d)));
      for (const s of c.expectedSubstrings ?? [])
        expect(
          docs.some((contains) => contains(s)),
          `${c.id}: ${s}`,
        ).toBe(true);
    }
  });

  it("accepts a translation of a required document under the fixture translation groups", () => {
    const fixtureCase = askCase({ mustCite: ["en/security/two-factor-authentication.md"] });
    const g = citesScore(fixtureCase, askResult("10 Codes [2].", [TWO_FA, TWO_FA_DE]), { translations: fixtureTranslationMap() });
    expect(g.score).toBe(1);
  });

  it("casesFor gives each grader exactly the fixture cases it applies to", () => {
    const cases = loadAskCases();
    expect(casesFor("refusal", cases)).toHaveLength(cases.length);
    const includes = casesFor("answer-includes", cases);
    expect(includes.length).toBeGreaterThan(0);
    expect(includes.every((c) => (c.expectedSubstrings?.length ?? 0) > 0)).toBe(true);
    expect(casesFor("answer-excludes", cases).map((c) => c.category)).toEqual(expect.arrayContaining(["injection"]));
    expect(casesFor("cites", cases).some((c) => c.expectedRefusal)).toBe(false);
  });

  it("keeps every score in [0, 1] on random answers to every fixture case (property)", () => {
    const rand = random(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const words = [
      "10",
      "[1]",
      "[2, 3]",
      "[12]",
      "éditeur",
      "E\u0301DITEUR",
      "every plan is free",
      "Abrechnungsmonats",
      ".",
      "\n- ",
      "7\u202fjours",
      "",
      "100",
      "recovery codes",
      "日本語",
      "🙂",
    ];
    const docs = [TWO_FA, TWO_FA_DE, PLANS];
    for (const c of loadAskCases()) {
      for (let i = 0; i < 20; i++) {
        const answer = Array.from({ length: Math.floor(rand() * 12) }, () => pick(words)).join(" ");
        const sources = docs.filter(() => rand() < 0.6).map((s, j) => ({ ...s, ref: j + 1 }));
        const roll = rand();
        const result = roll < 0.15 ? failed(sources) : roll < 0.35 ? refused(sources) : askResult(answer, sources);
        for (const [id, score] of allGraders(fixtureTranslationMap())) {
          if (!GRADERS[id].appliesTo(c)) continue;
          const g = score(c, result);
          expect(inUnit(g.score), `${id} on ${c.id}: ${g.score}`).toBe(true);
          expect(g.metadata.method).toBe("heuristic");
        }
      }
    }
  });
});
