/**
 * A golden Q&A set with an inline corpus: one JSON file (any name; in a folder, `golden_qa.json`)
 *
 *   { "thresholds": { "minPassRate": 0.8, "maxP95LatencyMs": 8000 },
 *     "corpus":    [{ "title": "…", "content": "…" }],
 *     "questions": [{ "id": "q001", "category": "factual", "question": "…",
 *                     "expectedSubstrings": ["…"], "expectedDocumentTitle": "…" },
 *                   { "id": "q008", "category": "adversarial", "question": "…", "expectedRefusal": true }] }
 *
 * Documents are keyed by title: a document's id is its title, so `expectedDocumentTitle` is the
 * required citation (`mustCite`). Every expected substring must be in the answer (the suite's
 * matching: case-insensitive, white space folded, numbers whole); `expectedRefusal` expects a
 * refusal. `thresholds` become the dataset's gate (helpers/datasets/thresholds.ts): the share of
 * questions that pass ≥ minPassRate and the p95 answer latency ≤ maxP95LatencyMs, or exit 1.
 * `version` and `description` describe the file and are kept in the report's hash only; any
 * other field is reported as not mapped.
 */
import { join } from "node:path";
import type { Document } from "@hybrid-search/target-contract/types";
import { show } from "../../fixture-files/errors.js";
import { displayPath } from "../../fixture-files/paths.js";
import type { AnswerCase } from "../model.js";
import { checkSchema, fail, isFile, readJsonFile, recordNamer } from "../read.js";
import type { DatasetFormat } from "../format.js";
import { DatasetError } from "../model.js";
import { documentsCorpus, type FormatRead, noRecords, unmappedFields } from "./common.js";

export const GOLDEN_QA_FILE = "golden_qa.json";

interface GoldenQa {
  thresholds?: { minPassRate?: number; maxP95LatencyMs?: number };
  corpus: Array<{ title: string; content: string }>;
  questions: Array<{
    id: string;
    category?: string;
    question: string;
    expectedSubstrings?: string[];
    expectedDocumentTitle?: string;
    expectedRefusal?: boolean;
  }>;
}

/** Whether `value` looks like a golden Q&A set: an object with a `questions` array. */
export function looksLikeGoldenQa(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return Array.isArray((value as Record<string, unknown>).questions);
}

/** The file of a golden Q&A set `source` names: the file itself, or golden_qa.json in the folder. */
export function goldenQaFile(source: string): string | null {
  if (isFile(source)) return source;
  const inFolder = join(source, GOLDEN_QA_FILE);
  return isFile(inFolder) ? inFolder : null;
}

export function readGoldenQa(path: string): FormatRead {
  const value = readJsonFile(path, { top: "object" }) as GoldenQa;
  checkSchema(path, "golden-qa.schema.json", value, (pointer) => {
    if (pointer.startsWith("/questions/")) return recordNamer(value.questions, "question", "/questions")(pointer);
    return { pointer };
  });
  const documents: Document[] = [];
  const firstTitle = new Map<string, number>();
  value.corpus.forEach((doc, i) => {
    const earlier = firstTitle.get(doc.title);
    if (earlier !== undefined)
      fail(path, [
        {
          pointer: `/corpus/${i}/title`,
          problem: `[duplicate-id] title ${show(doc.title)} is already used by /corpus/${earlier}: documents are keyed by title`,
        },
      ]);
    firstTitle.set(doc.title, i);
    // The set declares no language: a target tells it itself, the suite when an eval needs it (language.ts).
    documents.push({ id: doc.title, title: doc.title, text: doc.content, format: "text" });
  });
  const askCases: AnswerCase[] = [];
  const askOrigins: FormatRead["askOrigins"] = new Map();
  value.questions.forEach((q, i) => {
    const c: AnswerCase = {
      id: q.id,
      question: q.question,
      ...(q.category ? { category: q.category } : {}),
      ...(q.expectedSubstrings && q.expectedSubstrings.length > 0 ? { expectedSubstrings: q.expectedSubstrings } : {}),
      ...(q.expectedDocumentTitle ? { mustCite: [q.expectedDocumentTitle] } : {}),
      ...(q.expectedRefusal !== undefined ? { expectedRefusal: q.expectedRefusal } : {}),
    };
    askCases.push(c);
    askOrigins.set(c, {
      file: path,
      record: `question ${q.id}`,
      pointer: `/questions/${i}`,
      fields: { mustCite: "expectedDocumentTitle" },
    });
  });
  const t = value.thresholds;
  const gate =
    t && (t.minPassRate !== undefined || t.maxP95LatencyMs !== undefined)
      ? {
          ...(t.minPassRate !== undefined ? { minPassRate: t.minPassRate } : {}),
          ...(t.maxP95LatencyMs !== undefined ? { maxP95LatencyMs: t.maxP95LatencyMs } : {}),
          source: `${displayPath(path)} /thresholds`,
        }
      : null;
  return {
    ...documentsCorpus(path, `${displayPath(path)} /corpus`, documents, "keys"),
    ...noRecords(),
    askCases,
    askOrigins,
    gate,
    unmapped: [
      ...unmappedFields(path, [value], new Set(["version", "description", "thresholds", "corpus", "questions"]), {}, "/"),
      ...unmappedFields(path, value.thresholds ? [value.thresholds] : [], new Set(["minPassRate", "maxP95LatencyMs"]), {}, "/thresholds/"),
      ...unmappedFields(path, value.corpus, new Set(["title", "content"]), {}, "/corpus/*/"),
      ...unmappedFields(
        path,
        value.questions,
        new Set(["id", "category", "question", "expectedSubstrings", "expectedDocumentTitle", "expectedRefusal"]),
        {},
        "/questions/*/",
      ),
    ],
    files: [path],
  };
}

export const goldenQa: DatasetFormat = {
  name: "golden-qa",
  title: "golden Q&A set with an inline corpus",
  lookedFor: `${GOLDEN_QA_FILE}, or a .json file with "corpus" and "questions"`,
  inFolder: (folder) => (isFile(join(folder, GOLDEN_QA_FILE)) ? GOLDEN_QA_FILE : null),
  inFile(file, forced) {
    if (!/\.json$/i.test(file)) return null;
    if (forced || looksLikeGoldenQa(readJsonFile(file))) return `a JSON file with "questions"`;
    throw new DatasetError(
      `EVAL_DATASET: ${file}: a JSON file without a "questions" array (a golden Q&A set has "corpus" and "questions")`,
    );
  },
  read: (path) => readGoldenQa(goldenQaFile(path)!),
};
