import { describe, expect, it } from "vitest";
import { NO_SOURCES, type ObservedAnswer } from "../observed.js";
import { diagnose } from "../diagnosis.js";
import { askCase, askResult, TWO_FA } from "../test-data/ask.js";
import { expectationsMet, questionVerdict } from "../verdict.js";
import { citesOnlySurfacedScore, citesScore, noCitationsScore } from "./index.js";

/** An answer whose target shows no sources: its citations name documents, nothing else is shown. */
function withoutSources(answer: string, citations: ObservedAnswer["citations"]): ObservedAnswer {
  const { sources: _sources, ...shown } = askResult(answer, [], { citations, invalidCitations: [] });
  return shown;
}

describe("citations a target cannot show are unknown, not wrong", () => {
  const c = askCase({ expectedSubstrings: ["10"], mustCite: [TWO_FA.docId] });
  const cited = withoutSources("You get 10 recovery codes [1].", [{ ref: 1, docId: TWO_FA.docId }]);

  it("cites-only-surfaced is not scored, naming why", () => {
    const g = citesOnlySurfacedScore(c, cited);
    expect(g.score).toBe(0);
    expect(g.metadata).toMatchObject({ grader: "cites-only-surfaced", status: "unknown", reason: NO_SOURCES, citations: 1 });
  });

  it("required citations are checked against the answer's own citations; an answer citing a document counts as citing", () => {
    expect(citesScore(c, cited).score).toBe(1);
    expect(citesScore(c, withoutSources("You get 10 codes [1].", [{ ref: 1, docId: "en/other.md" }])).score).toBe(0);
    expect(noCitationsScore(c, cited)).toMatchObject({ score: 1, metadata: { sourcesShown: false } });
  });

  it("the question verdict holds what can be checked, says what it could not, and never blames retrieval", async () => {
    const v = await questionVerdict(c, cited);
    expect(v.pass).toBe(true);
    expect(v.expectations.find((e) => e.expectation === "cites-only-surfaced")).toMatchObject({ held: null, unknown: NO_SOURCES });
    expect(v.warnings).toEqual([`not checked: cites-only-surfaced (${NO_SOURCES})`]);
    expect(expectationsMet(v)).toBe(1);

    const wrong = withoutSources("You get 12 codes [1].", [{ ref: 1, docId: "en/other.md" }]);
    const failed = await questionVerdict(c, wrong);
    expect(failed.pass).toBe(false);
    expect(failed.failed).toEqual([
      'missing "10"',
      `did not cite ${TWO_FA.docId} (the target shows no sources: whether it was retrieved is unknown)`,
    ]);
    // Retrieval or generation cannot be told apart without the sources.
    expect(failed.diagnosis.verdict).toBe("unknown");
    expect(diagnose(c, wrong).reasons[0]).toBe(NO_SOURCES);
  });
});
