/**
 * The dataset a run measures: the project's fixtures by default, or the user's own data named in
 * `EVAL_DATASET` (a folder or file in any format of helpers/datasets/formats/; `EVAL_DATASET_FORMAT`
 * forces one, `EVAL_DATASET_SPLIT` picks a BEIR split), so a user measures the engine, or another
 * target, on their own data with the same eval files, scorers and UI. The model is
 * helpers/datasets/model.ts; this module is its public face for the eval files and the commands.
 */
export { datasetSplit, loadDataset, readDataset } from "./datasets/load.js";
export type { DatasetFormat } from "./datasets/format.js";
export { DATASET_FORMATS, formatNamed, formatTitle } from "./datasets/formats/index.js";
export {
  allDraftsReason,
  DRAFT,
  type DraftFields,
  isDraft,
  isoDate,
  type Provenance,
  type Reviewed,
  reviewedOnly,
} from "./datasets/drafts.js";
export {
  type AnswerCase,
  type CorpusSource,
  type Dataset,
  DatasetError,
  type DatasetGate,
  judgedCases,
  type RetrievalCase,
  type UnmappedField,
} from "./datasets/model.js";
import type { Dataset } from "./datasets/model.js";

/**
 * Every document id the dataset holds: a target's result naming anything else is unjudged by
 * construction (counted and reported, helpers/targets/).
 */
export function datasetDocIds(dataset: Dataset): Set<string> {
  return new Set(dataset.corpusIds);
}
