/**
 * BEIR: `corpus.jsonl` (`{"_id","title","text"}`), `queries.jsonl` (`{"_id","text"}`),
 * `qrels/<split>.tsv` with its header line (split from EVAL_DATASET_SPLIT, default `test`), read by
 * the trec-eval package's reader. Queries without any judgment are left out: nothing could score
 * them. Answer cases may sit beside them in the suite's format (ask-cases.json, and optionally
 * translations.json and refusal-markers.json; helpers/datasets/formats/fixtures.ts), their
 * `mustCite` naming corpus.jsonl ids.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FormatError, readBeirDataset } from "@hybrid-search/trec-eval/formats";
import { displayPath } from "../../fixture-files/paths.js";
import { documentSizeProblem, readCorpusJsonl } from "../documents.js";
import { DatasetError, judgedCases, type RetrievalCase } from "../model.js";
import { isFile, isFolder } from "../read.js";
import type { DatasetFormat } from "../format.js";
import { type FormatRead, noRecords, readRefusalMarkers } from "./common.js";
import { readAnswerFiles } from "./fixtures.js";

/** Whether `folder` holds a BEIR dataset (its corpus.jsonl). */
export function isBeir(folder: string): boolean {
  return isFile(join(folder, "corpus.jsonl"));
}

function beirError(error: unknown): never {
  if (error instanceof FormatError) throw new DatasetError(`EVAL_DATASET: ${error.message.split("\n")[0]}`);
  throw error;
}

export function readBeir(folder: string, split: string): FormatRead {
  let beir: ReturnType<typeof readBeirDataset>;
  try {
    beir = readBeirDataset(folder, { split });
  } catch (error) {
    return beirError(error);
  }
  longestRecord(join(folder, "corpus.jsonl"));
  const cases: RetrievalCase[] = [];
  for (const q of beir.queries) {
    const topic = beir.qrels.topics.get(q.id);
    if (!topic) continue;
    cases.push({ id: q.id, query: q.text, judgments: Object.fromEntries(topic.grades) });
  }
  const corpus = join(folder, "corpus.jsonl");
  // The documents' texts are read only when an answer case's facts need checking against them.
  let texts: Map<string, string> | undefined;
  const text = (id: string): string => {
    texts ??= new Map(readCorpusJsonl(corpus).map((d) => [d.id, `${d.title ?? ""}\n${d.text}`]));
    return texts.get(id) ?? "";
  };
  const read: FormatRead = {
    ...noRecords(),
    corpus,
    corpusSource: { kind: "jsonl", path: corpus },
    corpusView: { where: displayPath(corpus), ids: new Set(beir.corpusIds), text },
    corpusIds: beir.corpusIds,
    // Languages a corpus.jsonl record declares are read when an eval needs them (language.ts).
    declaredLanguages: new Map(),
    cases,
    files: [join(folder, "queries.jsonl"), join(folder, "qrels", `${split}.tsv`)],
  };
  read.refusalMarkers = readRefusalMarkers(folder, read.warnings, read.files);
  readAnswerFiles(folder, read);
  // Judgments that are all 0 give the ranking evals nothing to score: an input error, not an empty run.
  if (cases.length > 0 && judgedCases(cases).length === 0)
    throw new DatasetError(
      `EVAL_DATASET: ${join(folder, "qrels", `${split}.tsv`)}: no query has a relevant document (a grade of 1 or more): every judgment is 0 or negative, so nothing can be scored`,
    );
  if (cases.length === 0 && read.askCases.length === 0)
    throw new DatasetError(
      `EVAL_DATASET: ${folder}: no query of queries.jsonl has a judgment in qrels/${split}.tsv${isFolder(join(folder, "qrels")) ? "" : " (no qrels folder)"}, and there is no ask-cases.json beside it`,
    );
  return read;
}

/**
 * Refuses a corpus.jsonl with a record over the document limit before anything runs (its texts are
 * read later, when the lint or a target needs them): a scan of its line lengths, no parsing.
 */
function longestRecord(file: string): void {
  const bytes = readFileSync(file);
  let start = 0;
  for (let line = 1; start < bytes.length; line++) {
    const end = bytes.indexOf(10, start);
    const stop = end < 0 ? bytes.length : end;
    const tooLarge = documentSizeProblem(stop - start);
    if (tooLarge) throw new DatasetError(`EVAL_DATASET: ${displayPath(file)}:${line}: ${tooLarge}`);
    start = stop + 1;
  }
}

export const beir: DatasetFormat = {
  name: "beir",
  title: "BEIR",
  lookedFor: "corpus.jsonl",
  inFolder: (folder) => (isBeir(folder) ? "corpus.jsonl" : null),
  read: (folder, { split }) => readBeir(folder, split),
};
