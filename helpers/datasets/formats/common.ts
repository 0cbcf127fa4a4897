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
import type {
  AnswerCase,
  CorpusSource,
  DatasetGate,
  DatasetTurns,
  RetrievalCase,
  SplitRelevance,
  TranslationGroup,
  UnmappedField,
} from "../model.js";
import { checkSchema, isFile, readJsonFile } from "../read.js";

export interface FormatRead {
  corpus: string;
  corpusSource: CorpusSource;
  corpusView: CorpusView;
  corpusIds: readonly string[];
  declaredLanguages: ReadonlyMap<string, string>;
  cases: RetrievalCase[];
  caseOrigins: Map<RetrievalCase, RecordOrigin>;
  /** relevantDocs as the source lists them, by case (the lint names their documents under that field). */
  relevantDocs?: Map<RetrievalCase, readonly string[]>;
  /** Set when some case's relevant set differs from its documents judged 1 or more (relevantSets). */
  splitRelevance?: SplitRelevance | null;
  /** The `version` the source states (a golden Q&A set's), when it states one. */
  version?: number | string | null;
  askCases: AnswerCase[];
  askOrigins: Map<AnswerCase, RecordOrigin>;
  /** Agent turn cases, read and linted against the corpus (helpers/datasets/turn-cases.ts), when the dataset has them. */
  turns?: DatasetTurns | null;
  translations: TranslationGroup[];
  translationOrigins?: Map<TranslationGroup, RecordOrigin>;
  refusalMarkers: RefusalMarkers | null;
  gate: DatasetGate | null;
  unmapped: UnmappedField[];
  warnings: string[];
  files: string[];
}

type CorpusPart = Pick<FormatRead, "corpus" | "corpusSource" | "corpusView" | "corpusIds" | "declaredLanguages">;

/**
 * A corpus that is a folder of files (the in-process engine indexes the folder itself): ids are
 * paths below it. With `frontMatterIds` (the suite's fixture format), a file may name its own id
 * (front matter `id`, what `pnpm eval:import` writes for ids that are not paths); a folder where
 * one does is given to the engine and to a target as documents keyed by those ids (`keys`: the
 * words of a path are then not searched, as for the source they came from).
 */
export function folderCorpus(folder: string, { frontMatterIds = false }: { frontMatterIds?: boolean } = {}): CorpusPart {
  const paths = new Map<string, string>();
  const documents = readFolderDocuments(folder, undefined, { frontMatterIds, paths });
  if ([...paths].some(([id, path]) => id !== path))
    return {
      corpus: folder,
      corpusSource: { kind: "documents", documents, ids: "keys", files: { root: folder, paths } },
      corpusView: documentsView(displayPath(folder), documents),
      corpusIds: documents.map((d) => d.id),
      declaredLanguages: declaredLanguages(documents),
    };
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

/**
 * A query's graded judgments and relevant set, with the semantics of the tool that lists both (an
 * Evalite-based suite's fixtures layout): its `relevantDocs` are what Recall@k and the "required"
 * checks count, its graded judgments what nDCG@k counts. A listed document without a judgment
 * counts as judged 1; a document judged 1 or more but not listed counts for nDCG@k only; a listed
 * document judged 0 stays listed (the lint warns). `relevant` is returned only when the listed set
 * differs from the documents judged 1 or more, so a dataset whose two sets agree is the same model
 * as one without relevantDocs. Listing a document twice lists it once.
 */
export function relevantSets(
  judgments: Readonly<Record<string, number>>,
  listed: readonly string[] | undefined,
): Pick<RetrievalCase, "judgments" | "relevant"> {
  if (listed === undefined) return { judgments: { ...judgments } };
  const relevant = [...new Set(listed)];
  // Entries, never assignment: a document id such as "__proto__" is an id like any other.
  const graded: Record<string, number> = Object.fromEntries([
    ...Object.entries(judgments),
    ...relevant.filter((doc) => !Object.hasOwn(judgments, doc)).map((doc) => [doc, 1] as const),
  ]);
  const positive = Object.keys(graded).filter((doc) => graded[doc]! >= 1);
  const same = positive.length === relevant.length && relevant.every((doc) => graded[doc]! >= 1);
  return same ? { judgments: graded } : { judgments: graded, relevant };
}

/** What the run's header and report say of a read whose relevant sets differ from its judgments in some case, or null. */
export function splitRelevanceOf(cases: readonly RetrievalCase[], relevantField: string, gradedField: string): SplitRelevance | null {
  const n = cases.filter((c) => c.relevant !== undefined).length;
  return n === 0 ? null : { relevantField, gradedField, cases: n };
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
