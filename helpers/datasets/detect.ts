/**
 * Which format a dataset is in: named by EVAL_DATASET_FORMAT, or detected from what the folder or
 * file holds, by asking each format of the table (formats/index.ts) in its order: the first that
 * recognises the source wins; the run's first line names it, and the other formats the same
 * folder also holds.
 */
import { basename, dirname, resolve } from "node:path";
import type { DatasetFormat } from "./format.js";
import { DATASET_FORMATS, formatNamed } from "./formats/index.js";
import { DatasetError } from "./model.js";
import { isFile, isFolder } from "./read.js";

export interface Detected {
  format: DatasetFormat;
  /** What the format's reader opens: the folder, or the file. */
  path: string;
  /** Why this format: what was found. */
  found: string;
  /** Other formats the same source also holds (readable with EVAL_DATASET_FORMAT). */
  alsoHolds: DatasetFormat[];
  /** True when EVAL_DATASET_FORMAT named the format. */
  forced: boolean;
}

/** The format of the dataset at `source` (EVAL_DATASET), or EVAL_DATASET_FORMAT's. Throws DatasetError when neither finds one. */
export function detectFormat(source: string, forcedFormat?: string): Detected {
  const path = resolve(source);
  const given = forcedFormat?.trim();
  const forced = given ? formatNamed(given) : null;
  if (!isFile(path) && !isFolder(path)) throw new DatasetError(`EVAL_DATASET: ${source}: cannot read: no such folder or file`);
  if (isFile(path)) return detectFile(source, path, forced);
  const matches = DATASET_FORMATS.flatMap((format) => {
    const found = format.inFolder?.(path) ?? null;
    return found === null ? [] : [{ format, found }];
  });
  if (forced) {
    const match = matches.find((m) => m.format === forced);
    if (!match)
      throw new DatasetError(
        `EVAL_DATASET: ${source}: EVAL_DATASET_FORMAT=${forced.name}, but the folder does not hold that format (looked for ${forced.lookedFor})`,
      );
    return { format: forced, path, found: match.found, alsoHolds: matches.filter((m) => m !== match).map((m) => m.format), forced: true };
  }
  const [first, ...others] = matches;
  if (!first)
    throw new DatasetError(
      `EVAL_DATASET: ${source}: not a dataset the suite reads: found none of ${DATASET_FORMATS.filter((f) => f.inFolder)
        .map((f) => `${f.lookedFor} (${f.title})`)
        .join(", ")}; a file is named as the file itself (docs/evals.md, Datasets)`,
    );
  return { format: first.format, path, found: first.found, alsoHolds: others.map((m) => m.format), forced: false };
}

function detectFile(source: string, path: string, forced: DatasetFormat | null): Detected {
  for (const format of forced ? [forced] : DATASET_FORMATS) {
    const found = format.inFile?.(path, forced !== null) ?? null;
    if (found !== null) return { format, path, found, alsoHolds: [], forced: forced !== null };
  }
  if (forced)
    throw new DatasetError(`EVAL_DATASET: ${source}: EVAL_DATASET_FORMAT=${forced.name} reads ${forced.lookedFor}, not this file`);
  throw new DatasetError(
    `EVAL_DATASET: ${source}: a file the suite does not read as a dataset (it reads ${DATASET_FORMATS.filter((f) => f.inFile)
      .map((f) => f.lookedFor)
      .join("; ")})`,
  );
}

/** The name a dataset keys its floors with: its folder's or file's name; a user's folder called `fixtures` is named with its parent, so it never shares the demo corpus's floors. */
export function datasetName(detected: Detected): string {
  const root = detected.format.root?.(detected.path) ?? detected.path;
  const name = basename(root).replace(/\.(jsonl?|json)$/i, "");
  return name === "fixtures" ? `${basename(dirname(root))}-fixtures` : name;
}
