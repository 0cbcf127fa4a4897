// Refusals recognised in every fixture language: the engine's own refusals and structured answers
// as they are, free-text answers by the per-language markers of fixtures/refusal-markers.json, and
// the judge deciding what the markers cannot.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { noCitationsScore, refusalScore } from "./answer/index.js";
import { askCase, askResult, mockJudge, refused, source } from "./test-data/ask.js";
import { faithfulnessMetric } from "./triad/index.js";
import { recognizeByMarkers, recognizeRefusal, type RefusalMarkers, refusalMarkerIn } from "./refusal.js";

// The fixture file as shipped (helpers/refusal-markers.test.ts checks that it loads and lints clean).
const markers = (
  JSON.parse(readFileSync(new URL("../fixtures/refusal-markers.json", import.meta.url), "utf8")) as { markers: RefusalMarkers }
).markers;
const SOURCES = [source(1, "en/support/contact.md", "Write to support@tessera.example; we answer within one working day.")];
const offCorpus = askCase({ id: "t-023", category: "off-corpus", expectedRefusal: true, question: "What is the support phone number?" });
const answerable = askCase({ id: "t-001", category: "answerable", question: "How do I reach support?" });

/** A free-text model answer (a server that could not answer in JSON). */
const freeText = (answer: string) => askResult(answer, SOURCES, { answerer: "mock/m1", preset: "balanced", answerFormat: "text" });

const REFUSALS = {
  en: "I cannot answer this from the documents provided.",
  de: "Die Dokumente enthalten keine Angaben zu einer Telefonnummer.",
  fr: "Les documents ne contiennent pas de numéro de téléphone.",
  it: "I documenti non contengono un numero di telefono.",
};

const judge = mockJudge;

describe("free-text refusals in every fixture language", () => {
  it.each(Object.entries(REFUSALS))(
    "%s: the marker recognises it, and Refusal and No-citations grade it as a refusal",
    (language, text) => {
      const result = freeText(text);
      expect(result.refused).toBe(false); // the engine only knows its English sentence
      const recognition = recognizeByMarkers(result, markers);
      expect(recognition).toMatchObject({ refused: true, method: "markers", marker: { language } });
      expect(recognition.ambiguous).toBeUndefined();
      const recognized = { ...result, refusalCheck: recognition };
      expect(refusalScore(offCorpus, recognized)).toMatchObject({
        score: 1,
        metadata: { refused: true, recognition: { method: "markers" } },
      });
      expect(noCitationsScore(offCorpus, recognized).score).toBe(1);
      // Without the recognition (as before), the same answer was graded an answer without citations.
      expect(refusalScore(offCorpus, result).score).toBe(0);
      expect(noCitationsScore(offCorpus, result).score).toBe(0);
      // A refusal makes no claims.
      expect(faithfulnessMetric.heuristic(answerable, recognized).metadata).toMatchObject({ claims: 0, vacuous: true });
    },
  );

  it("matches across languages, case, apostrophes and white space, and citation markers", () => {
    expect(refusalMarkerIn("Sorry — I CAN’T  ANSWER that.", markers)).toEqual({ language: "en", text: "i can't answer" });
    expect(refusalMarkerIn("Les documents [1] ne contiennent pas cela.", markers)).toMatchObject({ language: "fr" });
    // A German question refused in Italian is still a refusal.
    expect(recognizeByMarkers(freeText(REFUSALS.it), markers)).toMatchObject({ refused: true, marker: { language: "it" } });
    expect(refusalMarkerIn("You can write to support@tessera.example [1].", markers)).toBeNull();
  });

  it("an answer with citations and no marker is an answer", () => {
    const r = recognizeByMarkers(freeText("Write to support@tessera.example [1]."), markers);
    expect(r).toEqual({ refused: false, method: "markers" });
  });

  it("marks ambiguous answers: a marker next to a citation, or neither", () => {
    const both = recognizeByMarkers(freeText("The documents do not contain a phone number, but you can write to support [1]."), markers);
    expect(both).toMatchObject({
      refused: true,
      method: "markers",
      ambiguous: expect.stringMatching(/^a refusal phrase .* next to citations \[1\]$/),
    });
    const neither = recognizeByMarkers(freeText("Leider weiß ich das nicht."), markers);
    expect(neither).toMatchObject({ refused: false, ambiguous: "no refusal phrase, and no citation of a retrieved source" });
  });

  it("takes the engine's own decisions as certain: evidence gate, extractive answerer, structured answers", () => {
    expect(recognizeByMarkers(refused(SOURCES), markers)).toEqual({ refused: true, method: "evidence-gate" });
    // An extractive answer that happens to quote a refusal-like sentence is still an answer.
    expect(recognizeByMarkers(askResult("The documents do not contain personal data [1].", SOURCES), markers)).toEqual({
      refused: false,
      method: "extractive",
    });
    const structured = askResult("Die Dokumente enthalten keine Antwort.", SOURCES, {
      answerFormat: "structured",
      refused: true,
      refusal: "model",
    });
    expect(recognizeByMarkers(structured, markers)).toEqual({ refused: true, method: "structured" });
  });
});

describe("the judge decides ambiguous free-text answers", () => {
  const ambiguous = freeText("The documents do not contain a phone number, but you can write to support@tessera.example [1].");

  it("asks the judge only when the markers are unsure, and says it decided", async () => {
    const j = judge(JSON.stringify({ reasoning: "It answers how to reach support.", refused: false }));
    const r = await recognizeRefusal(ambiguous, markers, { judge: j });
    expect(r).toMatchObject({
      refused: false,
      method: "llm-judge",
      reasoning: "It answers how to reach support.",
      judgeModel: "mock/judge-1",
    });
    expect(r.ambiguous).toMatch(/^a refusal phrase/);
    const graded = refusalScore(answerable, { ...ambiguous, refusalCheck: r });
    expect(graded).toMatchObject({ score: 1, metadata: { method: "llm-judge", recognition: { method: "llm-judge" } } });

    const clear = await recognizeRefusal(freeText(REFUSALS.de), markers, { judge: j });
    expect(clear.method).toBe("markers");
    expect(j.doGenerateCalls).toHaveLength(1);
  });

  it("a judge that fails twice leaves the markers' decision, labeled", async () => {
    const r = await recognizeRefusal(ambiguous, markers, { judge: judge(new Error("HTTP 500")) });
    expect(r).toMatchObject({
      refused: true,
      method: "markers",
      fallbackFrom: "llm-judge",
      judgeError: expect.stringContaining("HTTP 500"),
    });
  });

  it("without a judge the markers decide and the recognition says why they were unsure", async () => {
    expect(await recognizeRefusal(ambiguous, markers)).toMatchObject({ refused: true, method: "markers", ambiguous: expect.any(String) });
  });
});
