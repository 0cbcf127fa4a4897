/**
 * What a run measured, as the suite's global setup (helpers/global-setup.ts) hands it to the gate:
 * the index fingerprint, the model mode and ids, the engine options. The gate owns this shape —
 * it is the report's `fingerprint`, `mode`, `models` and `engineOptions`, one definition in
 * `report.schema.json` — and the suite produces it. It crosses a file (vitest clears the provided
 * context when the run closes, before the gate could read it: docs/gate.md), so `readRunInfo`
 * checks it against the report schema instead of trusting a cast.
 */
import { existsSync, readFileSync } from "node:fs";
import { ConfigError } from "./errors.js";
import { reportSchemaCheck } from "./report-schema.js";

/** What identifies the measured index (the report's `fingerprint`); equal fingerprints mean comparable runs. */
export interface IndexFingerprint {
  schemaVersion: number;
  /** The tokenizer and its version. */
  analyzer: string;
  chunkers?: string[];
  embedder: string;
  dimensions?: number;
  /** sha256 over the corpus documents. */
  corpusHash: string;
  documents?: number;
  passages?: number;
  /** `fixtures`, or the EVAL_DATASET folder's name. */
  dataset: string;
  collection?: string;
}

export interface RunInfo {
  fingerprint: IndexFingerprint;
  /** "offline", or the model configuration's name. */
  mode: string;
  /** Which component produced what: embedder, reranker, expander (and, with answers, answerer and judge). */
  models: Record<string, string | null>;
  /** EVAL_ENGINE_OPTIONS as parsed: the engine parameters this run tuned. */
  engineOptions: Record<string, unknown>;
}

const RUN_INFO_FIELDS = ["fingerprint", "mode", "models", "engineOptions"] as const satisfies ReadonlyArray<keyof RunInfo>;

/** Problems of `value` as run info, in plain words; empty when it is run info. */
export const runInfoProblems = reportSchemaCheck((ref) => ({
  type: "object",
  required: [...RUN_INFO_FIELDS],
  additionalProperties: false,
  properties: Object.fromEntries(RUN_INFO_FIELDS.map((field) => [field, ref(`/properties/${field}`)])),
}));

function isRunInfo(value: unknown): value is RunInfo {
  return runInfoProblems(value).length === 0;
}

/** The run info global setup wrote to `path`; missing, unreadable or malformed is a ConfigError (one line). */
export function readRunInfo(path: string): RunInfo {
  if (!existsSync(path)) throw new ConfigError(`global setup wrote no run info to ${path} (helpers/global-setup.ts, EVAL_RUN_INFO_FILE)`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${path}: cannot read the run info (${(error as Error).message.split("\n")[0]})`);
  }
  if (!isRunInfo(value))
    throw new ConfigError(`${path}: not run info (packages/eval-gate/report.schema.json): ${runInfoProblems(value)[0]}`);
  return value;
}
