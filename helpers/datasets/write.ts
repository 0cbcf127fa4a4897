/**
 * A dataset written in the suite's fixture format (helpers/datasets/formats/fixtures.ts), for
 * curation and versioning (`pnpm eval:import`):
 *
 * - documents: a folder corpus's files are copied byte for byte under corpus/ with the same paths
 *   (their ids stay); documents given as data or read from a corpus.jsonl become Markdown files
 *   `corpus/<id as a file name>.md` with their title, language and validity in front matter, and
 *   every judgment, citation and translation is renamed to the new id;
 * - queries.json with the judged queries (none when the format had no judgments: loading the
 *   written folder derives the same cases from the answer cases again);
 * - ask-cases.json with the answer cases, and the dataset's own gate under `gate`;
 * - translations.json and refusal-markers.json when the dataset has them; schemas/ for editors.
 *
 * Written in a fixed key order, so importing the written folder again writes the same bytes.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Document } from "@hybrid-search/target-contract/types";
import { FIXTURES_DIR } from "../fixture-files/paths.js";
import { readCorpusJsonl } from "./documents.js";
import type { DraftFields } from "./drafts.js";
import type { Written } from "./format.js";
import type { AnswerCase, Dataset, RetrievalCase } from "./model.js";

/** The schemas a written folder's files name in `$schema` (copied from fixtures/schemas/dataset-*.schema.json). */
const SCHEMAS = ["queries", "ask-cases", "translations", "refusal-markers"] as const;

/** A file name for a document id that is not a path: lower case, letters and digits joined by "-". */
function fileNameOf(id: string): string {
  const slug = id
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return slug === "" ? "document" : slug;
}

/** YAML front matter of a written document: values as JSON strings, which YAML reads as they are. */
function markdownFile(doc: Document, rename: (id: string) => string): string {
  const lines = [`title: ${JSON.stringify(doc.title ?? "")}`];
  // Only a language the dataset declares: a guess written down would read as the dataset's word.
  if (doc.language) lines.push(`lang: ${JSON.stringify(doc.language)}`);
  if (doc.validFrom) lines.push(`validFrom: ${JSON.stringify(doc.validFrom)}`);
  if (doc.validUntil) lines.push(`validUntil: ${JSON.stringify(doc.validUntil)}`);
  if (doc.supersedes && doc.supersedes.length > 0) lines.push(`supersedes: ${JSON.stringify(doc.supersedes.map(rename))}`);
  return `---\n${lines.join("\n")}\n---\n${doc.text.replace(/\s+$/, "")}\n`;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The record's fields in a fixed order, absent ones left out. */
function ordered<T extends object>(record: T, keys: ReadonlyArray<keyof T>): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

// A drafted case's status, provenance and review come last, and are kept: an imported draft stays a draft.
const QUERY_KEYS = [
  "id",
  "query",
  "language",
  "category",
  "identifier",
  "judgments",
  "relevantDocs",
  "note",
  "status",
  "provenance",
  "reviewed",
] as const;
const CASE_KEYS: ReadonlyArray<keyof AnswerCase> = [
  "id",
  "question",
  "language",
  "category",
  "expectedSubstrings",
  "forbiddenSubstrings",
  "expectedTopics",
  "mustCite",
  "expectedRefusal",
  "referenceAnswer",
  "note",
  "status",
  "provenance",
  "reviewed",
];

/** A drafted case's provenance with its documents renamed as the corpus was (nothing when it has none). */
function renamedProvenance(c: DraftFields, rename: (id: string) => string): Pick<DraftFields, "provenance"> {
  const p = c.provenance;
  if (!p) return {};
  return {
    provenance: {
      ...p,
      ...(p.docId !== undefined ? { docId: rename(p.docId) } : {}),
      ...(p.also ? { also: p.also.map((a) => ({ ...a, docId: rename(a.docId) })) } : {}),
    },
  };
}

/** Writes `dataset` into `folder` (which must not exist or be empty; the caller checks). */
export function writeFixtureFormat(dataset: Dataset, folder: string): Written {
  const corpusDir = join(folder, "corpus");
  mkdirSync(corpusDir, { recursive: true });
  const files: string[] = [];
  const renamed: Array<[string, string]> = [];
  const source = dataset.corpusSource;
  let rename = (id: string): string => id;
  if (source.kind === "folder" || (source.kind === "documents" && source.ids === "paths")) {
    // File paths stay: each document is copied as it is.
    const root = source.kind === "folder" ? source.path : dataset.corpus;
    for (const id of dataset.corpusIds) {
      const to = join(corpusDir, ...id.split("/"));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(root, ...id.split("/")), to);
    }
  } else {
    const documents: Document[] = source.kind === "documents" ? [...source.documents] : readCorpusJsonl(source.path);
    const names = new Map<string, string>();
    const used = new Set<string>();
    for (const doc of documents) {
      const base = fileNameOf(doc.id);
      let name = `${base}.md`;
      for (let n = 2; used.has(name); n++) name = `${base}-${n}.md`;
      used.add(name);
      names.set(doc.id, name);
      if (name !== doc.id) renamed.push([doc.id, name]);
    }
    rename = (id) => names.get(id) ?? id;
    for (const doc of documents) writeFileSync(join(corpusDir, rename(doc.id)), markdownFile(doc, rename));
  }
  const write = (name: string, value: unknown): void => {
    writeFileSync(join(folder, name), json(value));
    files.push(name);
  };
  if (!dataset.derivedCases && dataset.cases.length > 0)
    write("queries.json", {
      $schema: "./schemas/queries.schema.json",
      version: 1,
      queries: dataset.cases.map((c: RetrievalCase) => {
        const judgments = Object.fromEntries(Object.entries(c.judgments).map(([doc, grade]) => [rename(doc), grade]));
        const relevantDocs = Object.entries(judgments)
          .filter(([, grade]) => grade >= 1)
          .map(([doc]) => doc);
        return ordered(
          { ...c, collection: undefined, judgments, relevantDocs, ...renamedProvenance(c, rename) } as RetrievalCase & {
            relevantDocs: string[];
          },
          QUERY_KEYS,
        );
      }),
    });
  if (dataset.askCases.length > 0)
    write("ask-cases.json", {
      $schema: "./schemas/ask-cases.schema.json",
      version: 1,
      ...(dataset.gate
        ? {
            gate: ordered({ minPassRate: dataset.gate.minPassRate, maxP95LatencyMs: dataset.gate.maxP95LatencyMs }, [
              "minPassRate",
              "maxP95LatencyMs",
            ]),
          }
        : {}),
      cases: dataset.askCases.map((c) =>
        ordered({ ...c, ...(c.mustCite ? { mustCite: c.mustCite.map(rename) } : {}), ...renamedProvenance(c, rename) }, CASE_KEYS),
      ),
    });
  if (dataset.translations.length > 0)
    write("translations.json", {
      $schema: "./schemas/translations.schema.json",
      version: 1,
      groups: dataset.translations.map((g) => ordered({ ...g, docs: g.docs.map(rename) }, ["id", "docs", "note"])),
    });
  if (dataset.refusalMarkers)
    write("refusal-markers.json", { $schema: "./schemas/refusal-markers.schema.json", version: 1, markers: dataset.refusalMarkers });
  mkdirSync(join(folder, "schemas"), { recursive: true });
  for (const name of SCHEMAS)
    copyFileSync(join(FIXTURES_DIR, "schemas", `dataset-${name}.schema.json`), join(folder, "schemas", `${name}.schema.json`));
  return { documents: dataset.corpusIds.length, renamed, files };
}
