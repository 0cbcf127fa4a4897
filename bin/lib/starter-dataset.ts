/**
 * `pnpm eval:init <folder>`: a small, self-consistent starter dataset in the suite's own formats,
 * so a new user sees every file working before writing their own. The dataset is data, in
 * `templates/starter/`: four documents of a fictional note-taking service (one with its German
 * translation), judged retrieval queries, answer cases with every kind of expectation (facts,
 * required citations, topics, forbidden text, a refusal, a false premise), translations and a
 * README. `eval:init` copies it, adds the repo's refusal markers and the schemas of a user's dataset
 * (`fixtures/schemas/dataset-*.schema.json`, copied, not restated: the user extends the current
 * ones), and writes the same documents and judgments in the BEIR format too (corpus.jsonl,
 * queries.jsonl, qrels/test.tsv), derived from the fixture files so the two cannot disagree.
 *
 * After writing, the folder is loaded back as `EVAL_DATASET` reads it, in both formats (the schemas
 * and the lint of helpers/datasets/): what `eval:init` writes is what a run accepts.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadDataset } from "../../helpers/dataset.js";
import { FIXTURES_DIR, listCorpusDocs, loadQueries, REPO_ROOT, readCorpusDoc } from "../../helpers/fixture-files.js";

/** The starter dataset as eval:init copies it. */
export const STARTER_DIR = join(REPO_ROOT, "templates", "starter");

const SCHEMAS = ["queries", "ask-cases", "translations", "refusal-markers"] as const;

/** A folder that cannot take the starter dataset; the CLI prints it as one line and exits 2. */
export class StarterFolderError extends Error {
  override readonly name = "StarterFolderError";
}

/** What the fixture checks found in a written folder. */
export interface StarterCheck {
  documents: number;
  queries: number;
  askCases: number;
  translationGroups: number;
  refusalLanguages: number;
  beirJudgedQueries: number;
}

/** A Markdown document as a BEIR record: the `# Title` line is the title, the rest the text. */
function beirDocument(id: string, markdown: string): { _id: string; title: string; text: string } {
  const [first = "", ...rest] = markdown.split("\n");
  const title = first.replace(/^#\s+/, "");
  return { _id: id, title, text: rest.join("\n").trim() };
}

/** The BEIR view of a folder in the fixture format: path → content, from its corpus and queries.json. */
export function beirView(folder: string): Map<string, string> {
  const corpusDir = join(folder, "corpus");
  const queries = loadQueries({ dir: folder });
  const jsonl = (records: readonly unknown[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join("");
  const qrels = queries.flatMap((q) => Object.entries(q.judgments).map(([doc, grade]) => `${q.id}\t${doc}\t${grade}\n`));
  return new Map([
    ["corpus.jsonl", jsonl(listCorpusDocs(corpusDir).map((id) => beirDocument(id, readCorpusDoc(id, corpusDir))))],
    ["queries.jsonl", jsonl(queries.map((q) => ({ _id: q.id, text: q.query })))],
    [join("qrels", "test.tsv"), `query-id\tcorpus-id\tscore\n${qrels.join("")}`],
  ]);
}

/** Writes the starter dataset into `folder` (created; it must not hold anything yet), then checks it. */
export function writeStarterDataset(folder: string): StarterCheck {
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new StarterFolderError(
      `${folder} is not empty; eval:init writes only into a new or empty folder, so nothing of yours is overwritten`,
    );
  }
  cpSync(STARTER_DIR, folder, { recursive: true });
  copyFileSync(join(FIXTURES_DIR, "refusal-markers.json"), join(folder, "refusal-markers.json"));
  mkdirSync(join(folder, "schemas"), { recursive: true });
  for (const name of SCHEMAS)
    copyFileSync(join(FIXTURES_DIR, "schemas", `dataset-${name}.schema.json`), join(folder, "schemas", `${name}.schema.json`));
  mkdirSync(join(folder, "qrels"), { recursive: true });
  for (const [path, content] of beirView(folder)) writeFileSync(join(folder, path), content);
  return checkStarterDataset(folder);
}

/** Loads a folder written by eval:init as a run reads it, in both formats. Throws FixtureError / DatasetError. */
export function checkStarterDataset(folder: string): StarterCheck {
  const dataset = loadDataset({ EVAL_DATASET: folder, EVAL_DATASET_FORMAT: "fixtures" });
  const beir = loadDataset({ EVAL_DATASET: folder, EVAL_DATASET_FORMAT: "beir" });
  return {
    documents: dataset.corpusIds.length,
    queries: dataset.cases.length,
    askCases: dataset.askCases.length,
    translationGroups: dataset.translations.length,
    refusalLanguages: Object.keys(dataset.refusalMarkers ?? {}).length,
    beirJudgedQueries: beir.cases.length,
  };
}
