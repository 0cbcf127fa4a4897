import { describe, expect, it } from "vitest";
import { smallCorpusEngine } from "./helpers.js";

const setup = smallCorpusEngine();

describe("ask with given sources: generation apart from retrieval", () => {
  const given = [
    { docId: "kb/refunds", title: "Refunds", text: "A refund is paid within 14 days of the cancellation request." },
    { docId: "kb/hours", text: "The support desk is open from 8:00 to 18:00 on weekdays." },
  ];

  it("answers from the passages given, in their order, without retrieving", async () => {
    const r = await setup.engine.ask("How soon is a refund paid?", { sources: given });
    expect(r.refused).toBe(false);
    expect(r.answer).toContain("14 days");
    expect(r.sources.map((s) => [s.ref, s.docId, s.passageId, s.title])).toEqual([
      [1, "kb/refunds", "kb/refunds#given-1", "Refunds"],
      [2, "kb/hours", "kb/hours#given-2", ""],
    ]);
    expect(r.citations).toEqual([{ ref: 1, docId: "kb/refunds", passageId: "kb/refunds#given-1" }]);
    // No retrieval stage ran: only the evidence check and the answerer.
    expect(r.trace!.map((t) => t.stage)).toEqual(["evidence", "generation"]);
    // The same question retrieves from the index when no sources are given.
    const retrieved = await setup.engine.ask("How do I cancel my subscription?");
    expect(retrieved.trace!.map((t) => t.stage)).toContain("bm25");
  });

  it("still refuses when the given passages do not hold the answer (the evidence check runs as usual)", async () => {
    const r = await setup.engine.ask("Which stock exchange lists the company?", { sources: [given[1]!] });
    expect(r).toMatchObject({ refused: true, refusal: "insufficient-evidence", citations: [] });
  });

  it("refuses malformed sources with an error that names the field", async () => {
    await expect(setup.engine.ask("x?", { sources: [] })).rejects.toThrow('Expected "sources" to be an array of 1 to 100 passages, got 0');
    await expect(setup.engine.ask("x?", { sources: [{ docId: "a", text: "" }] })).rejects.toThrow(
      'Expected "sources[0].text" to be a non-empty string',
    );
  });
});
