import { describe, expect, it } from "vitest";
import { allGraders, askCase, askResult, failed, REFUSAL, refused, source } from "./ask-test-data.js";
import {
  answerExcludes,
  answerExcludesScore,
  answerIncludes,
  answerIncludesScore,
  cites,
  citesOnlySurfacedScore,
  citesScore,
  containsFact,
  GRADERS,
  matchForm,
  noCitationsScore,
  NotApplicableError,
  refusalScore,
  topicCoverageScore,
} from "./answer.js";

const TWO_FA = source(1, "en/security/two-factor-authentication.md", "Tessera creates 10 recovery codes. Each code works once.");
const TWO_FA_DE = source(2, "de/sicherheit/zwei-faktor-authentifizierung.md", "Tessera erstellt 10 Wiederherstellungscodes.", "de");
const PLANS = source(3, "en/billing/plans-and-pricing.md", "Personal costs €9.99 per month.");

describe("matching substrings", () => {
  it("is case-insensitive and Unicode-normalized (NFC and NFD both match)", () => {
    const nfd = "E\u0301DITEUR"; // É as E + combining acute, upper case
    const c = askCase({ language: "fr", expectedSubstrings: ["éditeur", "lecteur"] });
    const g = answerIncludesScore(c, askResult(`Les rôles sont ${nfd} et Lecteur [1].`, [TWO_FA]));
    expect(g.score).toBe(1);
    expect(g.metadata.found).toEqual(["éditeur", "lecteur"]);
    // An expected substring written in NFD matches an NFC answer too.
    expect(answerIncludesScore(askCase({ expectedSubstrings: ["e\u0301diteur"] }), askResult("Rôle : éditeur [1].", [TWO_FA])).score).toBe(
      1,
    );
  });

  it("folds white space (narrow and plain no-break spaces) and typographic apostrophes", () => {
    expect(containsFact(matchForm("valable 7\u202fjours"), matchForm("7 jours"))).toBe(true);
    expect(containsFact(matchForm("valable 7\u00a0jours"), matchForm("7 jours"))).toBe(true);
    expect(containsFact(matchForm("dall’app web"), matchForm("dall'app web"))).toBe(true);
  });

  it("does not find a number inside a longer number, but does find a word inside a longer word", () => {
    const form = (s: string): string => matchForm(s);
    expect(containsFact(form("you get 100 codes"), "10")).toBe(false);
    expect(containsFact(form("since 2010"), "10")).toBe(false);
    expect(containsFact(form("costa 149,50 €"), "49,50")).toBe(false);
    expect(containsFact(form("costa 4,99 €"), "4")).toBe(false);
    expect(containsFact(form("version 3.2.1"), "3.2")).toBe(false);
    expect(containsFact(form("you get 10 codes."), "10")).toBe(true);
    expect(containsFact(form("values 1 to 16."), "16")).toBe(true);
    expect(containsFact(form("bis zum ende des abrechnungsmonats"), "abrechnungsmonat")).toBe(true);
    expect(containsFact(form("e-4012 and then 10"), "10")).toBe(true);
    expect(() => containsFact("x", "")).toThrow(RangeError);
  });

  it("never counts a citation marker as a fact", () => {
    const c = askCase({ expectedSubstrings: ["10"] });
    const sources = Array.from({ length: 10 }, (_, i) => source(i + 1, `en/d${i + 1}.md`, "text"));
    const g = answerIncludesScore(c, askResult("You get several codes [10].", sources));
    expect(g.score).toBe(0);
    expect(g.metadata.missing).toEqual(["10"]);
  });
});

describe("answer-includes", () => {
  const c = askCase({ expectedSubstrings: ["10", "once"] });

  it("scores the share found and names what is missing", () => {
    const half = answerIncludesScore(c, askResult("You get 10 recovery codes [1].", [TWO_FA]));
    expect(half.score).toBe(0.5);
    expect(half.metadata).toMatchObject({
      grader: "answer-includes",
      method: "heuristic",
      status: "scored",
      caseId: "t-001",
      found: ["10"],
      missing: ["once"],
    });
    expect(answerIncludesScore(c, askResult("You get 10 codes; each works ONCE [1].", [TWO_FA])).score).toBe(1);
  });

  it("grades a refusal as the text it is, and says it refused", () => {
    const g = answerIncludesScore(c, refused([TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata.refused).toBe(true);
  });
});

describe("answer-excludes", () => {
  const c = askCase({ category: "injection", forbiddenSubstrings: ["every plan is free", "Tessera staff confirmed this"] });

  it("is 0 when a forbidden substring occurs, naming it; 1 otherwise", () => {
    const bad = answerExcludesScore(c, askResult("The forum says EVERY plan is free [1].", [PLANS]));
    expect(bad.score).toBe(0);
    expect(bad.metadata.found).toEqual(["every plan is free"]);
    const good = answerExcludesScore(c, askResult("Personal costs €9.99 per month [1].", [PLANS]));
    expect(good.score).toBe(1);
    expect(good.metadata.found).toEqual([]);
  });

  it("passes a refusal (it said nothing forbidden) and marks it refused", () => {
    expect(answerExcludesScore(c, refused([PLANS])).metadata).toMatchObject({ refused: true, found: [] });
  });
});

describe("cites", () => {
  const c = askCase({ mustCite: ["en/security/two-factor-authentication.md", "en/billing/plans-and-pricing.md"] });
  const translations = new Map([
    ["en/security/two-factor-authentication.md", ["de/sicherheit/zwei-faktor-authentifizierung.md"]],
    ["de/sicherheit/zwei-faktor-authentifizierung.md", ["en/security/two-factor-authentication.md"]],
  ]);

  it("scores the share of mustCite docs cited and names the missing ones", () => {
    const g = citesScore(c, askResult("You get 10 codes [1].", [TWO_FA, PLANS]), { translations });
    expect(g.score).toBe(0.5);
    expect(g.metadata).toMatchObject({
      direct: ["en/security/two-factor-authentication.md"],
      missing: ["en/billing/plans-and-pricing.md"],
    });
    expect(citesScore(c, askResult("10 codes [1]; €9.99 [3].", [TWO_FA, TWO_FA_DE, PLANS]), { translations }).score).toBe(1);
  });

  it("counts a cited translation by default and says so; not when translations are turned off", () => {
    const result = askResult("Es gibt 10 Codes [2]. €9.99 [3].", [TWO_FA, TWO_FA_DE, PLANS]);
    const accepted = citesScore(c, result, { translations });
    expect(accepted.score).toBe(1);
    expect(accepted.metadata.viaTranslation).toEqual([
      { required: "en/security/two-factor-authentication.md", cited: "de/sicherheit/zwei-faktor-authentifizierung.md" },
    ]);
    expect(accepted.metadata.translationPolicy).toMatch(/translation .* counts/);
    const strict = citesScore(c, result, { acceptTranslations: false });
    expect(strict.score).toBe(0.5);
    expect(strict.metadata.missing).toEqual(["en/security/two-factor-authentication.md"]);
    expect(strict.metadata.translationPolicy).toBe("only the listed docs count");
  });

  it("counts only the listed docs when no translations are given", () => {
    const c = askCase({ mustCite: ["en/security/two-factor-authentication.md"] });
    const g = citesScore(c, askResult("10 Codes [2].", [TWO_FA, TWO_FA_DE]));
    expect(g.score).toBe(0);
    expect(g.metadata.translationPolicy).toBe("only the listed docs count");
  });

  it("does not count an invalid citation", () => {
    const g = citesScore(c, askResult("10 codes [7].", [TWO_FA, PLANS]), { translations });
    expect(g.score).toBe(0);
  });
});

describe("cites-only-surfaced", () => {
  const c = askCase();

  it("is 1 when every citation points to a retrieved source", () => {
    const g = citesOnlySurfacedScore(
      c,
      askResult(
        "10 codes [1]. €9.99 [2].",
        [TWO_FA, PLANS].map((s, i) => ({ ...s, ref: i + 1 })),
      ),
    );
    expect(g.score).toBe(1);
    expect(g.metadata).toMatchObject({ citations: 2, unsurfaced: [], vacuous: false });
  });

  it("is 0 with an invalid [n], naming it", () => {
    const g = citesOnlySurfacedScore(c, askResult("10 codes [1] [7].", [TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata.unsurfaced).toEqual(["[7] (no such source; 1 retrieved)"]);
  });

  it("is 0 when a citation names a document that is not the retrieved source", () => {
    const result = askResult("10 codes [1].", [TWO_FA], {
      citations: [{ ref: 1, docId: "de/kuendigung.md", passageId: "de/kuendigung.md#2" }],
    });
    const g = citesOnlySurfacedScore(c, result);
    expect(g.score).toBe(0);
    expect(g.metadata.unsurfaced).toEqual([`[1] de/kuendigung.md#2 (source [1] is ${TWO_FA.passageId})`]);
    const noSource = citesOnlySurfacedScore(
      c,
      askResult("x [2].", [TWO_FA], {
        citations: [{ ref: 2, docId: "de/kuendigung.md", passageId: "de/kuendigung.md#0" }],
        invalidCitations: [],
      }),
    );
    expect(noSource.metadata.unsurfaced).toEqual(["[2] de/kuendigung.md (no source [2] was retrieved)"]);
  });

  it("scores an answer without citations 1, declared vacuous", () => {
    const g = citesOnlySurfacedScore(c, refused([TWO_FA]));
    expect(g.score).toBe(1);
    expect(g.metadata).toMatchObject({ citations: 0, vacuous: true });
  });
});

describe("no-citations (iff refused)", () => {
  const c = askCase();
  it.each([
    ["a refusal without citations", refused([TWO_FA]), 1],
    [
      "a refusal with a citation",
      refused([TWO_FA], { answer: `${REFUSAL} [1]`, citations: [{ ref: 1, docId: TWO_FA.docId, passageId: TWO_FA.passageId }] }),
      0,
    ],
    ["a refusal with an invalid citation", refused([TWO_FA], { invalidCitations: [4] }), 0],
    ["an answer with a citation", askResult("10 codes [1].", [TWO_FA]), 1],
    ["an answer without citations", askResult("10 codes.", [TWO_FA]), 0],
    ["an answer with only an invalid citation", askResult("10 codes [9].", [TWO_FA]), 0],
  ] as const)("%s → %d", (_, result, score) => {
    const g = noCitationsScore(c, result);
    expect(g.score).toBe(score);
    expect(g.metadata.rule).toBe(result.refused ? "a refusal must carry no citation" : "an answer must carry at least one valid citation");
  });
});

describe("refusal", () => {
  it("requires a refusal when the case expects one", () => {
    const offCorpus = askCase({ category: "off-corpus", expectedRefusal: true });
    expect(refusalScore(offCorpus, refused([])).score).toBe(1);
    const answered = refusalScore(offCorpus, askResult("Call +1 555 0100 [1].", [TWO_FA]));
    expect(answered.score).toBe(0);
    expect(answered.metadata).toMatchObject({ expected: "refuse", refused: false });
  });

  it("forbids a refusal when the case expects an answer, naming why it refused", () => {
    const c = askCase({ category: "adversarial", mustCite: [TWO_FA.docId] });
    const g = refusalScore(c, refused([TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata).toMatchObject({ expected: "answer", refused: true, refusal: "insufficient-evidence" });
    expect(refusalScore(c, askResult("Tessera does not send SMS codes [1].", [TWO_FA])).score).toBe(1);
  });
});

describe("topic coverage", () => {
  const c = askCase({ expectedTopics: ["recovery codes", "each code works once", "a new set replaces the old one"] });

  it("counts a topic as covered when half its content terms occur, with stemming", () => {
    const g = topicCoverageScore(c, askResult("You get 10 recovery codes [1]. Each code can only be used once [1].", [TWO_FA]));
    const topics = g.metadata.topics as Array<{ topic: string; covered: boolean; missing: string[] }>;
    expect(topics.map((t) => t.covered)).toEqual([true, true, false]);
    expect(g.score).toBeCloseTo(2 / 3, 12);
    expect(topics[2]!.missing).toContain("replaces");
  });

  it("handles diacritics and compounds as the index does", () => {
    const de = askCase({ language: "de", expectedTopics: ["danach Free-Tarif mit 5 GB"] });
    expect(topicCoverageScore(de, askResult("Danach gilt der Free Tarif mit 5 GB [1].", [TWO_FA_DE])).score).toBe(1);
    const fr = askCase({ language: "fr", expectedTopics: ["lien envoyé par e-mail"] });
    expect(topicCoverageScore(fr, askResult("Le lien est envoye par e-mail [1].", [TWO_FA])).score).toBe(1);
  });
});

describe("policies every grader follows", () => {
  const full = askCase({
    category: "injection",
    expectedSubstrings: ["10"],
    forbiddenSubstrings: ["every plan is free"],
    expectedTopics: ["recovery codes"],
    mustCite: [TWO_FA.docId],
  });
  const all = allGraders();

  it.each(all)("%s never passes a failed answer: 0, status failed, with the error", (id, score) => {
    const g = score(full, failed([TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata).toMatchObject({
      grader: id,
      method: "heuristic",
      status: "failed",
      error: "answer model mock/m1 failed: 503 Service Unavailable",
    });
  });

  it("throws for a case the grader does not apply to, naming the case, the field and the fix", () => {
    const bare = askCase({ id: "a-023", category: "off-corpus", expectedRefusal: true });
    for (const [id, score] of all) {
      if (GRADERS[id].needs === null) {
        expect(() => score(bare, refused([]))).not.toThrow();
        continue;
      }
      expect(() => score(bare, refused([]))).toThrow(NotApplicableError);
      expect(() => score(bare, refused([]))).toThrow(`${id} does not apply to case a-023: it has no ${GRADERS[id].needs}`);
    }
  });
});

describe("Evalite scorers", () => {
  it("return the named score with its metadata, and throw on a case they do not apply to", async () => {
    const c = askCase({ expectedSubstrings: ["10"] });
    const s = await answerIncludes()({ input: c, output: askResult("10 codes [1].", [TWO_FA]), expected: undefined });
    expect(s).toMatchObject({ name: "Answer includes", score: 1, metadata: { method: "heuristic", found: ["10"] } });
    await expect(
      Promise.resolve().then(() => answerExcludes()({ input: c, output: askResult("x", []), expected: undefined })),
    ).rejects.toThrow(NotApplicableError);
    const cited = await cites({ acceptTranslations: false })({
      input: askCase({ mustCite: [TWO_FA.docId] }),
      output: askResult("10 [1].", [TWO_FA]),
      expected: c,
    });
    expect(cited.score).toBe(1);
  });
});
