/**
 * What a run measured, as the suite's global setup (helpers/global-setup.ts) hands it to the gate:
 * the index fingerprint, the model mode and ids, the engine options. The gate owns this shape —
 * it is the report's `fingerprint`, `mode`, `models` and `engineOptions`, one definition in
 * `report.schema.json` — and the suite produces it. It crosses a file (vitest clears the provided
 * context when the run closes, before the gate could read it: docs/gate.md), so `readRunInfo`
 * checks it against the report schema instead of trusting a cast.
 *
 * Also the evals the run's target could not run (`SkippedEval`, the report's `skipped`): the eval
 * files append one JSON line each to a file of the run (helpers/targets/skips.ts), which
 * `readSkippedEvals` reads back the same way. Their floors are then reported as skipped, never as
 * missing or passed (`skipCovering`).
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

/** An eval the run's target could not run: reported with its reason, never scored, its floors skipped. */
export interface SkippedEval {
  /** The eval as floors key it: Evalite's suite name, or the variant group (`Thoroughness`). */
  eval: string;
  /** When one variant of the eval was skipped and the others ran: its name (`fast`: the suite `Thoroughness [fast]`). */
  variant?: string;
  /** Why, in one line: `target flaky does not serve mode vsearch`. */
  reason: string;
}

/** Problems of `value` as a skipped eval, in plain words; empty when it is one. */
export const skippedEvalProblems = reportSchemaCheck((ref) => ref("/definitions/skippedEval"));

/** How a skipped eval is named for people: Evalite's suite name (`Thoroughness [fast]`). */
export const skippedName = (skip: SkippedEval): string => (skip.variant === undefined ? skip.eval : `${skip.eval} [${skip.variant}]`);

/**
 * The skips the eval files appended to `path`, one JSON object a line, each eval (and variant)
 * once, in the order they were reported; none when nothing was skipped (no file). A line that is
 * not a skipped eval is a ConfigError naming the file and line.
 */
export function readSkippedEvals(path: string): SkippedEval[] {
  if (!existsSync(path)) return [];
  const byName = new Map<string, SkippedEval>();
  for (const [i, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line.trim() === "") continue;
    const skip = skippedEvalOn(`${path}:${i + 1}`, line);
    if (!byName.has(skippedName(skip))) byName.set(skippedName(skip), skip);
  }
  return [...byName.values()];
}

/** One line of the skips file as a skipped eval; `where` (file:line) names it in the ConfigError it is not. */
function skippedEvalOn(where: string, line: string): SkippedEval {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new ConfigError(`${where}: not a skipped eval (${(error as Error).message.split("\n")[0]})`);
  }
  const problems = skippedEvalProblems(value);
  if (problems.length > 0) throw new ConfigError(`${where}: not a skipped eval (packages/eval-gate/report.schema.json): ${problems[0]}`);
  return value as SkippedEval;
}

/** A variant's own slice, the first of its slices (aggregate.ts): `tier=fast`, `preset=slim`, `variant=x`. */
const VARIANT_SLICE = /^(?:tier|preset|variant)=(.+)$/;

/**
 * The skip that covers a floor or ceiling of `evalKey` on `slice`, if any: the whole eval, or the
 * skipped variant's slices (`tier=fast`, `tier=fast,category=…`: a variant's slices start with its
 * own, whatever its dimension).
 */
export function skipCovering(skipped: readonly SkippedEval[], evalKey: string, slice: string): SkippedEval | undefined {
  const variant = VARIANT_SLICE.exec(slice.split(",")[0]!)?.[1];
  return skipped.find((s) => s.eval === evalKey && (s.variant === undefined || s.variant === variant));
}
