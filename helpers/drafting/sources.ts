/**
 * What the drafter drafts from: a dataset in any format the suite reads (helpers/dataset.ts), or a
 * bare corpus — a folder of Markdown or text files, or a corpus.jsonl, with no cases at all — read
 * by the data layer's own reader (helpers/datasets/documents.ts: document ids as a run indexes
 * them), and each document's language: the one it declares, else told by the suite's language
 * identifier (helpers/datasets/language.ts), never by the engine.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { type Dataset, loadDataset } from "../dataset.js";
import { corpusDocuments } from "../datasets/documents.js";
import { declaredLanguages } from "../datasets/formats/common.js";
import { documentLanguages } from "../datasets/language.js";
import type { SourceDocument } from "./rules.js";

/** The files that make a folder a dataset rather than a bare corpus (helpers/datasets/detect.ts). */
const DATASET_FILES = ["queries.json", "ask-cases.json", "golden_qa.json", "queries.jsonl", join("eval", "golden.json")];

const exists = (path: string): boolean => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};

/** A bare corpus at `source` (a folder without any dataset file, a folder with only corpus.jsonl, or a corpus JSONL file), or null. */
export function bareCorpus(source: string): { kind: "folder" | "jsonl"; path: string } | null {
  const path = resolve(source);
  if (!exists(path)) return null;
  if (statSync(path).isFile()) {
    if (extname(path) !== ".jsonl") return null;
    const first = readFileSync(path, "utf8")
      .split("\n")
      .find((l) => l.trim() !== "");
    try {
      const record = JSON.parse(first ?? "") as Record<string, unknown>;
      return typeof record.text === "string" && ("_id" in record || "id" in record) && !("question" in record) && !("user_input" in record)
        ? { kind: "jsonl", path }
        : null;
    } catch {
      return null;
    }
  }
  if (DATASET_FILES.some((f) => exists(join(path, f)))) return null;
  if (exists(join(path, "corpus.jsonl"))) return { kind: "jsonl", path: join(path, "corpus.jsonl") };
  return readdirSync(path).length > 0 ? { kind: "folder", path } : null;
}

/** A bare corpus as a dataset without cases (what the fixture-format writer writes: its documents only). */
export function corpusDataset(corpus: { kind: "folder" | "jsonl"; path: string }): Dataset {
  const read = corpusDocuments(corpus);
  const name = basename(corpus.kind === "jsonl" && basename(corpus.path) === "corpus.jsonl" ? dirname(corpus.path) : corpus.path).replace(
    /\.jsonl$/,
    "",
  );
  return {
    name,
    format: corpus.kind === "folder" ? "fixtures" : "beir",
    demo: false,
    source: corpus.path,
    corpus: corpus.path,
    corpusSource: { kind: corpus.kind, path: corpus.path },
    collection: name,
    cases: [],
    derivedCases: false,
    askCases: [],
    turns: null,
    translations: [],
    refusalMarkers: null,
    gate: null,
    splitRelevance: null,
    version: null,
    unmapped: [],
    warnings: [],
    corpusIds: read.documents.map((d) => d.id),
    declaredLanguages: declaredLanguages(read.documents),
    files: [],
  };
}

/** The dataset or bare corpus at `source` (`format`: EVAL_DATASET_FORMAT's say), and whether it was a bare corpus. */
export function draftSource(source: string, format?: string): { dataset: Dataset; bare: boolean } {
  const bare = format ? null : bareCorpus(source);
  if (bare) return { dataset: corpusDataset(bare), bare: true };
  return { dataset: loadDataset({ EVAL_DATASET: source, ...(format ? { EVAL_DATASET_FORMAT: format } : {}) }), bare: false };
}

/** The dataset's documents as the drafter reads them: id, title, text and base language (declared, else told by the suite's identifier). */
export async function sourceDocuments(dataset: Dataset): Promise<SourceDocument[]> {
  const languages = await documentLanguages(dataset);
  return corpusDocuments(dataset.corpusSource).documents.map((d) => {
    const language = d.language ?? languages.get(d.id);
    return {
      id: d.id,
      title: d.title?.trim() ? d.title : null,
      text: d.text,
      language: language ? language.toLowerCase().split(/[-_]/)[0] : undefined,
    };
  });
}

/** Each document's id, title and text, for checking quotes against (no languages needed). */
export function sourceTexts(dataset: Dataset): Array<{ id: string; title: string | null; text: string }> {
  return corpusDocuments(dataset.corpusSource).documents.map((d) => ({ id: d.id, title: d.title?.trim() ? d.title : null, text: d.text }));
}
