/**
 * no-citations ("No citations iff refused"): a refused answer carries no citation marker; an
 * answer that does not refuse carries at least one valid citation. Whether it refused is the
 * eval's recognition (`isRefused`); metadata says who decided (`recognition`), and a judge's
 * decision makes the score a judged one.
 *
 * **When to use:** on every answer: an uncited answer cannot be checked, and a cited refusal
 * contradicts itself.
 * **When NOT to use:** as a check of which documents are cited (cites, cites-only-surfaced).
 */
import { isRefused } from "../refusal-check.js";
import { type AskScorer, defineGrader, refusalBasis, scorerFor } from "./grade.js";

export const noCitationsGrader = defineGrader(
  "no-citations",
  {
    name: "No citations iff refused",
    definition: "a refused answer carries no [n]; an answer that does not refuse carries at least one valid citation",
    needs: null,
    appliesTo: () => true,
  },
  (_c, result) => {
    const markers = result.citations.length + result.invalidCitations.length;
    const ok = isRefused(result) ? markers === 0 : result.citations.length >= 1;
    return [
      ok ? 1 : 0,
      {
        refused: isRefused(result),
        citations: result.citations.length,
        invalidCitations: result.invalidCitations.length,
        rule: isRefused(result) ? "a refusal must carry no citation" : "an answer must carry at least one valid citation",
        // Without sources no [n] can be told invalid: a citation counts as it names its document.
        ...(result.sources ? {} : { sourcesShown: false }),
        ...refusalBasis(result),
      },
    ];
  },
);

export const noCitationsScore = noCitationsGrader.score;

/** "No citations iff refused": refusals carry no citations; answers carry at least one. Every case. */
export const noCitations = (): AskScorer => scorerFor(noCitationsGrader, noCitationsScore);
