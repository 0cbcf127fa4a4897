/**
 * A question/reference JSONL file, as teams coming from the Python evaluation tools have them: one
 * JSON object per line,
 *
 *   {"user_input": "…", "reference": "…", "reference_contexts": ["…"], "reference_context_ids": ["doc-7"]}
 *
 * - the question: `user_input` or `question`;
 * - the reference answer: `reference`, `ground_truth` or the first of `ground_truths` → the answer
 *   case's `referenceAnswer` (reference text for the judge and the golden-set warning, not a fact
 *   matched literally);
 * - `reference_contexts`: the passages that hold the answer. They are the corpus (one document
 *   each, the same text once), and the record's retrieval case judges them relevant (1), which is
 *   what context recall measures; `reference_context_ids` name them (else `ctx-<hash of the text>`);
 * - `id` (string or number), else `line-<n>`.
 *
 * A line with neither a reference nor reference contexts states no expectation: `[no-expectation]`.
 * What a system produced (`response`, `retrieved_contexts`, …) and rubrics are reported as not
 * mapped: the suite asks the target itself.
 */
import { createHash } from "node:crypto";
import type { Document } from "@hybrid-search/target-contract/types";
import { show } from "../../fixture-files/errors.js";
import { displayPath } from "../../fixture-files/paths.js";
import type { AnswerCase, RetrievalCase, UnmappedField } from "../model.js";
import { checkSchema, fail, named, readJsonlFile } from "../read.js";
import type { DatasetFormat } from "../format.js";
import { DatasetError } from "../model.js";
import { documentsCorpus, type FormatRead, noRecords, unmappedFields } from "./common.js";

interface QaRecord {
  id?: string | number;
  question?: string;
  user_input?: string;
  reference?: string;
  ground_truth?: string;
  ground_truths?: string[];
  reference_contexts?: string[];
  reference_context_ids?: string[];
}

const KNOWN = new Set([
  "id",
  "question",
  "user_input",
  "reference",
  "ground_truth",
  "ground_truths",
  "reference_contexts",
  "reference_context_ids",
]);
const OUTPUT =
  "a system's recorded output; the suite asks the target itself (recorded answers go in an EVAL_RUN_DIR folder, docs/targets.md)";
const WHY: Record<string, string> = {
  response: OUTPUT,
  answer: OUTPUT,
  multi_responses: OUTPUT,
  retrieved_contexts: OUTPUT,
  retrieved_context_ids: OUTPUT,
  contexts: OUTPUT,
  rubrics: "rubric grading is not one of the suite's graders",
  reference_tool_calls: "tool calls are not graded by the suite",
};

/** Whether a JSONL file's first record looks like this format. */
export function looksLikeQaJsonl(first: unknown): boolean {
  if (first === null || typeof first !== "object" || Array.isArray(first)) return false;
  const r = first as Record<string, unknown>;
  return typeof r.user_input === "string" || typeof r.question === "string";
}

export function readQaJsonl(path: string): FormatRead {
  const lines = readJsonlFile(path);
  if (lines.length === 0) fail(path, [{ pointer: "", problem: named("no-expectation", "the file holds no record") }]);
  const documents: Document[] = [];
  const textOf = new Map<string, { text: string; line: number }>();
  const cases: RetrievalCase[] = [];
  const caseOrigins: FormatRead["caseOrigins"] = new Map();
  const askCases: AnswerCase[] = [];
  const askOrigins: FormatRead["askOrigins"] = new Map();
  let extraTruths = 0;
  for (const { line, value } of lines) {
    const record = `line ${line}`;
    checkSchema(path, "qa-jsonl.schema.json", value, (pointer) => ({ record, pointer }));
    const r = value as QaRecord;
    const id = r.id === undefined ? `line-${line}` : String(r.id);
    const question = (r.user_input ?? r.question)!;
    const reference = r.reference ?? r.ground_truth ?? r.ground_truths?.[0];
    if ((r.ground_truths?.length ?? 0) > 1) extraTruths++;
    const contexts = r.reference_contexts ?? [];
    const ids = r.reference_context_ids;
    if (ids && ids.length !== contexts.length)
      fail(path, [
        {
          record,
          pointer: "/reference_context_ids",
          problem: `names ${ids.length} context(s), but reference_contexts holds ${contexts.length}: one id per context`,
        },
      ]);
    const judged: string[] = [];
    contexts.forEach((text, i) => {
      const docId = ids?.[i] ?? `ctx-${createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
      const seen = textOf.get(docId);
      if (seen && seen.text !== text)
        fail(path, [
          {
            record,
            pointer: `/reference_context_ids/${i}`,
            problem: named("duplicate-id", `${show(docId)} names another text on line ${seen.line}: one id, one document`),
          },
        ]);
      if (!seen) {
        textOf.set(docId, { text, line });
        documents.push({ id: docId, title: "", text, format: "text" });
      }
      judged.push(docId);
    });
    const origin = {
      file: path,
      record,
      pointer: "",
      fields: {
        referenceAnswer: r.reference !== undefined ? "reference" : r.ground_truth !== undefined ? "ground_truth" : "ground_truths/0",
      },
    };
    if (reference !== undefined && reference.trim() !== "") {
      const c: AnswerCase = { id, question, referenceAnswer: reference };
      askCases.push(c);
      askOrigins.set(c, origin);
    }
    if (judged.length > 0) {
      const c: RetrievalCase = { id, query: question, judgments: Object.fromEntries(judged.map((d) => [d, 1])) };
      cases.push(c);
      caseOrigins.set(c, { ...origin, fields: { judgments: "reference_contexts" } });
    }
    if (judged.length === 0 && (reference === undefined || reference.trim() === ""))
      fail(path, [
        {
          record,
          pointer: "",
          problem: named("no-expectation", "the record has neither a reference answer nor reference contexts: nothing could be measured"),
        },
      ]);
  }
  const unmapped: UnmappedField[] = unmappedFields(
    path,
    lines.map((l) => l.value),
    KNOWN,
    WHY,
    "/",
  );
  if (extraTruths > 0)
    unmapped.push({
      file: displayPath(path),
      field: "/ground_truths/1…",
      records: extraTruths,
      why: "a question has one reference answer (the first); the others are not used",
    });
  const both = lines.filter((l) => {
    const v = l.value as QaRecord;
    return v.user_input !== undefined && v.question !== undefined;
  }).length;
  if (both > 0)
    unmapped.push({
      file: displayPath(path),
      field: "/question",
      records: both,
      why: "user_input is the question; question, given too, is not used",
    });
  return {
    ...documentsCorpus(path, `${displayPath(path)} (its reference_contexts)`, documents, "keys"),
    ...noRecords(),
    cases,
    caseOrigins,
    askCases,
    askOrigins,
    unmapped,
    files: [path],
  };
}

export const qaJsonl: DatasetFormat = {
  name: "qa-jsonl",
  title: "question/reference JSONL",
  lookedFor: "a .jsonl file whose records have a question, named as the file itself",
  inFile(file, forced) {
    if (!/\.jsonl$/i.test(file)) return null;
    if (forced || looksLikeQaJsonl(readJsonlFile(file)[0]?.value)) return "JSONL records with a question";
    throw new DatasetError(
      `EVAL_DATASET: ${file}: a JSONL file whose first record has no "question" or "user_input"; a BEIR corpus.jsonl is named by its folder`,
    );
  },
  read: (path) => readQaJsonl(path),
};
