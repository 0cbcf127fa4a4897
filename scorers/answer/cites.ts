/**
 * cites ("Cites required docs"): the share of the case's `mustCite` documents the answer cites.
 * A translation of a mustCite document holds the same facts (`fixtures/translations.json`), so
 * citing it counts as citing the document, named in metadata `viaTranslation`;
 * `{ acceptTranslations: false }` turns that off, and metadata states the policy.
 *
 * **When to use:** answers that must rest on particular documents (a policy, a price list).
 * **When NOT to use:** to check that citations are valid (cites-only-surfaced) or that the cited
 * text supports the answer (faithfulness); only for cases with `mustCite`.
 */
import { isRefused } from "../refusal-check.js";
import { type AskScorer, defineGrader, nonEmpty, scorerFor } from "./grade.js";

export interface CitesOptions {
  /** Whether citing a translation of a mustCite doc counts. @default true */
  acceptTranslations?: boolean;
  /**
   * Doc → its translations (e.g. the groups of fixtures/translations.json, which the eval passes).
   * @default none: only the listed docs count
   */
  translations?: ReadonlyMap<string, readonly string[]>;
}

/** The translations a policy allows to stand in for a doc. */
export function translationsUnder(options: CitesOptions): ReadonlyMap<string, readonly string[]> {
  return options.acceptTranslations === false ? new Map() : (options.translations ?? new Map());
}

export const citesGrader = defineGrader<CitesOptions | undefined>(
  "cites",
  {
    name: "Cites required docs",
    definition: "mustCite docs the answer cites (a translation counts unless turned off) / mustCite docs",
    needs: "mustCite",
    appliesTo: (c) => nonEmpty(c.mustCite),
  },
  (c, result, options = {}) => {
    const translations = translationsUnder(options);
    const cited = new Set(result.citations.map((x) => x.docId));
    const direct: string[] = [];
    const viaTranslation: Array<{ required: string; cited: string }> = [];
    const missing: string[] = [];
    for (const doc of c.mustCite!) {
      const translation = translations.get(doc)?.find((t) => cited.has(t));
      if (cited.has(doc)) direct.push(doc);
      else if (translation !== undefined) viaTranslation.push({ required: doc, cited: translation });
      else missing.push(doc);
    }
    return [
      (direct.length + viaTranslation.length) / c.mustCite!.length,
      {
        cited: [...cited],
        direct,
        viaTranslation,
        missing,
        refused: isRefused(result),
        translationPolicy:
          options.acceptTranslations === false || translations.size === 0
            ? "only the listed docs count"
            : "a citation of a translation of a mustCite doc counts (same facts)",
      },
    ];
  },
);

export const citesScore = citesGrader.score;

/** "Cites required docs": share of the case's mustCite docs the answer cites. */
export const cites = (options: CitesOptions = {}): AskScorer => scorerFor(citesGrader, (c, r) => citesScore(c, r, options));
