/**
 * Which index each eval file measures, so that a run builds only the indexes its selected files
 * use (`pnpm eval search` builds the dataset's index, not the lanes'), and watch mode re-runs only
 * the files a changed fixture feeds.
 *
 * The rule is a naming convention, checked by helpers/index-plan.test.ts against every eval file's
 * source: a lane's eval file is `evals/<lane>.eval.ts` and measures that lane's index
 * (`laneIndex("<lane>")`); every other eval file measures the dataset's index (`evalIndex()`).
 *
 * Kept free of heavy imports: evalite.config.ts loads it for its watch triggers.
 */
import { readdirSync } from "node:fs";
import { basename, join, relative } from "node:path";

export const LANES = ["lexical", "cjk", "temporal"] as const;
export type LaneName = (typeof LANES)[number];
export type IndexName = "dataset" | LaneName;

const EVAL_FILE = /\.eval\.m?ts$/;

/** The index an eval file (any path) measures. */
export function indexOf(file: string): IndexName {
  const name = basename(file).replace(EVAL_FILE, "");
  return (LANES as readonly string[]).includes(name) ? (name as LaneName) : "dataset";
}

/** The indexes a set of eval files measures; every index when the selection is not known (empty). */
export function indexesFor(files: readonly string[]): Set<IndexName> {
  if (files.length === 0) return new Set<IndexName>(["dataset", ...LANES]);
  return new Set(files.map(indexOf));
}

/** Eval files Evalite would pick up (`**\/*.eval.?(m)ts`, outside node_modules), relative to `root`. */
export function evalFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (EVAL_FILE.test(entry.name)) out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

/**
 * The eval files that read a fixture file (`path` relative to `fixtures/`): a lane's folder feeds
 * that lane's eval file; the JSON Schemas validate every fixture, so they feed every eval file;
 * anything else (the corpus, the queries, the answer cases, the translations) feeds the files on
 * the dataset's index.
 */
export function evalFilesReading(fixture: string, files: readonly string[]): string[] {
  const [top] = fixture.split(/[\\/]/);
  if (fixture === "README.md") return [];
  if (top === "schemas") return [...files];
  const lane = (LANES as readonly string[]).includes(top ?? "") ? (top as LaneName) : null;
  return files.filter((file) => indexOf(file) === (lane ?? "dataset"));
}

/**
 * Vitest's watch trigger for the fixtures (`watchTriggerPatterns`): an edited file under
 * `<root>/fixtures/` re-runs the eval files of the session (`files`: every eval file, or the ones
 * a filter selected) that read it (`evalFilesReading`). Naming a file the session left out would
 * start an empty rerun (Vitest finds no test in it, but Evalite and global setup still begin a
 * run). Vitest hands over paths with forward slashes.
 */
export function fixtureWatchTrigger(
  root: string,
  files: () => string[] = () => evalFiles(root),
): { pattern: RegExp; testsToRun: (file: string, match: RegExpMatchArray) => string[] } {
  const folder = `${root.replaceAll("\\", "/")}/fixtures/`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return {
    pattern: new RegExp(`^${folder}(.+)$`),
    testsToRun: (_file, match) => evalFilesReading(match[1]!, files()),
  };
}
