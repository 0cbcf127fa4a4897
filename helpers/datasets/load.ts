/**
 * Loading the run's dataset: the project's fixtures by default, or the folder or file named in
 * `EVAL_DATASET`, in the format detected (helpers/datasets/detect.ts) or named in
 * `EVAL_DATASET_FORMAT`; validated (each format's JSON Schema, then the common lint of
 * helpers/datasets/lint.ts) before anything runs. A dataset without retrieval judgments gets one
 * retrieval case per answer case with required citations (those documents judged relevant), so the
 * ranking evals measure whether the documents a question needs are found.
 */
import { resolve } from "node:path";
import type { Document } from "@hybrid-search/target-contract/types";
import { splitNameProblem } from "@hybrid-search/trec-eval/formats";
import { displayPath, FIXTURES_DIR } from "../fixture-files/paths.js";
import type { DocumentsSource } from "../setup-db.js";
import { datasetName, type Detected, detectFormat } from "./detect.js";
import type { FormatRead } from "./formats/common.js";
import { fixtures, readDemoFixtures } from "./formats/fixtures.js";
import { lintDataset } from "./lint.js";
import { casesFromAnswers, type Dataset, DatasetError, judgedCases } from "./model.js";

/** The run's dataset, from the environment (EVAL_DATASET, EVAL_DATASET_FORMAT, EVAL_DATASET_SPLIT). */
export function loadDataset(env: NodeJS.ProcessEnv = process.env): Dataset {
  return readDataset(env).dataset;
}

/** The run's dataset and how its format was found (null: the project's own fixtures), detected once. */
export function readDataset(env: NodeJS.ProcessEnv = process.env): { dataset: Dataset; detected: Detected | null } {
  const source = env.EVAL_DATASET?.trim();
  const format = env.EVAL_DATASET_FORMAT?.trim();
  if (!source) {
    if (format) throw new DatasetError(`EVAL_DATASET_FORMAT names the format of EVAL_DATASET, which is not set`);
    return { dataset: demoDataset(), detected: null };
  }
  if (resolve(source) === FIXTURES_DIR && (!format || format === "fixtures")) return { dataset: demoDataset(), detected: null };
  const detected = detectFormat(source, format);
  const name = datasetName(detected);
  return { dataset: finish(detected.format.read(detected.path, { name, split: datasetSplit(env) }), detected, name), detected };
}

/** The split `EVAL_DATASET_SPLIT` names (default `test`): a name, never a path out of `qrels/` (`splitNameProblem`). */
export function datasetSplit(env: NodeJS.ProcessEnv = process.env): string {
  const split = env.EVAL_DATASET_SPLIT?.trim() || "test";
  const problem = splitNameProblem(split);
  if (problem !== null) throw new DatasetError(`EVAL_DATASET_SPLIT: ${problem}`);
  return split;
}

function finish(read: FormatRead, detected: Detected, name: string): Dataset {
  measurable(read, detected);
  const derivedCases = read.cases.length === 0;
  const cases = derivedCases ? casesFromAnswers(read.askCases) : read.cases;
  lintDataset({
    corpus: read.corpusView,
    cases: read.cases,
    caseOrigins: read.caseOrigins,
    ...(read.relevantDocs ? { relevantDocs: read.relevantDocs } : {}),
    askCases: read.askCases,
    askOrigins: read.askOrigins,
    translations: read.translations,
    ...(read.translationOrigins ? { translationOrigins: read.translationOrigins } : {}),
  });
  return {
    name,
    format: detected.format.name,
    demo: false,
    source: detected.path,
    corpus: read.corpus,
    corpusSource: read.corpusSource,
    collection: name,
    cases,
    derivedCases: derivedCases && cases.length > 0,
    askCases: read.askCases,
    translations: read.translations,
    refusalMarkers: read.refusalMarkers,
    gate: read.gate,
    unmapped: read.unmapped,
    warnings: read.warnings,
    corpusIds: read.corpusIds,
    declaredLanguages: read.declaredLanguages,
    files: read.files,
  };
}

/** The most queries and questions, together, a dataset may hold: 100,000 load in about 3 s (pnpm bench:load). */
export const MAX_QUESTIONS = 200_000;

/**
 * A dataset that could measure nothing is an input error before anything runs, never an empty run
 * that passes: no query and no question at all, or queries of which none judges a document
 * relevant (every grade 0 or below), with no question beside them.
 */
function measurable(read: FormatRead, detected: Detected): void {
  const questions = read.cases.length + read.askCases.length;
  if (questions > MAX_QUESTIONS)
    throw new DatasetError(
      `EVAL_DATASET: ${displayPath(detected.path)}: [too-large] holds ${questions} queries and questions; a dataset holds at most ${MAX_QUESTIONS} (split it, or sample it: a run of that many cases takes hours)`,
    );
  if (read.cases.length === 0 && read.askCases.length === 0)
    throw new DatasetError(
      `EVAL_DATASET: ${displayPath(detected.path)}: holds no query and no question (${read.files.map((f) => displayPath(f)).join(", ") || "no case file"}): nothing could be measured`,
    );
  if (read.cases.length > 0 && read.askCases.length === 0 && judgedCases(read.cases).length === 0) {
    const file = read.caseOrigins.get(read.cases[0]!)?.file ?? detected.path;
    throw new DatasetError(
      `EVAL_DATASET: ${displayPath(file)}: no query judges a document relevant (a grade of 1 or more): every judgment is 0 or below, so nothing can be scored`,
    );
  }
}

function demoDataset(): Dataset {
  const read = readDemoFixtures();
  return {
    name: "fixtures",
    format: fixtures.name,
    demo: true,
    source: FIXTURES_DIR,
    corpus: read.corpus,
    corpusSource: read.corpusSource,
    collection: "corpus",
    cases: read.cases,
    derivedCases: false,
    askCases: read.askCases,
    translations: read.translations,
    refusalMarkers: null,
    gate: null,
    unmapped: [],
    warnings: [],
    corpusIds: read.corpusIds,
    declaredLanguages: read.declaredLanguages,
    files: [],
  };
}

/**
 * What the index build takes for the dataset's corpus: the folder or corpus.jsonl path, or its
 * documents as data, read afresh for each re-index in watch mode (`reread`: the dataset as it is
 * now, which the run's plan reloads).
 */
export function indexSource(dataset: Dataset, reread: () => Dataset): string | DocumentsSource {
  const corpus = dataset.corpusSource;
  if (corpus.kind !== "documents") return corpus.path;
  let first: readonly Document[] | null = corpus.documents;
  return {
    ids: corpus.ids,
    read: () => {
      const documents = first ?? (reread().corpusSource as typeof corpus).documents;
      first = null;
      return documents;
    },
  };
}
