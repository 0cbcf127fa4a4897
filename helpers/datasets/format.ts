/**
 * What a dataset format is: one module of helpers/datasets/formats/ each, listed in the table of
 * formats/index.ts in the order they are recognised. A format says how a folder or a file of it is
 * recognised, reads it into the dataset model (model.ts) reporting every field it could not map,
 * and, for the suite's own format, writes one (`pnpm eval:import`). Detection, loading, the run's
 * header and the report take every format from that table (docs/architecture.md, "Where it goes").
 */
import type { FormatRead } from "./formats/common.js";
import type { Dataset } from "./model.js";

/** What reading a dataset knows beyond its path. */
export interface ReadContext {
  /** The dataset's name: the collection it is indexed as. */
  name: string;
  /** The BEIR split (EVAL_DATASET_SPLIT), `test` by default. */
  split: string;
}

export interface DatasetFormat {
  /** What EVAL_DATASET_FORMAT and the report call it: lower case, digits and `-`. */
  readonly name: string;
  /** What it is, in a few words: the run's first line names it. */
  readonly title: string;
  /** What a source of it holds, in words, for a message that did not find it (`corpus.jsonl`). */
  readonly lookedFor: string;
  /** Whether `folder` holds a dataset of this format: what was found, or null. */
  inFolder?(folder: string): string | null;
  /** Whether `file` is a dataset of this format (`forced`: EVAL_DATASET_FORMAT names it): what was found, or null. */
  inFile?(file: string, forced: boolean): string | null;
  /** The folder or file a dataset found at `path` is named after (a bundle's root); `path` itself when absent. */
  root?(path: string): string;
  /** Reads the dataset at `path` (the folder or file detection found). */
  read(path: string, context: ReadContext): FormatRead;
  /** Writes `dataset` into the empty folder `folder` in this format (the suite's own format only). */
  write?(dataset: Dataset, folder: string): Written;
}

/** What writing a dataset wrote. */
export interface Written {
  documents: number;
  /** Documents whose id changed (keys that are not file paths), old → new. */
  renamed: Array<[string, string]>;
  files: string[];
}
