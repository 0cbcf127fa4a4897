/**
 * Which format a dataset is in: named by EVAL_DATASET_FORMAT, or detected from what the folder or
 * file holds, checked in this order (the first that matches wins; the run's first line names it,
 * and other formats the same folder also holds):
 *
 * | format            | a folder holding …                                             | a file …                         |
 * | ----------------- | -------------------------------------------------------------- | -------------------------------- |
 * | `fixtures`        | queries.json or ask-cases.json that is a `{ "version", … }` object |                              |
 * | `fixtures-layout` | corpus/ and a queries.json or ask-cases.json that is an array  |                                  |
 * | `bundle`          | eval/golden.json                                               | `…/eval/golden.json`             |
 * | `golden-qa`       | golden_qa.json                                                 | `*.json` with a `questions` array |
 * | `beir`            | corpus.jsonl                                                   |                                  |
 * | `qa-jsonl`        |                                                                | `*.jsonl` whose first record has `question` or `user_input` |
 */
import { basename, dirname, join, resolve } from "node:path";
import { bundleRoot } from "./formats/bundle.js";
import { isFixtureFormat } from "./formats/fixtures.js";
import { isFixturesLayout } from "./formats/fixtures-layout.js";
import { GOLDEN_QA_FILE, looksLikeGoldenQa } from "./formats/golden-qa.js";
import { isBeir } from "./formats/beir.js";
import { looksLikeQaJsonl } from "./formats/qa-jsonl.js";
import { DATASET_FORMATS, DatasetError, type DatasetFormat } from "./model.js";
import { isFile, isFolder, readJsonFile, readJsonlFile } from "./read.js";

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

const FOLDER_CHECKS: Array<{ format: DatasetFormat; test: (folder: string) => string | null }> = [
  { format: "fixtures", test: (f) => (isFixtureFormat(f) ? "queries.json / ask-cases.json as { version, … } objects" : null) },
  { format: "fixtures-layout", test: (f) => (isFixturesLayout(f) ? "corpus/ and queries.json / ask-cases.json as arrays" : null) },
  { format: "bundle", test: (f) => (bundleRoot(f) ? "eval/golden.json" : null) },
  { format: "golden-qa", test: (f) => (isFile(join(f, GOLDEN_QA_FILE)) ? GOLDEN_QA_FILE : null) },
  { format: "beir", test: (f) => (isBeir(f) ? "corpus.jsonl" : null) },
];

function parseFormat(value: string | undefined): DatasetFormat | null {
  const v = value?.trim();
  if (!v) return null;
  if (!(DATASET_FORMATS as readonly string[]).includes(v))
    throw new DatasetError(`EVAL_DATASET_FORMAT must be one of ${DATASET_FORMATS.join(", ")}, got ${JSON.stringify(v.slice(0, 80))}`);
  return v as DatasetFormat;
}

/** The format of the dataset at `source` (EVAL_DATASET), or EVAL_DATASET_FORMAT's. Throws DatasetError when neither finds one. */
export function detectFormat(source: string, forcedFormat?: string): Detected {
  const path = resolve(source);
  const forced = parseFormat(forcedFormat);
  if (!isFile(path) && !isFolder(path)) throw new DatasetError(`EVAL_DATASET: ${source}: cannot read: no such folder or file`);
  if (isFile(path)) return detectFile(source, path, forced);
  const matches = FOLDER_CHECKS.map((c) => ({ format: c.format, found: c.test(path) })).filter((m) => m.found !== null);
  if (forced) {
    const match = matches.find((m) => m.format === forced);
    if (!match)
      throw new DatasetError(
        `EVAL_DATASET: ${source}: EVAL_DATASET_FORMAT=${forced}, but the folder does not hold that format (looked for ${describe(forced)})`,
      );
    return { format: forced, path, found: match.found!, alsoHolds: matches.filter((m) => m !== match).map((m) => m.format), forced: true };
  }
  const [first, ...others] = matches;
  if (!first)
    throw new DatasetError(
      `EVAL_DATASET: ${source}: not a dataset the suite reads: found none of queries.json / ask-cases.json (the suite's format or a fixtures layout), eval/golden.json (a bundle), ${GOLDEN_QA_FILE} (a golden Q&A set), corpus.jsonl (BEIR); a question/reference JSONL file is named as the file itself (docs/evals.md, Datasets)`,
    );
  return { format: first.format, path, found: first.found!, alsoHolds: others.map((m) => m.format), forced: false };
}

function describe(format: DatasetFormat): string {
  return {
    fixtures: "queries.json or ask-cases.json as { version, … } objects",
    "fixtures-layout": "corpus/ and queries.json or ask-cases.json as arrays",
    bundle: "eval/golden.json",
    "golden-qa": GOLDEN_QA_FILE,
    beir: "corpus.jsonl",
    "qa-jsonl": "a .jsonl file, named as the file itself",
  }[format];
}

function detectFile(source: string, path: string, forced: DatasetFormat | null): Detected {
  const done = (format: DatasetFormat, found: string): Detected => {
    if (forced && forced !== format)
      throw new DatasetError(`EVAL_DATASET: ${source}: EVAL_DATASET_FORMAT=${forced} reads a folder; this file is ${found}`);
    return { format, path, found, alsoHolds: [], forced: forced !== null };
  };
  if (/\.jsonl$/i.test(path)) {
    if (forced === "qa-jsonl" || looksLikeQaJsonl(readJsonlFile(path)[0]?.value)) return done("qa-jsonl", "JSONL records with a question");
    throw new DatasetError(
      `EVAL_DATASET: ${source}: a JSONL file whose first record has no "question" or "user_input"; a BEIR corpus.jsonl is named by its folder`,
    );
  }
  if (bundleRoot(path)) return done("bundle", "eval/golden.json");
  if (/\.json$/i.test(path)) {
    if (forced === "golden-qa" || looksLikeGoldenQa(readJsonFile(path))) return done("golden-qa", `a JSON file with "questions"`);
    throw new DatasetError(
      `EVAL_DATASET: ${source}: a JSON file without a "questions" array (a golden Q&A set has "corpus" and "questions")`,
    );
  }
  throw new DatasetError(
    `EVAL_DATASET: ${source}: a file the suite does not read as a dataset (a golden Q&A .json, a bundle's eval/golden.json or a question/reference .jsonl)`,
  );
}

/** The name a dataset keys its floors with: its folder's or file's name; a user's folder called `fixtures` is named with its parent, so it never shares the demo corpus's floors. */
export function datasetName(detected: Detected): string {
  const root = detected.format === "bundle" ? bundleRoot(detected.path)! : detected.path;
  const name = basename(root).replace(/\.(jsonl?|json)$/i, "");
  return name === "fixtures" ? `${basename(dirname(root))}-fixtures` : name;
}
