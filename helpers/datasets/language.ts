/**
 * The languages of a dataset's documents, for the evals that group documents by language (the
 * cross-language recall and its matrix): what the dataset declares (front matter, a language
 * folder, a record's field), and for a document that declares none, what an independent language
 * identifier tells from its title and text — never the measured engine's own guess, so that a
 * change to the engine's language detection cannot move the ruler.
 *
 * The identifier is ELD, the Efficient Language Detector (npm `eld`, Apache-2.0, no dependencies:
 * n-gram statistics of 60 languages, ISO 639-1 codes), with its smallest database (`eld/extrasmall`):
 * maintained, offline, accurate on documents (every document of the fixtures', the CJK and the
 * temporal corpora: 119 of 119, docs/evals.md) and loaded only when a document needs it, which
 * takes about a second. A text it cannot tell (no language, or neither ELD's reliability test nor
 * a clear lead over the next language) stays unknown ("unknown" in the matrix), never a guess.
 */
import { corpusDocuments } from "./documents.js";
import type { Dataset } from "./model.js";

/** A text's language (an ISO 639-1 code), or undefined when the identifier cannot tell it reliably. */
export type Identify = (text: string) => string | undefined;

let identifier: Promise<Identify> | undefined;

/** The language identifier, loaded once per process on first use. */
export function languageIdentifier(): Promise<Identify> {
  identifier ??= import("eld/extrasmall").then(({ eld }) => (text: string) => {
    const result = eld.detect(text);
    if (result.language === "") return undefined;
    // ELD's own reliability test, or a clear lead: its best language scoring at least twice the
    // next (a short document of a script few languages share can fail the first and pass the second).
    const [best = 0, next = 0] = Object.values(result.getScores()).sort((a, b) => b - a);
    return result.isReliable() || best >= 2 * next ? result.language : undefined;
  });
  return identifier;
}

const told = new WeakMap<Dataset, Promise<ReadonlyMap<string, string>>>();

/**
 * Document id → language for every document whose language is declared or can be told: the
 * declared ones as declared, the others identified from their title and text. Once per dataset.
 */
export function documentLanguages(dataset: Dataset): Promise<ReadonlyMap<string, string>> {
  let languages = told.get(dataset);
  if (!languages) told.set(dataset, (languages = tell(dataset)));
  return languages;
}

async function tell(dataset: Dataset): Promise<ReadonlyMap<string, string>> {
  const languages = new Map(dataset.declaredLanguages);
  if (languages.size === dataset.corpusIds.length) return languages;
  const identify = await languageIdentifier();
  for (const doc of corpusDocuments(dataset.corpusSource).documents) {
    if (languages.has(doc.id)) continue;
    if (doc.language) languages.set(doc.id, doc.language);
    else {
      const language = identify(`${doc.title ?? ""}\n${doc.text}`);
      if (language) languages.set(doc.id, language);
    }
  }
  return languages;
}
