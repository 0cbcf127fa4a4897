/**
 * Where a run comes from: the git commit, the fixture set's version, hash and sizes (what a report
 * records), and Evalite's configuration as Evalite itself reads it (its threshold, its storage).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import type { FixtureInfo } from "@hybrid-search/eval-gate/report";
import type { Evalite } from "evalite";
import { createInMemoryStorage } from "evalite/in-memory-storage";
import { createJiti } from "jiti";
import type { Dataset } from "../../helpers/dataset.js";
import { judgedCases } from "../../helpers/dataset.js";
import { loadAskCases } from "../../helpers/fixture-files/ask-cases.js";
import { FIXTURES_DIR } from "../../helpers/fixture-files/paths.js";

export function gitInfo(root: string): { commit: string | null; dirty: boolean | null } {
  const git = (...args: string[]): string | null => {
    const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  const commit = git("rev-parse", "HEAD");
  const status = commit === null ? null : git("status", "--porcelain", "--untracked-files=no");
  return { commit, dirty: status === null ? null : status !== "" };
}

/**
 * Version, hash and sizes of the dataset's cases (the corpus is in the index fingerprint), what its
 * reader could not map and warned about: what a report records of the data it measured.
 */
export function fixtureInfo(dataset: Dataset): FixtureInfo {
  const queries = dataset.cases.length;
  const judgedQueries = judgedCases(dataset.cases).length;
  const reported = {
    ...(dataset.unmapped.length > 0 ? { unmapped: dataset.unmapped.map((u) => ({ ...u })) } : {}),
    ...(dataset.warnings.length > 0 ? { warnings: [...dataset.warnings] } : {}),
  };
  if (dataset.demo) {
    // Every JSON fixture (queries, ask cases, translations, lanes, schemas); corpus documents are Markdown.
    const files = listFiles(FIXTURES_DIR).filter((f) => f.endsWith(".json"));
    const version = (JSON.parse(readFileSync(join(FIXTURES_DIR, "queries.json"), "utf8")) as { version?: number }).version ?? null;
    return {
      dataset: dataset.name,
      kind: "fixtures",
      version,
      hash: hashFiles(FIXTURES_DIR, files),
      queries,
      judgedQueries,
      askCases: loadAskCases().length,
    };
  }
  const askCases = dataset.askCases.length > 0 ? dataset.askCases.length : null;
  if (dataset.format === "beir") {
    // queries.jsonl and every split's qrels, as before answer cases could sit beside them; then those.
    const folder = dirname(dataset.corpus);
    const files = [join(folder, "queries.jsonl"), ...listFiles(join(folder, "qrels"))];
    const extra = dataset.files.filter((f) => !files.includes(f));
    return {
      dataset: dataset.name,
      kind: "beir",
      version: null,
      hash: hashFiles(folder, [...files, ...extra]),
      queries,
      judgedQueries,
      askCases,
      ...reported,
    };
  }
  const root = dataset.files.length > 0 ? dirname(dataset.files[0]!) : dataset.source;
  return {
    dataset: dataset.name,
    kind: dataset.format,
    version: null,
    hash: hashFiles(root, [...dataset.files].sort()),
    queries,
    judgedQueries,
    askCases,
    ...reported,
  };
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function hashFiles(root: string, files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

export interface EvaliteSetup {
  /** `scoreThreshold` (percent), or null when none is configured. */
  threshold: number | null;
  /** Opens the storage Evalite would use: the config's `storage()`, else Evalite's default (in memory). */
  openStorage(): Promise<Evalite.Storage>;
}

const CONFIG_FILES = ["evalite.config.ts", "evalite.config.mts", "evalite.config.js", "evalite.config.mjs"];

/**
 * Evalite's configuration in `root`, read as Evalite's `loadEvaliteConfig` reads it (the same
 * files in the same order, jiti with the same options, the same export; here: SQLite at
 * EVALITE_STORAGE or .evalite/evalite.db, no threshold), but loaded once: Evalite's loader prints
 * a stack trace and exits 1 when the file does not load, where this is one line and a ConfigError.
 */
export async function evaliteSetup(root: string): Promise<EvaliteSetup> {
  const config = await loadConfig(root);
  const storage = config?.storage;
  return {
    threshold: typeof config?.scoreThreshold === "number" ? config.scoreThreshold : null,
    openStorage: async () => (storage ? storage() : createInMemoryStorage()),
  };
}

/**
 * What `loadEvaliteConfig` returns for `root`: the first evalite.config.* that exports an object
 * (its default export, else its `evalite` export, else the module), or undefined.
 */
async function loadConfig(root: string): Promise<Evalite.Config | undefined> {
  // Through jiti with Evalite's own options: the file is TypeScript, and `pnpm eval` runs as plain node.
  const jiti = createJiti(import.meta.url, { interopDefault: true, requireCache: false });
  for (const file of CONFIG_FILES.map((name) => join(root, name)).filter((path) => existsSync(path))) {
    let loaded: { default?: unknown; evalite?: unknown };
    try {
      loaded = await jiti.import(file);
    } catch (error) {
      throw new ConfigError(`${relative(root, file)} does not load: ${(error as Error).message.split("\n")[0]}`);
    }
    const config = loaded.default || loaded.evalite || loaded;
    if (config !== null && typeof config === "object") return config as Evalite.Config;
  }
  return undefined;
}
