/**
 * The fixtures layout of another Evalite-based suite:
 *
 *   corpus/<language>/*.md   the documents; an id is the path below corpus/ (`en/api-reference.md`), the language its folder
 *   queries.json             [{ "id", "query", "collection"?, "language", "relevantDocs", "judgments": [{ "docid", "relevance" }], "note"? }]
 *   ask-cases.json           [{ "id"?, "question", "expectedTopics": [...] }]                     (optional)
 *
 * Judgments are a list; they become the model's map (a document judged twice is an error).
 * `relevantDocs` must be exactly the documents judged 1 or more (the lint). An ask case's
 * `expectedTopics` are graded as the suite's topics; a case without an id is `ask-<n>` (its
 * position, from 1). `collection` names a collection of the other tool's index, not one of this
 * dataset (indexed as one): it is reported as not mapped, and the query searches the whole corpus.
 * Any other field is reported as not mapped too (`mockSources`, the sources a stub answerer was
 * given: the suite asks the real target).
 */
import { join } from "node:path";
import type { AnswerCase, RetrievalCase } from "../model.js";
import { checkSchema, fail, isFile, isFolder, readJsonFile, recordNamer } from "../read.js";
import type { DatasetFormat } from "../format.js";
import { type FormatRead, folderCorpus, noRecords, unmappedFields } from "./common.js";

interface LayoutQuery {
  id: string;
  query: string;
  collection?: string;
  language?: string;
  relevantDocs?: string[];
  judgments: Array<{ docid: string; relevance: number }>;
  note?: string;
}

interface LayoutAskCase {
  id?: string;
  question: string;
  language?: string;
  expectedTopics?: string[];
}

/** Whether `folder` holds the layout: corpus/ and a queries.json or ask-cases.json that is a JSON array. */
export function isFixturesLayout(folder: string): boolean {
  if (!isFolder(join(folder, "corpus"))) return false;
  return ["queries.json", "ask-cases.json"].some((name) => {
    const path = join(folder, name);
    if (!isFile(path)) return false;
    try {
      return Array.isArray(readJsonFile(path));
    } catch {
      return false;
    }
  });
}

export function readFixturesLayout(folder: string): FormatRead {
  const read: FormatRead = { ...folderCorpus(join(folder, "corpus")), ...noRecords(), relevantDocs: new Map() };
  const files = read.files;
  const queriesPath = join(folder, "queries.json");
  if (isFile(queriesPath)) {
    files.push(queriesPath);
    const queries = readJsonFile(queriesPath, { top: "array" }) as LayoutQuery[];
    checkSchema(queriesPath, "layout-queries.schema.json", queries, recordNamer(Array.isArray(queries) ? queries : [], "query", ""));
    queries.forEach((q, i) => {
      const origin = { file: queriesPath, record: `query ${q.id}`, pointer: `/${i}` };
      // A Map, so that a document id such as "constructor" or "__proto__" is an id like any other.
      const judged = new Map<string, number>();
      q.judgments.forEach((j, k) => {
        if (judged.has(j.docid))
          fail(queriesPath, [{ ...origin, pointer: `/${i}/judgments/${k}/docid`, problem: `${JSON.stringify(j.docid)} is judged twice` }]);
        judged.set(j.docid, j.relevance);
      });
      const judgments = Object.fromEntries(judged);
      const c: RetrievalCase = {
        id: q.id,
        query: q.query,
        ...(q.language ? { language: q.language } : {}),
        judgments,
        ...(q.note ? { note: q.note } : {}),
      };
      read.cases.push(c);
      read.caseOrigins.set(c, origin);
      if (q.relevantDocs) read.relevantDocs!.set(c, q.relevantDocs);
    });
    read.unmapped.push(
      ...unmappedFields(
        queriesPath,
        queries,
        new Set(["id", "query", "language", "relevantDocs", "judgments", "note"]),
        {
          collection:
            "names a collection of the other tool's index; this dataset is indexed as one collection, so the query searches the whole corpus",
        },
        "/*/",
      ),
    );
  }
  const askPath = join(folder, "ask-cases.json");
  if (isFile(askPath)) {
    files.push(askPath);
    const cases = readJsonFile(askPath, { top: "array" }) as LayoutAskCase[];
    checkSchema(askPath, "layout-ask-cases.schema.json", cases, recordNamer(Array.isArray(cases) ? cases : [], "case", ""));
    cases.forEach((a, i) => {
      const c: AnswerCase = {
        id: a.id ?? `ask-${i + 1}`,
        question: a.question,
        ...(a.language ? { language: a.language } : {}),
        ...(a.expectedTopics && a.expectedTopics.length > 0 ? { expectedTopics: a.expectedTopics } : {}),
      };
      read.askCases.push(c);
      read.askOrigins.set(c, { file: askPath, record: `case ${c.id}`, pointer: `/${i}` });
    });
    read.unmapped.push(
      ...unmappedFields(
        askPath,
        cases,
        new Set(["id", "question", "language", "expectedTopics"]),
        { mockSources: "the sources a stub answerer is given; the suite asks the target, which retrieves its own" },
        "/*/",
      ),
    );
  }
  return read;
}

export const fixturesLayout: DatasetFormat = {
  name: "fixtures-layout",
  title: "fixtures layout (corpus/<language>/, queries.json array, ask-cases.json)",
  lookedFor: "corpus/ and queries.json or ask-cases.json as arrays",
  inFolder: (folder) => (isFixturesLayout(folder) ? "corpus/ and queries.json / ask-cases.json as arrays" : null),
  read: (folder) => readFixturesLayout(folder),
};
