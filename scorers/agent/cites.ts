/**
 * cites: the answer cites `doc`, and that citation is surfaced (expectation.ts's
 * `surfacedCitation`): a recalled citation of the right document does not count, since the turn
 * did not find it. Fails as `not cited: en/a.md`, or `cited but unsurfaced: en/a.md (recalled: …)`.
 *
 * **When to use:** the document that holds the answer (or, for a where-question, is the answer).
 * **When NOT to use:** for a document a translation could stand in for, unless the case names the
 * one its turn must find.
 */
import { defineExpectation, surfacedCitation } from "./expectation.js";

export const cites = defineExpectation("cites", "the answer cites the document, and the citation is surfaced", (turn, e) => {
  const of = turn.citations.filter((c) => c.docId === e.doc);
  if (of.length === 0) return { pass: false, fact: `not cited: ${e.doc}` };
  const checks = of.map((c) => surfacedCitation(turn, c));
  if (checks.some((s) => s.surfaced)) return { pass: true, fact: `cites ${e.doc} (surfaced)` };
  const why = checks.flatMap((s) => (s.surfaced ? [] : [s.why]));
  return { pass: false, fact: `cited but unsurfaced: ${e.doc} (${why[0]})` };
});
