/**
 * cites-only-surfaced ("Cites only surfaced"): 1 when every citation marker `[n]` of the answer
 * points to a retrieved source (the same document and passage as source n), else 0, naming each
 * marker that points elsewhere. An answer without markers has none that points elsewhere: 1, with
 * `vacuous: true` (missing citations are no-citations' failure, not this one's).
 *
 * An answer that shows no sources (the target left them out) is not scored (`status: "unknown"`,
 * `NO_SOURCES`): a citation cannot be told to point to a retrieved passage when none is shown.
 *
 * **When to use:** on every answer: a citation of something that was never retrieved is invented.
 * **When NOT to use:** as a check that the answer cites at all (no-citations) or the right
 * documents (cites).
 */
import { NO_SOURCES, notGiven } from "../observed.js";
import { type AskScorer, defineGrader, scorerFor } from "./grade.js";

export const citesOnlySurfacedGrader = defineGrader(
  "cites-only-surfaced",
  {
    name: "Cites only surfaced",
    definition: "1 when every [n] in the answer points to a retrieved source, else 0 (no [n] at all: 1, vacuous)",
    needs: null,
    appliesTo: () => true,
  },
  (_c, result) => {
    if (!result.sources) return notGiven(NO_SOURCES, { citations: result.citations.length });
    const byRef = new Map(result.sources.map((s) => [s.ref, s]));
    const unsurfaced: string[] = [];
    for (const cit of result.citations) {
      const source = byRef.get(cit.ref);
      if (!source) unsurfaced.push(`[${cit.ref}] ${cit.docId} (no source [${cit.ref}] was retrieved)`);
      else if (source.docId !== cit.docId || source.passageId !== cit.passageId)
        unsurfaced.push(`[${cit.ref}] ${cit.passageId} (source [${cit.ref}] is ${source.passageId})`);
    }
    for (const ref of result.invalidCitations) unsurfaced.push(`[${ref}] (no such source; ${result.sources.length} retrieved)`);
    const total = result.citations.length + result.invalidCitations.length;
    return [
      unsurfaced.length === 0 ? 1 : 0,
      {
        citations: total,
        unsurfaced,
        vacuous: total === 0,
        ...(total === 0 ? { note: "no citation markers: none points elsewhere (missing citations are no-citations' failure)" } : {}),
      },
    ];
  },
);

export const citesOnlySurfacedScore = citesOnlySurfacedGrader.score;

/** "Cites only surfaced": 1 when every citation marker points to a retrieved source. Every case. */
export const citesOnlySurfaced = (): AskScorer => scorerFor(citesOnlySurfacedGrader, citesOnlySurfacedScore);
