import { describe, expect, it } from "vitest";
import type { TraceStage } from "@hybrid-search/engine";
import { askCase, askResult, failed, refused, source } from "./test-data/ask.js";
import { expectationsMet, questionVerdict, questionVerdictScorer } from "./verdict.js";

const LINK = "it/condivisione/link-di-condivisione.md";
const TRASH = "it/file/cestino-e-file-eliminati.md";
const TRASH_EN = "en/files/trash-and-deleted-files.md";
const LINK_SRC = source(1, LINK, "Nel piano Free un link di condivisione scade dopo 14 giorni.", "it");
const PRICES = source(2, "it/abbonamento/prezzi.md", "Il piano Personal costa 4,99 € al mese.", "it");

/** a-014: two facts from two Italian articles. */
const a014 = askCase({
  id: "a-014",
  language: "it",
  category: "multi-document",
  question: "Nel piano Free dopo quanto scade un link di condivisione e per quanto resta un file nel cestino?",
  expectedSubstrings: ["14 giorni", "30 giorni"],
  mustCite: [LINK, TRASH],
});

const stage = (name: "bm25" | "vector" | "fusion" | "rerank", docs: string[]): TraceStage => ({
  stage: name,
  input: {},
  output: docs.map((docId, i) => ({ docId, score: 1 / (i + 1), rank: i + 1 })),
  start: 0,
  end: 1,
});

/** The trash article was ranked by BM25 (#9) but fusion did not pass it on: lost at fusion. */
const LOST_AT_FUSION = [
  stage("bm25", [LINK, PRICES.docId, "a", "b", "c", "d", "e", "f", TRASH]),
  stage("vector", [LINK, PRICES.docId]),
  stage("fusion", [LINK, PRICES.docId]),
  stage("rerank", [LINK, PRICES.docId]),
];

describe("questionVerdict", () => {
  it("a-014-like: half the facts and half the required citations fail the question, naming what is missing and where retrieval lost it", async () => {
    const result = askResult("Nel piano Free un link di condivisione scade dopo 14 giorni [1].", [LINK_SRC, PRICES], {
      question: a014.question,
      trace: LOST_AT_FUSION,
    });
    const v = await questionVerdict(a014, result);
    expect(v.pass).toBe(false);
    expect(v.failed).toEqual(['missing "30 giorni"', `did not cite ${TRASH} (not retrieved: lost at fusion)`]);
    expect(v.diagnosis.verdict).toBe("retrieval");
    expect(v.diagnosis.reasons[0]).toMatch(new RegExp(`^unsurfaced: ${TRASH} \\(lost at fusion`));
    expect(v.expectations.map((e) => [e.expectation, e.held])).toEqual([
      ["refusal", true],
      ["no-citations", true],
      ["cites-only-surfaced", true],
      ["answer-includes", false],
      ["cites", false],
    ]);
    expect(expectationsMet(v)).toBe(3 / 5);
  });

  it("passes when every expectation holds; a translation of a required document counts, and a retrieved but uncited one is named so", async () => {
    const trash = source(2, TRASH_EN, "Deleted files stay in the trash for 30 days (30 giorni).", "en");
    const result = askResult("Il link scade dopo 14 giorni [1]; il cestino tiene i file 30 giorni [2].", [LINK_SRC, trash], {
      question: a014.question,
    });
    const translations = new Map([
      [TRASH, [TRASH_EN]],
      [TRASH_EN, [TRASH]],
    ]);
    expect(await questionVerdict(a014, result, { translations })).toMatchObject({ pass: true, failed: [], diagnosis: { verdict: "pass" } });
    const uncited = askResult("Il link scade dopo 14 giorni e il cestino tiene i file 30 giorni [1].", [LINK_SRC, trash], {
      question: a014.question,
    });
    expect((await questionVerdict(a014, uncited, { translations })).failed).toEqual([
      `did not cite ${TRASH} (its translation ${TRASH_EN} was retrieved as [2])`,
    ]);
  });

  it("names a wrong refusal, a refusal that cites, forbidden content and uncovered topics", async () => {
    const offCorpus = askCase({ id: "a-023", category: "off-corpus", expectedRefusal: true });
    const answered = askResult("Call +39 02 1234 [1].", [LINK_SRC]);
    expect((await questionVerdict(offCorpus, answered)).failed).toEqual([
      "answered, but the case expects a refusal (the corpus does not hold the answer)",
    ]);
    const answerable = askCase({ expectedSubstrings: ["14 giorni"], mustCite: [LINK], forbiddenSubstrings: ["gratis"] });
    const gated = refused([LINK_SRC], { evidence: { coverage: 0.21, threshold: 0.4, sufficient: false, bestRef: 1 } });
    expect((await questionVerdict(answerable, gated)).failed[0]).toBe(
      "refused (evidence gate: coverage 0.21 < threshold 0.4), but the case expects an answer",
    );
    const topics = askCase({ expectedTopics: ["recovery codes", "a new set replaces the old one"], forbiddenSubstrings: ["free"] });
    const v = await questionVerdict(topics, askResult("Recovery codes are free [1].", [source(1, "en/a.md", "Recovery codes are free.")]));
    expect(v.failed).toEqual(['contains forbidden "free"', 'does not cover the topic "a new set replaces the old one"']);
    // Only topics failed: no retrieval or generation check of the diagnosis did, so it is generation's.
    expect(v.diagnosis.verdict).toBe("generation");
  });

  it("names the citation expectations: a citation of no retrieved source, a refusal that cites, an answer that cites nothing", async () => {
    const answerable = askCase({ expectedSubstrings: ["14 giorni"] });
    const pointsNowhere = askResult("Il link scade dopo 14 giorni [1] [7].", [LINK_SRC]);
    expect((await questionVerdict(answerable, pointsNowhere)).failed).toEqual(["cites [7] (no such source; 1 retrieved)"]);
    const uncited = askResult("Il link scade dopo 14 giorni.", [LINK_SRC]);
    expect((await questionVerdict(answerable, uncited)).failed).toEqual(["answers without citing a retrieved source"]);
    // A free-text refusal, recognised by its marker, that still cites: refusing is right, citing is not.
    const offCorpus = askCase({ id: "a-023", category: "off-corpus", expectedRefusal: true });
    const citingRefusal = {
      ...askResult("I documenti non contengono un numero di telefono [1].", [LINK_SRC], { answerFormat: "text" }),
      refusalCheck: { refused: true, method: "markers" as const, marker: { language: "it", text: "i documenti non contengono" } },
    };
    const v = await questionVerdict(offCorpus, citingRefusal);
    expect(v.failed).toEqual(["refuses but cites [1]"]);
    expect(v.expectations.map((e) => [e.expectation, e.held])).toEqual([
      ["refusal", true],
      ["no-citations", false],
      ["cites-only-surfaced", true],
    ]);
  });

  it("a failed answer is no verdict on quality and never a pass: score 0, status failed", async () => {
    const scorer = questionVerdictScorer();
    const r = await scorer({ input: a014, output: failed(), expected: undefined } as never);
    expect(r).toMatchObject({ score: 0, metadata: { status: "failed", verdict: { pass: false, diagnosis: { verdict: "error" } } } });
    expect((r as { metadata: { verdict: { failed: string[] } } }).metadata.verdict.failed[0]).toMatch(/^the answerer failed: /);
  });

  it("the scorer carries the verdict for the gate: pass, failed expectations, diagnosis, golden-set warnings", async () => {
    const result = askResult("Nel piano Free un link di condivisione scade dopo 14 giorni [1].", [LINK_SRC, PRICES], {
      question: a014.question,
      trace: LOST_AT_FUSION,
    });
    const r = (await questionVerdictScorer()({ input: a014, output: result, expected: undefined } as never)) as {
      score: number;
      metadata: Record<string, unknown>;
    };
    expect(r).toMatchObject({ score: 0, metadata: { grader: "question-verdict", method: "heuristic", status: "scored" } });
    expect(r.metadata).toMatchObject({
      caseId: "a-014",
      verdict: { pass: false, failed: expect.arrayContaining(['missing "30 giorni"']), diagnosis: { verdict: "retrieval" }, warnings: [] },
    });
  });
});
