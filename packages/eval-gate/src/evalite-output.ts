/**
 * One Evalite run as the gate's case records. The input is Evalite's own exported shape
 * (`Evalite.Exported.Output`: `{ run, suites: [{ name, filepath, status, variantName,
 * variantGroup, evals: [{ input, output, status, duration, scores }] }] }`), read for exactly this
 * run from Evalite's storage (`evalite-storage.ts`). One record per case, its trials (Evalite does
 * not export the trial index; trials are repeated rows with the same input), and every score
 * counted the honest way (`score-status.ts`). Pure.
 */
import type { Evalite } from "evalite";
import { type CountedScore, countScore } from "./score-status.js";

/** Evalite's flat mean: every score of every eval that did not throw, as Evalite stores them. */
export function evaliteMean(output: Evalite.Exported.Output): { mean: number | null; scores: number } {
  let sum = 0;
  let count = 0;
  for (const suite of output.suites) {
    for (const row of suite.evals) {
      if (row.status !== "success") continue;
      for (const score of row.scores) {
        sum += typeof score.score === "number" && Number.isFinite(score.score) ? score.score : 0;
        count++;
      }
    }
  }
  return { mean: count > 0 ? sum / count : null, scores: count };
}

// ---------------------------------------------------------------------------------------------
// Case records
// ---------------------------------------------------------------------------------------------

/** How a suite's variant is named in slices: `tier=fast`, `preset=slim`, or `variant=x`. */
export interface Variant {
  dimension: "tier" | "preset" | "variant";
  value: string;
}

export interface SuiteRecord {
  /** Evalite's suite name, e.g. `Thoroughness [fast]`. */
  name: string;
  /** What floors and aggregates are keyed by: the variant group, or the suite name. */
  eval: string;
  file: string;
  status: Evalite.Exported.Suite["status"];
  variant: Variant | null;
  /** Where case latency comes from: the task output's own `elapsedMs`, or Evalite's row duration. */
  latencySource: "elapsedMs" | "duration";
}

export interface Trial {
  status: "success" | "error";
  /** The task's error (`name: message`) when it threw. */
  error?: string;
  scores: CountedScore[];
  latencyMs: number | null;
}

export interface CaseRecord {
  suite: string;
  eval: string;
  /** The input's `id`, the input itself when it is a string, or `#k` in order of appearance. */
  id: string;
  /** The query or question, for people. */
  label: string;
  language?: string;
  category?: string;
  variant: Variant | null;
  trials: Trial[];
}

const TIERS = new Set(["fast", "balanced", "thorough"]);

export function suiteRecord(suite: Evalite.Exported.Suite, rows: readonly Evalite.Exported.Eval[] = suite.evals): SuiteRecord {
  const variant = suite.variantName ? variantOf(suite.variantName, rows) : null;
  const timed = rows.filter((r) => r.status === "success");
  const engineTimed =
    timed.length > 0 &&
    timed.every((r) => isObject(r.output) && typeof r.output.elapsedMs === "number" && Number.isFinite(r.output.elapsedMs));
  return {
    name: suite.name,
    eval: suite.variantGroup || suite.name,
    file: suite.filepath,
    status: suite.status,
    variant,
    latencySource: engineTimed ? "elapsedMs" : "duration",
  };
}

/** Answer cases (inputs with a `question`) vary by model preset; retrieval variants named after a tier vary by tier. */
function variantOf(name: string, rows: readonly Evalite.Exported.Eval[]): Variant {
  if (rows.some((r) => isObject(r.input) && typeof r.input.question === "string")) return { dimension: "preset", value: name };
  if (TIERS.has(name)) return { dimension: "tier", value: name };
  return { dimension: "variant", value: name };
}

/** Groups a suite's rows into cases (repeated rows of one input are its trials), in order of first appearance. */
export function caseRecords(suite: Evalite.Exported.Suite, record: SuiteRecord = suiteRecord(suite)): CaseRecord[] {
  const byKey = new Map<string, CaseRecord>();
  for (const row of suite.evals) {
    const key = caseKey(row.input, byKey.size);
    let c = byKey.get(key.key);
    if (!c) {
      c = { suite: record.name, eval: record.eval, id: key.id, label: labelOf(row.input), variant: record.variant, trials: [] };
      if (isObject(row.input) && typeof row.input.language === "string") c.language = row.input.language;
      if (isObject(row.input) && typeof row.input.category === "string") c.category = row.input.category;
      byKey.set(key.key, c);
    }
    c.trials.push(trialOf(row, record.latencySource));
  }
  return [...byKey.values()];
}

function caseKey(input: unknown, seen: number): { key: string; id: string } {
  if (isObject(input) && (typeof input.id === "string" || typeof input.id === "number"))
    return { key: `id:${input.id}`, id: String(input.id) };
  if (typeof input === "string") return { key: `s:${input}`, id: input };
  const json = JSON.stringify(input) ?? "undefined";
  return { key: `j:${json}`, id: `#${seen + 1}` };
}

function labelOf(input: unknown): string {
  if (typeof input === "string") return input;
  if (isObject(input)) {
    for (const field of ["query", "question"]) if (typeof input[field] === "string") return input[field] as string;
  }
  return JSON.stringify(input)?.slice(0, 120) ?? "";
}

function trialOf(row: Evalite.Exported.Eval, latencySource: SuiteRecord["latencySource"]): Trial {
  const latency = latencySource === "elapsedMs" && isObject(row.output) ? row.output.elapsedMs : row.duration;
  const trial: Trial = {
    status: row.status === "success" ? "success" : "error",
    scores: row.scores.map(countScore),
    latencyMs: typeof latency === "number" && Number.isFinite(latency) ? latency : null,
  };
  if (trial.status === "error") {
    const out = isObject(row.output) ? row.output : {};
    trial.error =
      typeof out.message === "string"
        ? `${typeof out.name === "string" ? out.name : "Error"}: ${out.message}`
        : `the task failed (status ${row.status})`;
  }
  return trial;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
