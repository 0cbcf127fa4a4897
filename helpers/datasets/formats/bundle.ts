/**
 * A bundle of documents with its golden questions in `eval/golden.json`:
 *
 *   <bundle>/**\/*.md         the documents (everything but eval/), read as a folder corpus
 *   <bundle>/eval/golden.json [{ "id", "question", "expected_answer", "must_cite": ["policies/refunds"], "tags": ["policy"] }]
 *
 * A document's id is its path below the bundle (`policies/refunds.md`); `must_cite` names a
 * document by that path with or without its extension (`policies/refunds`), as bundles name their
 * concepts. `expected_answer` is reference text (`referenceAnswer`): shown to the judge and used by
 * the golden-set warning, never matched as a fact. The first tag is the question's category (it
 * slices the floors); further tags are reported as not mapped. A malformed golden.json is
 * `[golden-invalid]` (not JSON, with its line) or `[golden-schema]` (a record that breaks the
 * schema, named by its id), as the bundle tool names them.
 */
import { dirname, join, resolve, sep } from "node:path";
import { show } from "../../fixture-files/errors.js";
import { displayPath } from "../../fixture-files/paths.js";
import type { AnswerCase } from "../model.js";
import { checkSchema, fail, isFile, readJsonFile, recordNamer } from "../read.js";
import type { DatasetFormat } from "../format.js";
import { readFolderDocuments } from "../documents.js";
import { documentsCorpus, type FormatRead, noRecords, unmappedFields } from "./common.js";

export const GOLDEN_FILE = join("eval", "golden.json");

interface GoldenRecord {
  id: string;
  question: string;
  expected_answer?: string;
  must_cite?: string[];
  tags?: string[];
}

/** The bundle `source` names: a folder with eval/golden.json, or that file itself. */
export function bundleRoot(source: string): string | null {
  if (isFile(join(source, GOLDEN_FILE))) return source;
  if (isFile(source) && resolve(source).split(sep).slice(-2).join("/") === "eval/golden.json") return dirname(dirname(resolve(source)));
  return null;
}

export function readBundle(root: string): FormatRead {
  const path = join(root, GOLDEN_FILE);
  const value = readJsonFile(path, { top: "array", syntaxName: "golden-invalid" }) as GoldenRecord[];
  checkSchema(path, "bundle-golden.schema.json", value, recordNamer(Array.isArray(value) ? value : [], "record", ""), "golden-schema");
  const documents = readFolderDocuments(root, (id) => id.startsWith("eval/"));
  const ids = new Set(documents.map((d) => d.id));
  // A name without its extension resolves to the one document with that path and any extension.
  const byStem = new Map<string, string[]>();
  for (const id of ids) {
    const stem = id.replace(/\.[^./]+$/, "");
    byStem.set(stem, [...(byStem.get(stem) ?? []), id]);
  }
  const resolveName = (name: string, at: string): string => {
    if (ids.has(name)) return name;
    const matches = byStem.get(name.replace(/^\.?\//, "")) ?? [];
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1)
      fail(path, [{ pointer: at, problem: `${show(name)} names ${matches.length} documents (${matches.join(", ")}); give the extension` }]);
    return name; // not a document: the lint names it [unknown-document]
  };
  const askCases: AnswerCase[] = [];
  const askOrigins: FormatRead["askOrigins"] = new Map();
  value.forEach((r, i) => {
    const mustCite = (r.must_cite ?? []).map((name, j) => resolveName(name, `/${i}/must_cite/${j}`));
    const c: AnswerCase = {
      id: r.id,
      question: r.question,
      ...(r.tags && r.tags.length > 0 ? { category: r.tags[0]! } : {}),
      ...(mustCite.length > 0 ? { mustCite } : {}),
      ...(r.expected_answer && r.expected_answer.trim() !== "" ? { referenceAnswer: r.expected_answer } : {}),
    };
    askCases.push(c);
    askOrigins.set(c, {
      file: path,
      record: `record ${r.id}`,
      pointer: `/${i}`,
      fields: { mustCite: "must_cite", referenceAnswer: "expected_answer", category: "tags" },
    });
  });
  const extraTags = value.filter((r) => (r.tags ?? []).length > 1).length;
  return {
    ...documentsCorpus(root, `${displayPath(root)} (the bundle's documents)`, documents, "paths"),
    ...noRecords(),
    askCases,
    askOrigins,
    unmapped: [
      ...unmappedFields(path, value, new Set(["id", "question", "expected_answer", "must_cite", "tags"]), {}, "/*/"),
      ...(extraTags > 0
        ? [
            {
              file: displayPath(path),
              field: "/*/tags/1…",
              records: extraTags,
              why: "a question has one category (its first tag, which slices the floors); the other tags are not used",
            },
          ]
        : []),
    ],
    files: [path],
  };
}

export const bundle: DatasetFormat = {
  name: "bundle",
  title: "document bundle with eval/golden.json",
  lookedFor: "eval/golden.json",
  inFolder: (folder) => (bundleRoot(folder) ? "eval/golden.json" : null),
  inFile: (file) => (bundleRoot(file) ? "eval/golden.json" : null),
  root: (path) => bundleRoot(path) ?? path,
  read: (path) => readBundle(bundleRoot(path)!),
};
