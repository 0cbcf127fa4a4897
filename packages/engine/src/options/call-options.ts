/**
 * The checks of each engine call's arguments, run before the call touches the index: a wrong
 * type throws TypeError, a value out of range RangeError, each naming the argument and what was
 * expected (better-sqlite3's "Expected the "timeout" option to be a positive integer"), and an
 * unknown option name suggests the closest known one (check.ts).
 */
import { checkCallPolicy } from "../call-policy.js";
import { defaultEmbedder } from "../embed/embedder.js";
import { quoteInput } from "../errors.js";
import { languageTagProblem } from "../ingest/input-rules.js";
import { parseInstant } from "../ingest/validity.js";
import type { Catalog } from "../store/catalog.js";
import { INDEX_WORKER_MODES } from "../store/prepare-thread.js";
import type { GivenSource } from "@hybrid-search/target-contract/types";
import type { AskOptions, CallPolicy, EngineOptions, IndexDocumentsOptions, Preset, QueryOptions, SearchOptions, Tier } from "../types.js";
import { PRESETS, TIERS } from "../types.js";
import { checkOptions } from "./check.js";
import { resolveParameters } from "./parameters.js";

/** Items per ranked list kept in a trace, unless a call asks for more. */
const TRACE_DEPTH = 20;

export interface OpenEngineOptions extends EngineOptions {
  /** Create an empty index when the file does not exist (for indexing). @default false */
  create?: boolean;
}

/**
 * Every argument of `Engine.open`, checked before a file is created: a typo must not leave an
 * empty index behind. Returns the busy timeout the index is opened with.
 */
export function checkOpenOptions(file: unknown, options: OpenEngineOptions): { busyTimeoutMs: number } {
  checkOptions(
    options,
    [
      "create",
      "embedder",
      "reranker",
      "expander",
      "languageModels",
      "agentModels",
      "modelLimits",
      "analyzer",
      "chunker",
      "hybrid",
      "busyTimeoutMs",
      "indexWorker",
    ],
    "Engine.open",
  );
  if (typeof file !== "string" || file === "") throw new TypeError(`Expected the index path to be a non-empty string`);
  const busyTimeoutMs = options.busyTimeoutMs ?? 2000;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0)
    throw new RangeError(`Expected "busyTimeoutMs" to be a non-negative integer, got ${busyTimeoutMs}`);
  if (options.modelLimits !== undefined) checkCallPolicy(options.modelLimits, "modelLimits");
  if (options.indexWorker !== undefined && !INDEX_WORKER_MODES.includes(options.indexWorker))
    throw new RangeError(
      `Expected "indexWorker" to be one of ${INDEX_WORKER_MODES.join(", ")}, got ${JSON.stringify(options.indexWorker)}`,
    );
  resolveParameters(options, options.embedder ?? defaultEmbedder());
  return { busyTimeoutMs };
}

/** `indexDocuments`' options: the collection is required, `ids` is `"keys"` (default) or `"paths"`. */
export function checkIndexDocumentsOptions(options: IndexDocumentsOptions): Required<Omit<IndexDocumentsOptions, "onMessage">> {
  checkOptions(options, ["collection", "ids", "onMessage"], "indexDocuments");
  const { collection, ids = "keys" } = options;
  if (typeof collection !== "string" || collection.trim() === "")
    throw new TypeError(`Expected "collection" to be a non-empty string, got ${JSON.stringify(collection)}`);
  if (ids !== "paths" && ids !== "keys") throw new RangeError(`Expected "ids" to be "paths" or "keys", got ${JSON.stringify(ids)}`);
  return { collection, ids };
}

/** A retrieval call's options, checked and with their defaults. */
export interface SearchOptionsResolved {
  limit: number;
  traceDepth: number;
  collection?: string | undefined;
  language?: string | undefined;
  /** The instant validity is evaluated at (ms, UTC); undefined: now. */
  asOf: number | undefined;
  includeSuperseded: boolean;
}

export function resolveSearchOptions(options: SearchOptions, where: string): SearchOptionsResolved {
  checkOptions(options, ["limit", "collection", "language", "traceDepth", "asOf", "includeSuperseded"], where);
  const limit = options.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    throw new RangeError(`Expected "limit" to be an integer from 1 to 10000, got ${limit}`);
  const traceDepth = options.traceDepth ?? TRACE_DEPTH;
  if (!Number.isInteger(traceDepth) || traceDepth < 0)
    throw new RangeError(`Expected "traceDepth" to be a non-negative integer, got ${traceDepth}`);
  for (const key of ["collection", "language"] as const) {
    if (options[key] !== undefined && (typeof options[key] !== "string" || options[key] === "")) {
      throw new TypeError(`Expected "${key}" to be a non-empty string`);
    }
  }
  // A malformed tag matches no document (every stored tag is well-formed): an empty result would hide the typo.
  const languageProblem = options.language === undefined ? null : languageTagProblem(options.language);
  if (languageProblem !== null) throw new RangeError(`Expected "language" to be a language tag: ${languageProblem}`);
  if (options.includeSuperseded !== undefined && typeof options.includeSuperseded !== "boolean")
    throw new TypeError(`Expected "includeSuperseded" to be true or false, got ${JSON.stringify(options.includeSuperseded)}`);
  return {
    limit,
    traceDepth,
    collection: options.collection,
    language: options.language,
    asOf: options.asOf === undefined ? undefined : asOfInstant(options.asOf),
    includeSuperseded: options.includeSuperseded ?? false,
  };
}

/** `query`'s tier (default balanced) and the rest of its options. */
export function splitTier(options: QueryOptions): { tier: Tier; rest: SearchOptions } {
  const { tier = "balanced", ...rest } = options;
  if (!TIERS.includes(tier)) throw new RangeError(`Expected "tier" to be one of ${TIERS.join(", ")}, got ${JSON.stringify(tier)}`);
  return { tier, rest };
}

/** `asOf` as milliseconds (UTC): a valid Date, or a date / date-time string (UTC unless it names an offset). */
function asOfInstant(value: unknown): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === "string" ? parseInstant(value) : undefined;
  if (ms === undefined || Number.isNaN(ms)) {
    const shown = typeof value === "string" ? quoteInput(value) : value instanceof Date ? "an invalid Date" : typeof value;
    throw new RangeError(
      `Expected "asOf" to be a date: YYYY-MM-DD or an ISO 8601 date-time such as 2024-09-01T08:30:00Z (UTC unless it names an offset), got ${shown}`,
    );
  }
  return ms;
}

/** A collection filter must name a collection of the index (an empty index has none to name). */
export function checkCollection(catalog: Catalog, collection: string | undefined): void {
  if (collection !== undefined && catalog.documents.length > 0 && !catalog.collections.includes(collection)) {
    throw new RangeError(`Unknown collection "${collection}"; this index has ${catalog.collections.map((c) => `"${c}"`).join(", ")}`);
  }
}

export function checkText(text: unknown): string {
  if (typeof text !== "string") throw new TypeError(`Expected the query to be a string, got ${typeof text}`);
  return text;
}

/** `ask`'s options with their defaults; the call policy of its answer call (`timeoutMs` replaces the engine's timeout). */
export interface AskOptionsResolved {
  preset: Preset;
  tier: Tier;
  limit: number;
  evidenceThreshold: number | undefined;
  headers: Record<string, string> | undefined;
  policy: CallPolicy;
  /** What retrieval filters by: collection, language, asOf, includeSuperseded. */
  filters: Pick<AskOptions, "collection" | "language" | "asOf" | "includeSuperseded">;
  /** The passages to answer from instead of retrieving; null: retrieve. */
  given: readonly GivenSource[] | null;
}

export function resolveAskOptions(question: unknown, options: AskOptions, modelLimits: CallPolicy): AskOptionsResolved {
  checkOptions(
    options,
    [
      "preset",
      "limit",
      "tier",
      "collection",
      "language",
      "asOf",
      "includeSuperseded",
      "evidenceThreshold",
      "headers",
      "timeoutMs",
      "sources",
    ],
    "ask",
  );
  checkText(question);
  const {
    preset = "balanced",
    tier = "balanced",
    evidenceThreshold,
    headers,
    timeoutMs = modelLimits.timeoutMs,
    limit = 5,
    sources,
    ...filters
  } = options;
  if (sources !== undefined) checkGivenSources(sources);
  if (!PRESETS.includes(preset))
    throw new RangeError(`Expected "preset" to be one of ${PRESETS.join(", ")}, got ${JSON.stringify(preset)}`);
  const policy = { ...modelLimits, timeoutMs };
  checkCallPolicy(policy, "ask");
  return { preset, tier, limit, evidenceThreshold, headers, policy, filters, given: sources ?? null };
}

/** `sources` of `ask`: 1–100 passages, each with a docId and a text. */
function checkGivenSources(sources: unknown): void {
  if (!Array.isArray(sources) || sources.length < 1 || sources.length > 100)
    throw new RangeError(
      `Expected "sources" to be an array of 1 to 100 passages, got ${Array.isArray(sources) ? `${sources.length}` : typeof sources}`,
    );
  sources.forEach((s: unknown, i) => {
    const source = s as Record<string, unknown> | null;
    if (typeof source !== "object" || source === null || typeof source.docId !== "string" || source.docId === "")
      throw new TypeError(`Expected "sources[${i}].docId" to be a non-empty string`);
    if (typeof source.text !== "string" || source.text === "")
      throw new TypeError(`Expected "sources[${i}].text" to be a non-empty string`);
    if (source.title !== undefined && typeof source.title !== "string")
      throw new TypeError(`Expected "sources[${i}].title" to be a string`);
  });
}

export function checkEvidenceThreshold(threshold: number): void {
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`Expected "evidenceThreshold" to be between 0 and 1, got ${threshold}`);
}
