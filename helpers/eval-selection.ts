/**
 * Which eval files a filter selects, the same way for `pnpm eval [filter]` and
 * `pnpm eval:watch [filter]` (Evalite's own path filter matches any file whose path contains the
 * string, so `search` also ran `vsearch.eval.ts`):
 *
 * - a bare word selects the eval file whose name, the file name without `.eval.ts`, equals it
 *   (`search` selects `evals/search.eval.ts` only);
 * - a glob (`*` any characters, `?` one) matches names: `'*search'` selects search and vsearch;
 * - a path to an eval file (`evals/search.eval.ts`) selects that file.
 *
 * The selection reaches Evalite through evalite.config.ts: the command sets EVAL_SELECTED_FILES
 * (a JSON array of paths relative to the repository) and the config excludes every other eval file
 * from Vitest's run and from the fixture watch trigger. Kept free of heavy imports: the config
 * loads it.
 */
import { basename, relative, resolve } from "node:path";
import { evalFiles } from "./index-plan.js";

/** The environment variable that carries a selection from `pnpm eval` / `pnpm eval:watch` to evalite.config.ts. */
export const SELECTION_ENV = "EVAL_SELECTED_FILES";

const EVAL_FILE = /\.eval\.m?ts$/;

/** The name a filter selects an eval file by: `evals/search.eval.ts` → `search`. */
export function evalName(file: string): string {
  return basename(file).replace(EVAL_FILE, "");
}

/** A glob over names as a regular expression: `*` any characters, `?` one, everything else literal. */
function globPattern(glob: string): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replaceAll("*", ".*")
    .replaceAll("?", ".");
  return new RegExp(`^${source}$`);
}

/** The files of `files` (relative to `root`) that `filter` selects; empty when it selects none. */
export function selectEvalFiles(root: string, files: readonly string[], filter: string): string[] {
  if (EVAL_FILE.test(filter)) {
    const path = relative(root, resolve(root, filter));
    return files.filter((file) => file === path);
  }
  if (/[*?]/.test(filter)) {
    const pattern = globPattern(filter);
    return files.filter((file) => pattern.test(evalName(file)));
  }
  return files.filter((file) => evalName(file) === filter);
}

/** The names a filter can select, for the message when it selects none. */
export function evalNames(files: readonly string[]): string[] {
  return [...new Set(files.map(evalName))].sort();
}

/** The selection a command passed in the environment (relative paths), or null when none was. */
export function selectionFromEnv(env: NodeJS.ProcessEnv = process.env): string[] | null {
  const raw = env[SELECTION_ENV];
  if (raw === undefined || raw === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === "string"))
    throw new Error(`${SELECTION_ENV} must be a JSON array of eval file paths (set by pnpm eval and pnpm eval:watch)`);
  return parsed;
}

/** The eval files of this run: the selection in the environment, or every eval file. */
export function selectedEvalFiles(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const selection = selectionFromEnv(env);
  const files = evalFiles(root);
  return selection === null ? files : files.filter((file) => selection.includes(file));
}

/** The eval files a selection leaves out (for Vitest's `exclude`); none without a selection. */
export function unselectedEvalFiles(root: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const selected = new Set(selectedEvalFiles(root, env));
  return evalFiles(root).filter((file) => !selected.has(file));
}

/**
 * Set by `pnpm eval` (bin/eval.ts), which gates the run it drives; global setup of any other run
 * (`evalite run <file>`, `pnpm eval:watch`) prints `notGatedLine`.
 */
export const GATED_ENV = "EVAL_GATED";

/**
 * The line a run not driven by `pnpm eval` starts with: it gives no verdict, and which command
 * does (for the eval files it runs, absolute or relative paths).
 */
export function notGatedLine(files: readonly string[]): string {
  const command = files.length === 1 ? `pnpm eval ${evalName(files[0]!)}` : "pnpm eval";
  return `eval: not gated: this Evalite run holds no floors, latency ceilings or recorded cases (it fails only when an eval fails); the verdict: ${command}`;
}
