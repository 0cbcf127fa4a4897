/**
 * The suite's cache of model calls, in place of Evalite's (evalite/ai-sdk's `wrapAISDKModel`),
 * which could not do what the suite needs (docs/evals.md, "The model cache"): its key is the model
 * id without the provider or the endpoint (two servers' `qwen2.5:7b` share entries), it cannot be
 * turned off (`cache: false` and `--noCache` only stop its reporting), a hit is not said in the
 * score's metadata or counted per role, and embeddings are not cached at all.
 *
 * **Key**: SHA-256 of the canonical JSON (sorted keys) of everything the reply depends on: the
 * provider, the model id, the endpoint (the base URL, never a key), the kind of call, and every
 * call option the model receives — the full prompt (system and user messages), the output schema
 * (`responseFormat`), temperature and the other settings, tools, provider options and headers
 * (so each trial's `x-eval-trial` and a judge's retry `x-judge-attempt` get their own entry) — only
 * the abort signal is left out. The rubric, a prompt file's contents, the answer and judge
 * configuration reach the model only as the prompt and schema, so editing any of them changes the
 * key; a pass mark never reaches the model (the cache holds replies, not scores), so a changed mark
 * re-reads the same reply. Nothing expires: a changed call is a new key.
 *
 * **Store**: one SQLite file (better-sqlite3, WAL, 5 s busy timeout: several runs share it),
 * `EVAL_CACHE_FILE`, by default `model-cache.db` beside Evalite's storage (`EVALITE_STORAGE`, or
 * `.evalite/`). `EVAL_CACHE=off` (`pnpm eval --no-cache`) reads and writes nothing.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { REPO_ROOT } from "./fixture-files/paths.js";

export interface CacheKeyParts {
  kind: "generate" | "embed";
  provider: string;
  modelId: string;
  /** Where the calls go (base URL without credentials); null for a provider's own endpoint. */
  endpoint: string | null;
  /** The call options the model receives. */
  params: object;
}

/** JSON with object keys sorted, functions and the abort signal left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (key === "abortSignal" || typeof v === "function") return undefined;
    if (v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array))
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, (v as Record<string, unknown>)[k]]),
      );
    return v;
  });
}

/** The cache key of a call (module comment). */
export function cacheKey(parts: CacheKeyParts): string {
  return createHash("sha256")
    .update(canonicalJson({ v: 1, ...parts }))
    .digest("hex");
}

/** The cache file: `EVAL_CACHE_FILE`, else beside Evalite's storage. */
export function cacheFile(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.EVAL_CACHE_FILE?.trim();
  if (explicit) return resolve(explicit);
  const storage = env.EVALITE_STORAGE?.trim();
  return storage ? join(dirname(resolve(storage)), "model-cache.db") : join(REPO_ROOT, ".evalite", "model-cache.db");
}

export const cacheEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => env.EVAL_CACHE?.trim().toLowerCase() !== "off";

export interface ModelCache {
  get(key: string): unknown | undefined;
  set(key: string, kind: string, model: string, value: unknown): void;
}

const opened = new Map<string, ModelCache>();

/** The cache at `path`, opened once per process. */
export function openModelCache(path: string): ModelCache {
  let cache = opened.get(path);
  if (cache) return cache;
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.exec(
    "CREATE TABLE IF NOT EXISTS model_calls (key TEXT PRIMARY KEY, kind TEXT NOT NULL, model TEXT NOT NULL, value TEXT NOT NULL, created_at TEXT NOT NULL)",
  );
  const select = db.prepare<[string], { value: string }>("SELECT value FROM model_calls WHERE key = ?");
  const insert = db.prepare("INSERT OR REPLACE INTO model_calls (key, kind, model, value, created_at) VALUES (?, ?, ?, ?, ?)");
  cache = {
    get: (key) => {
      const row = select.get(key);
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },
    set: (key, kind, model, value) => {
      insert.run(key, kind, model, JSON.stringify(value), new Date().toISOString());
    },
  };
  opened.set(path, cache);
  return cache;
}
