/**
 * What every format reader returns (`FormatRead`), and the pieces several readers share: a corpus
 * that is a folder of files or documents given as data (read by the data layer's own reader,
 * documents.ts), the fields a reader does not map, a dataset's refusal markers.
 */
import { join } from "node:path";
import type { Document } from "@hybrid-search/target-contract/types";
import type { RefusalMarkers } from "../../../scorers/refusal.js";
import { lintRefusalMarkers } from "../../fixture-files/refusal-markers.js";
import { formatIssue } from "../../fixture-files/errors.js";
import { displayPath } from "../../fixture-files/paths.js";
import type { CorpusView, RecordOrigin } from "../lint.js";
import { checkDocumentSize, readFolderDocuments } from "../documents.js";
import type { AnswerCase, CorpusSource, DatasetGate, RetrievalCase, TranslationGroup, UnmappedField } from "../model.js";
import { checkSchema, isFile, readJsonFile } from "../read.js";

export interface FormatRead {
  corpus: string;
  corpusSource: CorpusSource;
  corpusView: CorpusView;
  corpusIds: readonly string[];
  declaredLanguages: ReadonlyMap<string, string>;
  cases: RetrievalCase[];
  caseOrigins: Map<RetrievalCase, RecordOrigin>;
  relevantDocs?: Map<RetrievalCase, readonly string[]>;
  askCases: AnswerCase[];
  askOrigins: Map<AnswerCase, RecordOrigin>;
  translations: TranslationGroup[];
  translationOrigins?: Map<TranslationGroup, RecordOrigin>;
  refusalMarkers: RefusalMarkers | null;
  gate: DatasetGate | null;
  unmapped: UnmappedField[];
  warnings: string[];
  files: string[];
}

type CorpusPart = Pick<FormatRead, "corpus" | "corpusSource" | "corpusView" | "corpusIds" | "declaredLanguages">;

/** A corpus that is a folder of files (the in-process engine indexes the folder itself): ids are paths below it. */
export function folderCorpus(folder: string): CorpusPart {
  const documents = readFolderDocuments(folder);
  return {
    corpus: folder,
    corpusSource: { kind: "folder", path: folder },
    corpusView: documentsView(displayPath(folder), documents),
    corpusIds: documents.map((d) => d.id),
    declaredLanguages: declaredLanguages(documents),
  };
}

/** A corpus of documents given as data (`corpus`: the file or folder they came from; `where`: how messages name it). */
export function documentsCorpus(corpus: string, where: string, documents: Document[], ids: "paths" | "keys"): CorpusPart {
  for (const d of documents) checkDocumentSize(`${where}: document ${JSON.stringify(d.id.slice(0, 80))}`, d.text);
  return {
    corpus,
    corpusSource: { kind: "documents", documents, ids },
    corpusView: documentsView(where, documents),
    corpusIds: documents.map((d) => d.id),
    declaredLanguages: declaredLanguages(documents),
  };
}

/** A read's records before its reader fills them: none of each. */
export function noRecords(): Omit<FormatRead, keyof CorpusPart> {
  return {
    cases: [],
    caseOrigins: new Map(),
    askCases: [],
    askOrigins: new Map(),
    translations: [],
    refusalMarkers: null,
    gate: null,
    unmapped: [],
    warnings: [],
    files: [],
  };
}

/** A corpus view over documents in memory. */
export function documentsView(where: string, documents: readonly Document[]): CorpusView {
  const byId = new Map(documents.map((d) => [d.id, d]));
  return { where, ids: new Set(byId.keys()), text: (id) => `${byId.get(id)?.title ?? ""}\n${byId.get(id)?.text ?? ""}` };
}

/** The languages the documents declare (the others are told when an eval needs them: language.ts). */
export function declaredLanguages(documents: readonly Document[]): Map<string, string> {
  const languages = new Map<string, string>();
  for (const d of documents) if (d.language) languages.set(d.id, d.language);
  return languages;
}

/**
 * The fields of `records` outside `known`: one entry per field with how many records have it.
 * `why` explains a field the reader knows and cannot map; others get the generic reason.
 */
export function unmappedFields(
  file: string,
  records: readonly unknown[],
  known: ReadonlySet<string>,
  why: Readonly<Record<string, string>> = {},
  prefix = "",
): UnmappedField[] {
  const counts = new Map<string, number>();
  for (const record of records) {
    if (record === null || typeof record !== "object" || Array.isArray(record)) continue;
    for (const key of Object.keys(record)) if (!known.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([field, n]) => ({
    file: displayPath(file),
    field: `${prefix}${field}`,
    records: n,
    why: why[field] ?? "not a field the suite knows for this format; nothing reads it",
  }));
}

/**
 * A dataset's own refusal-markers.json, when it has one: it replaces the suite's phrases. A phrase
 * of one word is accepted with a warning (the demo corpus's lint refuses it): it may turn ordinary
 * answers into refusals.
 */
export function readRefusalMarkers(folder: string, warnings: string[], files: string[]): RefusalMarkers | null {
  const path = join(folder, "refusal-markers.json");
  if (!isFile(path)) return null;
  files.push(path);
  const value = readJsonFile(path, { top: "object" });
  checkSchema(path, "dataset-refusal-markers.schema.json", value);
  const file = value as { version: 1; markers: Record<string, string[]> };
  for (const issue of lintRefusalMarkers(file))
    warnings.push(`${displayPath(path)}: ${formatIssue(issue)}; accepted, but it may mark ordinary answers as refusals`);
  return file.markers;
}
