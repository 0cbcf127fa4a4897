/**
 * What a report records about where a run came from: the git commit, the fixture set's version,
 * hash and sizes, and Evalite's configured threshold.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { FixtureInfo } from "@hybrid-search/eval-gate/report";
import type { Dataset } from "./dataset.js";
import { judgedCases } from "./dataset.js";
import { FIXTURES_DIR, loadAskCases } from "./fixtures.js";

export function gitInfo(root: string): { commit: string | null; dirty: boolean | null } {
  const git = (...args: string[]): string | null => {
    const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  const commit = git("rev-parse", "HEAD");
  const status = commit === null ? null : git("status", "--porcelain", "--untracked-files=no");
  return { commit, dirty: status === null ? null : status !== "" };
}

/** Version, hash and sizes of the dataset's queries and judgments (the corpus is in the index fingerprint). */
export function fixtureInfo(dataset: Dataset): FixtureInfo {
  const queries = dataset.cases.length;
  const judgedQueries = judgedCases(dataset.cases).length;
  if (dataset.kind === "beir") {
    const folder = dirname(dataset.corpus);
    const files = [join(folder, "queries.jsonl"), ...listFiles(join(folder, "qrels"))];
    return { dataset: dataset.name, kind: "beir", version: null, hash: hashFiles(folder, files), queries, judgedQueries, askCases: null };
  }
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

/** Evalite's `scoreThreshold` from evalite.config.ts (percent), or null. */
export async function configuredThreshold(root: string): Promise<number | null> {
  const config = (await import(pathToFileURL(join(root, "evalite.config.ts")).href)) as { default?: { scoreThreshold?: unknown } };
  const t = config.default?.scoreThreshold;
  return typeof t === "number" ? t : null;
}
