/**
 * The dataset formats the suite reads, one module each (docs/evals.md, "Datasets"), in the order a
 * folder or file is recognised: the first that matches wins, and the run's first line names it
 * and the others the same source also holds. A new format is one module of this folder and its
 * line here; detection, loading, the run's header and the report take it from this table.
 */
import { DatasetError } from "../model.js";
import type { DatasetFormat } from "../format.js";
import { beir } from "./beir.js";
import { bundle } from "./bundle.js";
import { fixtures } from "./fixtures.js";
import { fixturesLayout } from "./fixtures-layout.js";
import { goldenQa } from "./golden-qa.js";
import { qaJsonl } from "./qa-jsonl.js";

export const DATASET_FORMATS: readonly DatasetFormat[] = [fixtures, fixturesLayout, bundle, goldenQa, beir, qaJsonl];

/** The format called `name`; a DatasetError naming the formats when there is none. */
export function formatNamed(name: string): DatasetFormat {
  const format = DATASET_FORMATS.find((f) => f.name === name);
  if (!format)
    throw new DatasetError(
      `EVAL_DATASET_FORMAT must be one of ${DATASET_FORMATS.map((f) => f.name).join(", ")}, got ${JSON.stringify(name.slice(0, 80))}`,
    );
  return format;
}

/** What the format called `name` is, in a few words. */
export const formatTitle = (name: string): string => formatNamed(name).title;
