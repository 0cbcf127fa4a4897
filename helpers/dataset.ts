/**
 * The retrieval dataset a run measures: the project's fixtures by default, or any BEIR-format
 * folder named in `EVAL_DATASET` (corpus.jsonl, queries.jsonl, qrels/<split>.tsv; split from
 * `EVAL_DATASET_SPLIT`, default `test`), so a user measures the engine on their own data with the
 * same eval files, scorers and UI.
 */
import { readdirSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { FormatError, readBeirDataset, splitNameProblem } from "@hybrid-search/trec-eval/formats";
// The fixtures' own modules, not the ./fixtures.js barrel: `pnpm eval` loads this before its first line.
import { FIXTURES_DIR } from "./fixtures/paths.js";
import { loadQueries } from "./fixtures/queries.js";
import type { CjkCategory, LexicalCell, QueryCategory, TemporalChange } from "./fixtures/types.js";

export interface RetrievalCase {
  id: string;
  query: string;
  /** Query language, when the dataset says (fixtures do; BEIR does not). */
  language?: string;
  /** The golden queries' category; in the lanes (helpers/lanes.ts), the CJK category, the lexical matrix cell or the kind of temporal change. */
  category?: QueryCategory | CjkCategory | LexicalCell | TemporalChange;
  collection?: string;
  /** docId → graded relevance (0 = judged non-relevant). */
  judgments: Record<string, number>;
  /** What this query guards (fixtures). */
  note?: string;
}

export interface Dataset {
  /** `fixtures`, or the BEIR folder's name. */
  name: string;
  kind: "fixtures" | "beir";
  /** What gets indexed: a folder of Markdown files or a corpus.jsonl. */
  corpus: string;
  collection: string;
  cases: RetrievalCase[];
  /** corpus.jsonl's document ids (BEIR); a fixture corpus's ids are its files' paths (`datasetDocIds`). */
  corpusIds?: readonly string[];
}

export function loadDataset(env: NodeJS.ProcessEnv = process.env): Dataset {
  const folder = env.EVAL_DATASET?.trim();
  if (folder) return loadBeirDataset(resolve(folder), datasetSplit(env));
  const cases = loadQueries().map((q) => ({
    id: q.id,
    query: q.query,
    language: q.language,
    category: q.category,
    ...(q.collection ? { collection: q.collection } : {}),
    judgments: { ...q.judgments },
    note: q.note,
  }));
  return { name: "fixtures", kind: "fixtures", corpus: join(FIXTURES_DIR, "corpus"), collection: "corpus", cases };
}

/** A problem with the dataset named in EVAL_DATASET, reported on one line. */
export class DatasetError extends Error {
  override readonly name = "DatasetError";
}

/** The split `EVAL_DATASET_SPLIT` names (default `test`): a name, never a path out of `qrels/` (`splitNameProblem`). */
export function datasetSplit(env: NodeJS.ProcessEnv = process.env): string {
  const split = env.EVAL_DATASET_SPLIT?.trim() || "test";
  const problem = splitNameProblem(split);
  if (problem !== null) throw new DatasetError(`EVAL_DATASET_SPLIT: ${problem}`);
  return split;
}

/**
 * Refuses cases none of which has a relevant document (grade ≥ 1): a dataset whose judgments are
 * all 0 gives the ranking metrics nothing to score, which is an input error, not an empty run.
 */
export function checkJudgedCases(cases: readonly RetrievalCase[], where: string): void {
  if (judgedCases(cases).length === 0)
    throw new DatasetError(
      `${where}: no query has a relevant document (a grade of 1 or more): every judgment is 0 or negative, so nothing can be scored`,
    );
}

/** Queries without any judgment are left out: nothing could score them. */
function loadBeirDataset(folder: string, split: string): Dataset {
  let beir: ReturnType<typeof readBeirDataset>;
  try {
    beir = readBeirDataset(folder, { split });
  } catch (error) {
    if (error instanceof FormatError || (error as { name?: string }).name === "EngineError") {
      throw new DatasetError(`EVAL_DATASET: ${(error as Error).message}`);
    }
    throw error;
  }
  const cases: RetrievalCase[] = [];
  for (const q of beir.queries) {
    const topic = beir.qrels.topics.get(q.id);
    if (!topic) continue;
    cases.push({ id: q.id, query: q.text, judgments: Object.fromEntries(topic.grades) });
  }
  if (cases.length === 0) throw new DatasetError(`EVAL_DATASET: ${folder}: no query of queries.jsonl has a judgment in qrels/${split}.tsv`);
  checkJudgedCases(cases, `EVAL_DATASET: ${join(folder, "qrels", `${split}.tsv`)}`);
  return {
    name: basename(folder),
    kind: "beir",
    corpus: join(folder, "corpus.jsonl"),
    collection: basename(folder),
    cases,
    corpusIds: beir.corpusIds,
  };
}

const DOCUMENT_FILE = /\.(md|markdown|mdx|txt|text)$/;

/**
 * Every document id the dataset holds: a target's result naming anything else is unjudged by
 * construction (counted and reported, helpers/targets/). Fixture ids are paths relative to the corpus.
 */
export function datasetDocIds(dataset: Dataset): Set<string> {
  if (dataset.corpusIds) return new Set(dataset.corpusIds);
  return new Set(
    readdirSync(dataset.corpus, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && DOCUMENT_FILE.test(e.name))
      .map((e) => relative(dataset.corpus, join(e.parentPath, e.name)).split(sep).join("/")),
  );
}

/** Cases that have at least one relevant document (grade ≥ 1): the ones ranking metrics can score. */
export function judgedCases(cases: readonly RetrievalCase[]): RetrievalCase[] {
  return cases.filter((c) => Object.values(c.judgments).some((g) => g >= 1));
}
