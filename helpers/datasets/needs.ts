/**
 * Which evals a dataset can feed, and why not when it cannot: an eval the data cannot feed is
 * skipped and reported with the reason (helpers/define-eval.ts, `data`), as an eval the target
 * cannot run is, never scored 0 and never silently absent.
 */
import { documentLanguages } from "./language.js";
import { judgedCases, relevantSet } from "./model.js";
import { isFolder } from "./read.js";
import type { AnswerCase, Dataset, RetrievalCase } from "./model.js";

/** Why the ranking evals cannot run on the dataset (no query with a relevant document), or null. */
export function rankingReason(dataset: Dataset): string | null {
  if (judgedCases(dataset.cases).length > 0) return null;
  if (dataset.cases.length > 0) return `no query of dataset ${dataset.name} judges a document relevant`;
  return dataset.askCases.length > 0
    ? `dataset ${dataset.name} has no retrieval judgments, and none of its answer cases cites a document to derive them from`
    : `dataset ${dataset.name} has no queries`;
}

/** Why the agent eval cannot run: the dataset brings no turn cases (and how it can); null when it does. */
export function turnCasesReason(dataset: Dataset): string | null {
  if ((dataset.turns?.cases.length ?? 0) > 0) return null;
  const how = isFolder(dataset.source)
    ? "a turn-cases.json in the suite's turn-case format, or a v10r-style golden-cases.json, in its folder adds them"
    : "turn cases sit in a dataset's folder: pnpm eval:import it into one, then add a turn-cases.json there";
  return `dataset ${dataset.name} has no turn cases: ${how} (docs/evals.md, The agent eval)`;
}

/** Why the expansion eval cannot run (no query at all), or null. */
export function queriesReason(dataset: Dataset): string | null {
  return dataset.cases.length > 0 ? null : `dataset ${dataset.name} has no queries`;
}

/** Why an answer suite cannot run on `cases` (the dataset's, or the subset its graders apply to), or null. */
export function answersReason(dataset: Dataset, cases: readonly AnswerCase[], what = ""): string | null {
  if (dataset.askCases.length === 0) {
    const where = dataset.format === "beir" ? " (an ask-cases.json in the suite's format beside corpus.jsonl adds them)" : "";
    return `dataset ${dataset.name} has no answer cases${where}`;
  }
  return cases.length > 0 ? null : `no answer case of dataset ${dataset.name} ${what}`;
}

/** What the cross-language evals measure on a dataset: their cases, why there are none, and each document's language. */
export interface CrossLanguage {
  cases: RetrievalCase[];
  /** Why the cross-language evals cannot run, or null. */
  reason: string | null;
  /** A document's language, or "unknown": how the cross-language evals group documents. */
  languageOf: (docId: string) => string;
}

/**
 * The cross-language queries: those of category `cross-language` when the dataset has that
 * category (the fixtures); otherwise every query with a language and a relevant document whose
 * language (declared, or told by language.ts) is another. The documents' languages are told only
 * when some query states its own.
 */
export async function crossLanguage(dataset: Dataset): Promise<CrossLanguage> {
  const stated = dataset.cases.some((c) => c.language !== undefined);
  const languages = stated ? await documentLanguages(dataset) : dataset.declaredLanguages;
  const languageOf = (docId: string): string => languages.get(docId) ?? "unknown";
  const cases = dataset.cases.some((c) => c.category === "cross-language")
    ? dataset.cases.filter((c) => c.category === "cross-language")
    : dataset.cases.filter(
        (c) =>
          c.language !== undefined &&
          relevantSet(c).some((doc) => {
            const language = languages.get(doc);
            return language !== undefined && language !== c.language;
          }),
      );
  const reason =
    cases.length > 0
      ? null
      : !stated
        ? `no query of dataset ${dataset.name} states its language`
        : languages.size === 0
          ? `no document language of dataset ${dataset.name} is known`
          : `no query of dataset ${dataset.name} has a relevant document in another language than its own`;
  return { cases, reason, languageOf };
}
