/**
 * The suite's fixture format (what `pnpm eval:init` writes, and `fixtures/` itself):
 *
 *   corpus/**\/*.md          the documents; a document's id is its path below corpus/
 *   queries.json            { version: 1, queries: [{ id, query, judgments: { docId: 0..3 }, … }] }   (optional)
 *   ask-cases.json          { version: 1, gate?, cases: [{ id, question, expectedSubstrings, mustCite, … }] }  (optional)
 *   translations.json       { version: 1, groups: [{ id, docs }] }                                      (optional)
 *   refusal-markers.json    { version: 1, markers: { <language>: [phrases] } }                           (optional)
 *
 * At least one of queries.json and ask-cases.json. A user's dataset is checked against the
 * `dataset-*.schema.json` schemas, where language, category, note and relevantDocs are optional and
 * ids and document ids are any text; the project's own `fixtures/` keeps the demo corpus's stricter
 * schemas and lint (helpers/fixture-files/), through `readDemoFixtures`.
 */
import { join } from "node:path";
import { docLanguage, listCorpusDocs, loadAskCases, loadQueries, loadTranslations, readCorpusDoc } from "../../fixture-files.js";
import { displayPath, FIXTURES_DIR } from "../../fixture-files/paths.js";
import type { DraftFields } from "../drafts.js";
import type { RecordOrigin } from "../lint.js";
import type { AnswerCase, RetrievalCase, TranslationGroup } from "../model.js";
import { checkSchema, fail, isFile, isFolder, readJsonFile, recordNamer } from "../read.js";
import type { DatasetFormat } from "../format.js";
import { writeFixtureFormat } from "../write.js";
import { type FormatRead, folderCorpus, noRecords, readRefusalMarkers } from "./common.js";

interface QueryRecord extends DraftFields {
  id: string;
  query: string;
  language?: string;
  collection?: string;
  category?: string;
  identifier?: string;
  relevantDocs?: string[];
  judgments: Record<string, number>;
  note?: string;
}

/**
 * Whether `folder` holds the fixture format: a queries.json or ask-cases.json that is a
 * `{ version, … }` object, and a corpus/ folder (a corpus.jsonl instead makes it BEIR with answer
 * cases beside it).
 */
export function isFixtureFormat(folder: string): boolean {
  if (!isFolder(join(folder, "corpus")) && isFile(join(folder, "corpus.jsonl"))) return false;
  return ["queries.json", "ask-cases.json"].some((name) => {
    const path = join(folder, name);
    if (!isFile(path)) return false;
    try {
      const value = readJsonFile(path) as unknown;
      return value !== null && typeof value === "object" && !Array.isArray(value);
    } catch {
      // A file that does not parse is still meant as this format: reading it says what is wrong.
      return true;
    }
  });
}

/** The answer cases (and translations, refusal markers) of the suite's format in `folder`, beside another format's retrieval data (BEIR). */
export function readAnswerFiles(
  folder: string,
  read: Pick<FormatRead, "askCases" | "askOrigins" | "translations" | "warnings" | "files" | "gate"> & {
    translationOrigins?: Map<TranslationGroup, RecordOrigin>;
  },
): void {
  const askPath = join(folder, "ask-cases.json");
  if (isFile(askPath)) {
    read.files.push(askPath);
    const value = readJsonFile(askPath, { top: "object" }) as {
      cases?: unknown[];
      gate?: { minPassRate?: number; maxP95LatencyMs?: number };
    };
    checkSchema(askPath, "dataset-ask-cases.schema.json", value, recordNamer(value.cases ?? [], "case", "/cases"));
    if (value.gate) read.gate = { ...value.gate, source: `${displayPath(askPath)} /gate` };
    (value.cases as AnswerCase[]).forEach((c, i) => {
      read.askCases.push(c);
      read.askOrigins.set(c, { file: askPath, record: `case ${c.id}`, pointer: `/cases/${i}` });
    });
  }
  const translationsPath = join(folder, "translations.json");
  if (isFile(translationsPath)) {
    read.files.push(translationsPath);
    const value = readJsonFile(translationsPath, { top: "object" }) as { groups?: unknown[] };
    checkSchema(translationsPath, "dataset-translations.schema.json", value, recordNamer(value.groups ?? [], "group", "/groups"));
    read.translationOrigins ??= new Map();
    (value.groups as TranslationGroup[]).forEach((group, i) => {
      read.translations.push(group);
      read.translationOrigins!.set(group, { file: translationsPath, record: `group ${group.id}`, pointer: `/groups/${i}` });
    });
  }
}

/** A user's dataset in the suite's fixture format. */
export function readFixtureFormat(folder: string, collection: string): FormatRead {
  const corpusDir = join(folder, "corpus");
  if (!isFolder(corpusDir))
    fail(corpusDir, [
      { pointer: "", problem: "[empty-corpus] no corpus/ folder: the documents go in corpus/, one Markdown or text file each" },
    ]);
  const read: FormatRead = { ...folderCorpus(corpusDir), ...noRecords(), relevantDocs: new Map() };
  const files = read.files;
  read.refusalMarkers = readRefusalMarkers(folder, read.warnings, files);
  const queriesPath = join(folder, "queries.json");
  if (isFile(queriesPath)) {
    files.push(queriesPath);
    const value = readJsonFile(queriesPath, { top: "object" }) as { queries?: unknown[] };
    checkSchema(queriesPath, "dataset-queries.schema.json", value, recordNamer(value.queries ?? [], "query", "/queries"));
    (value.queries as QueryRecord[]).forEach((q, i) => {
      const origin = { file: queriesPath, record: `query ${q.id}`, pointer: `/queries/${i}` };
      if (q.collection !== undefined && q.collection !== collection)
        fail(queriesPath, [
          {
            ...origin,
            pointer: `${origin.pointer}/collection`,
            problem: `names collection ${JSON.stringify(q.collection)}, but a dataset is indexed as one collection, ${JSON.stringify(collection)} (its name): leave collection out`,
          },
        ]);
      const c: RetrievalCase = {
        id: q.id,
        query: q.query,
        ...(q.language ? { language: q.language } : {}),
        ...(q.category ? { category: q.category } : {}),
        ...(q.collection ? { collection: q.collection } : {}),
        ...(q.identifier ? { identifier: q.identifier } : {}),
        judgments: { ...q.judgments },
        ...(q.note ? { note: q.note } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.provenance ? { provenance: q.provenance } : {}),
        ...(q.reviewed ? { reviewed: q.reviewed } : {}),
      };
      read.cases.push(c);
      read.caseOrigins.set(c, origin);
      if (q.relevantDocs) read.relevantDocs!.set(c, q.relevantDocs);
    });
  }
  readAnswerFiles(folder, read);
  return read;
}

/**
 * The project's own fixtures: the demo corpus, through its strict loaders (the demo's schemas and
 * lint: path-shaped ids, languages, categories and notes, translation groups). A document's
 * language is its top folder.
 */
export function readDemoFixtures(): FormatRead {
  const corpusDir = join(FIXTURES_DIR, "corpus");
  const ids = listCorpusDocs(corpusDir);
  const cases = loadQueries().map(
    (q): RetrievalCase => ({
      id: q.id,
      query: q.query,
      language: q.language,
      category: q.category,
      ...(q.collection ? { collection: q.collection } : {}),
      ...(q.identifier ? { identifier: q.identifier } : {}),
      judgments: { ...q.judgments },
      note: q.note,
    }),
  );
  return {
    corpus: corpusDir,
    corpusSource: { kind: "folder", path: corpusDir },
    corpusView: { where: displayPath(corpusDir), ids: new Set(ids), text: (id) => readCorpusDoc(id, corpusDir) },
    corpusIds: ids,
    declaredLanguages: new Map(ids.map((id) => [id, docLanguage(id)])),
    cases,
    caseOrigins: new Map(),
    askCases: loadAskCases(),
    askOrigins: new Map(),
    translations: loadTranslations(),
    refusalMarkers: null,
    gate: null,
    unmapped: [],
    warnings: [],
    files: [],
  };
}

export const fixtures: DatasetFormat = {
  name: "fixtures",
  title: "the suite's fixture format",
  lookedFor: "queries.json or ask-cases.json as { version, … } objects",
  inFolder: (folder) => (isFixtureFormat(folder) ? "queries.json / ask-cases.json as { version, … } objects" : null),
  read: (folder, { name }) => readFixtureFormat(folder, name),
  write: writeFixtureFormat,
};
