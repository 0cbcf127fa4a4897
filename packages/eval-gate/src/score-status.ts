/**
 * How the gate counts one Evalite score. Honest numbers: a score is **scored** when its value is a
 * number in [0, 1] and its metadata does not say otherwise (`metadata.status` absent, `"scored"`
 * or `"ok"`). Anything else — `status: "failed"` (the answer failed), `"unknown"` (the target did
 * not give what the metric needs: a time, the sources' text), `"skipped"`, `"no-judge"` (no judge
 * was available), any other status, or a value that is not a number in [0, 1] — is **not
 * scored**: it counts as 0 in every mean, never passes, and is counted by its reason. A task that
 * threw gives its case `errored` for every metric of its eval.
 *
 * A judged metric that fell back to the heuristic (`method: "heuristic"`, `fallbackFrom`) is
 * scored: its value is a real measurement, labeled; the methods are tallied per metric.
 *
 * **Faults.** Two reasons say that the system measured did not answer, rather than that it
 * answered badly: `failed` (the scorer's word for "the target or a model failed": the answer, the
 * expansion or the comparison it grades is missing) and `errored` (the case's task threw). A run
 * with a fault never passes (judge-run.ts). A not-scored score says why in `metadata.reason` or
 * `metadata.error` (an expander's in `metadata.fallback`), which the gate quotes.
 *
 * A **verdict score** carries the verdict on its case in `metadata.verdict`: `{ pass: boolean,
 * failed: string[], diagnosis?: { verdict, reasons }, warnings?: string[] }` (the suite's
 * "Question verdict"). Its case is judged by that verdict instead of per-metric pass marks. A
 * verdict of the wrong shape, or whose pass disagrees with a scored value (pass ⇔ 1), makes the
 * score `invalid`: a verdict the gate cannot read is not a pass.
 */
import type { Evalite } from "evalite";

/** What the gate reads of one score as Evalite stores it. */
export type EvaliteScore = Pick<Evalite.Exported.Score, "name" | "score" | "metadata">;

export interface CountedScore {
  metric: string;
  /** What means count: the score when scored, else 0. */
  value: number;
  /** `scored`, or why not: `failed`, `skipped`, `no-judge`, `errored`, `invalid`, or the scorer's own status. */
  status: string;
  /** `metadata.method` when the scorer names one (`heuristic`, `llm-judge`). */
  method?: string;
  /** `metadata.grader` when the scorer names one (the judged graders' ids: judge stability reads them). */
  grader?: string;
  /** The verdict on the case, when this is a verdict score. */
  verdict?: ScoreVerdict;
  /** Why it was not scored, when the scorer says (`metadata.error`, or an expander's `metadata.fallback`). */
  error?: string;
}

/** The not-scored reasons that say the target or a model failed (a fault), not that it answered badly. */
export const FAULT_STATUSES: ReadonlySet<string> = new Set(["failed", "errored"]);

export const isFault = (status: string): boolean => FAULT_STATUSES.has(status);

/** What a verdict score says about its case. */
export interface ScoreVerdict {
  pass: boolean;
  /** What failed, one fact a line (empty when it passed). */
  failed: string[];
  /** Where it went wrong (`retrieval`, `generation`, `error`, `pass`) and why. */
  diagnosis?: { verdict: string; reasons: string[] };
  /** Warnings about the case's own golden data (not failures). */
  warnings?: string[];
}

const SCORED = new Set(["scored", "ok"]);

export function countScore(score: EvaliteScore): CountedScore {
  const metadata = typeof score.metadata === "object" && score.metadata !== null ? (score.metadata as Record<string, unknown>) : {};
  const counted: CountedScore = { metric: score.name, value: 0, status: "scored" };
  if (typeof metadata.method === "string") counted.method = metadata.method;
  if (typeof metadata.grader === "string") counted.grader = metadata.grader;
  if (metadata.verdict !== undefined) {
    const verdict = readVerdict(metadata.verdict);
    if (verdict === null) {
      counted.status = "invalid";
      return counted;
    }
    counted.verdict = verdict;
  }
  const declared = metadata.status;
  if (declared !== undefined && !(typeof declared === "string" && SCORED.has(declared))) {
    counted.status = typeof declared === "string" && declared !== "" ? declared : "invalid";
    const why = [metadata.reason, metadata.error, metadata.fallback].find((x): x is string => typeof x === "string" && x !== "");
    if (why !== undefined) counted.error = why;
    return counted;
  }
  const value = score.score;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    counted.status = "invalid";
    return counted;
  }
  if (counted.verdict && counted.verdict.pass !== (value === 1)) {
    // Which of the two is wrong cannot be known: neither is a verdict.
    delete counted.verdict;
    counted.status = "invalid";
    return counted;
  }
  counted.value = value;
  return counted;
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");

/** The verdict of a score's metadata, or null when it does not have the verdict's shape. */
function readVerdict(value: unknown): ScoreVerdict | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.pass !== "boolean" || !isStrings(v.failed)) return null;
  const verdict: ScoreVerdict = { pass: v.pass, failed: v.failed };
  const d = v.diagnosis as Record<string, unknown> | undefined;
  if (d !== undefined) {
    if (typeof d !== "object" || d === null || typeof d.verdict !== "string" || !isStrings(d.reasons)) return null;
    verdict.diagnosis = { verdict: d.verdict, reasons: d.reasons };
  }
  if (v.warnings !== undefined) {
    if (!isStrings(v.warnings)) return null;
    if (v.warnings.length > 0) verdict.warnings = v.warnings;
  }
  return verdict;
}

/** The placeholder for a metric of a case whose task threw. */
export function erroredScore(metric: string): CountedScore {
  return { metric, value: 0, status: "errored" };
}

export const isScored = (s: CountedScore): boolean => s.status === "scored";
