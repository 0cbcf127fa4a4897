import { describe, expect, it } from "vitest";
import type { TraceStage } from "@hybrid-search/engine";
import { askCase, askResult, failed, refused, source } from "./test-data/ask.js";
import { diagnose, formatDiagnosis, goldenSetWarning, goldenSetWarnings } from "./diagnosis.js";

const KUENDIGUNG = "de/abrechnung/monatsabo-kuendigen.md";
const CANCEL_EN = "en/billing/cancel-monthly-plan.md";
const NEWS = "de/neuigkeiten/jahresrueckblick-2024.md";
const PRICES = "de/abrechnung/tarife-und-preise.md";

const kuendigung = source(
  1,
  KUENDIGUNG,
  "Ihr bezahlter Tarif läuft bis zum Ende des laufenden Abrechnungsmonats. Danach gilt der Free-Tarif mit 5 GB.",
  "de",
);
const news = source(1, NEWS, "Wer kündigt, sieht jetzt auf einen Blick, bis wann der bezahlte Tarif noch läuft.", "de");
const prices = source(2, PRICES, "Family kostet 14,99 € pro Monat.", "de");
const cancelEn = source(2, CANCEL_EN, "Your paid plan stays active until the end of the current billing month.");

const c = askCase({
  id: "a-002",
  language: "de",
  question: "Bis wann kann ich den bezahlten Tarif nach der Kündigung noch nutzen?",
  expectedSubstrings: ["Abrechnungsmonat"],
  expectedTopics: ["Ende des laufenden Abrechnungsmonats", "danach Free-Tarif mit 5 GB"],
  mustCite: [KUENDIGUNG],
});
const translations = new Map([
  [KUENDIGUNG, [CANCEL_EN]],
  [CANCEL_EN, [KUENDIGUNG]],
]);

function list(stage: TraceStage["stage"], ids: string[]): TraceStage {
  return { stage, input: { name: stage }, output: ids.map((docId, i) => ({ docId, score: 1 / (i + 1), rank: i + 1 })), start: 0, end: 1 };
}

/** The retrieval trace of an ask() whose reranker moved KUENDIGUNG from 2 to 3, below the two sources kept. */
const lostAtRerank = [
  list("bm25", [NEWS, KUENDIGUNG, PRICES]),
  list("vector", [PRICES, NEWS]),
  list("fusion", [NEWS, KUENDIGUNG, PRICES]),
  list("rerank", [NEWS, PRICES, KUENDIGUNG]),
];

describe("diagnose", () => {
  it("names an answerer failure as error, not as a quality verdict", () => {
    const d = diagnose(c, failed([kuendigung]), { translations });
    expect(d.verdict).toBe("error");
    expect(d.reasons[0]).toMatch(/^the answerer failed: .*503/);
  });

  it("passes when every applicable check passes", () => {
    const d = diagnose(c, askResult("Bis zum Ende des Abrechnungsmonats [1].", [kuendigung], { question: c.question }), { translations });
    expect(d.verdict).toBe("pass");
    expect(formatDiagnosis(d)).toBe("pass");
  });

  it("blames retrieval when a mustCite document was not retrieved, naming it and the stage that lost it", () => {
    const result = askResult("Wer kündigt, sieht es auf einen Blick [1].", [news, prices], { question: c.question, trace: lostAtRerank });
    const d = diagnose(c, result, { translations });
    expect(d.verdict).toBe("retrieval");
    expect(d.unsurfaced).toEqual([KUENDIGUNG]);
    expect(d.reasons[0]).toBe(
      `unsurfaced: ${KUENDIGUNG} (lost at rerank (rerank moved it 2 → 3); bm25 #2, vector —, fusion #2, rerank #3)`,
    );
    expect(d.failed.map((f) => f.grader)).toEqual(["answer-includes", "cites"]);
    expect(formatDiagnosis(d)).toMatch(/^retrieval: unsurfaced: de\/abrechnung/);
  });

  it("counts a retrieved translation as retrieved (then the failure is generation's), unless translations are off", () => {
    const result = askResult("Wer kündigt, sieht es auf einen Blick [1].", [news, cancelEn], { question: c.question });
    expect(diagnose(c, result, { translations }).verdict).toBe("generation");
    expect(diagnose(c, result, { acceptTranslations: false }).verdict).toBe("retrieval");
  });

  it("blames generation when the right source was retrieved but the answer failed, with the failed checks", () => {
    const result = askResult("Wer kündigt, sieht es auf einen Blick [1].", [news, { ...kuendigung, ref: 2 }], { question: c.question });
    const d = diagnose(c, result, { translations });
    expect(d.verdict).toBe("generation");
    expect(d.reasons).toEqual([
      `every mustCite document was retrieved (or a translation): ${KUENDIGUNG}`,
      'answer-includes 0: missing "Abrechnungsmonat"',
      `cites 0: does not cite ${KUENDIGUNG}`,
    ]);
  });

  it("names the evidence gate when it refused although the sources were there", () => {
    const result = refused([kuendigung], {
      question: c.question,
      evidence: { coverage: 0.31, threshold: 0.4, sufficient: false, bestRef: 1 },
    });
    const d = diagnose(c, result, { translations });
    expect(d.verdict).toBe("generation");
    expect(d.reasons).toContain("refused by the evidence gate: coverage 0.31 < threshold 0.4");
    expect(d.reasons).toContain("refusal 0: refused (insufficient-evidence) but the case expects an answer");
  });

  it("calls an answered off-corpus question a generation failure (retrieval cannot supply a refusal)", () => {
    const offCorpus = askCase({ id: "a-023", category: "off-corpus", expectedRefusal: true });
    const d = diagnose(offCorpus, askResult("Call us on +1 555 0100 [1].", [{ ...prices, ref: 1 }]), { translations });
    expect(d.verdict).toBe("generation");
    expect(d.reasons).toEqual(["refusal 0: answered but the case expects a refusal"]);
  });

  it("blames retrieval when a case without mustCite got nothing relevant", () => {
    const open = askCase({ id: "x-1", question: "How many recovery codes do I get?", expectedSubstrings: ["10"] });
    const d = diagnose(open, askResult("Family kostet 14,99 € [1].", [prices]), { translations });
    expect(d.verdict).toBe("retrieval");
    expect(d.reasons[0]).toMatch(/^nothing relevant retrieved: the best of 1 sources holds 0 of the question's terms/);
  });

  it("blames retrieval for a multi-document case that lost one of its documents", () => {
    const open = askCase({ id: "x-2", language: "de", mustCite: [KUENDIGUNG, PRICES], expectedSubstrings: ["14,99"] });
    const result = askResult("Family kostet 14,99 € [2].", [news, prices], { trace: lostAtRerank });
    const d = diagnose(open, result, { translations: new Map() });
    expect(d.failed.map((f) => f.grader)).toEqual(["cites"]);
    expect(d.verdict).toBe("retrieval");
    expect(d.unsurfaced).toEqual([KUENDIGUNG]);
  });
});

describe("golden-set sanity", () => {
  it("is quiet when the expected answer shares vocabulary with the retrieved context", () => {
    expect(goldenSetWarning(c, askResult("x", [kuendigung]))).toBeNull();
  });

  it("warns when the expected answer shares almost none, naming the counts and languages", () => {
    const w = goldenSetWarning(c, askResult("x", [cancelEn]));
    expect(w).not.toBeNull();
    expect(w!.share).toBeLessThan(0.2);
    expect(w!.message).toMatch(
      /^a-002: the expected answer shares \d+\/\d+ content terms with the 1 retrieved sources \(.* expected in de, sources in en\)/,
    );
    expect(w!.missing).toContain("abrechnungsmonat");
  });

  it("warns when nothing was retrieved, and says nothing for a case without an expected answer", () => {
    expect(goldenSetWarning(c, askResult("x", []))!.message).toBe(
      "a-002: nothing was retrieved, so the expected answer cannot be checked against any context",
    );
    expect(goldenSetWarning(askCase({ expectedRefusal: true, category: "off-corpus" }), askResult("x", []))).toBeNull();
  });

  it("collects the warnings of a run", () => {
    const warnings = goldenSetWarnings([
      { case: c, result: askResult("x", [kuendigung]) },
      { case: c, result: askResult("x", [cancelEn]) },
    ]);
    expect(warnings).toHaveLength(1);
    expect(goldenSetWarnings([{ case: c, result: askResult("x", [cancelEn]) }], 0)).toHaveLength(0);
  });
});
