/**
 * cites-only-surfaced: every citation of the answer is surfaced — a tool's output in this turn
 * returned the document (and the quoted words), as expectation.ts's `surfacedCitation` checks it.
 * Fails naming each other one: `unsurfaced: en/secret.md (recalled: …)`. An answer without
 * citations has none unsurfaced: it passes, saying so (missing citations are for cites or
 * no-citations).
 *
 * **When to use:** on every answered turn: a path the turn never saw is invented.
 * **When NOT to use:** to require a citation (cites) or none (no-citations).
 */
import { citationName, defineExpectation, surfacedCitation } from "./expectation.js";

export const citesOnlySurfaced = defineExpectation(
  "cites-only-surfaced",
  "every citation is surfaced: a tool's output in the turn returned the document (and the quoted words)",
  (turn) => {
    const unsurfaced = turn.citations.flatMap((c) => {
      const s = surfacedCitation(turn, c);
      return s.surfaced ? [] : [`unsurfaced: ${citationName(c)} (${s.why})`];
    });
    if (unsurfaced.length > 0) return { pass: false, fact: unsurfaced.join("; ") };
    return {
      pass: true,
      fact: turn.citations.length === 0 ? "no citations (none unsurfaced)" : `${turn.citations.length} citation(s), all surfaced`,
    };
  },
);
