/**
 * How the gate counts one Evalite score. Honest numbers: a score is **scored** when its value is a
 * number in [0, 1] and its metadata does not say otherwise (`metadata.status` absent, `"scored"`
 * or `"ok"`). Anything else — `status: "failed"` (the answer failed), `"skipped"`, `"no-judge"`
 * (no judge was available), any other status, or a value that is not a number in [0, 1] — is
 * **not scored**: it counts as 0 in every mean, never passes, and is counted by its reason. A task
 * that threw gives its case `errored` for every metric of its eval.
 *
 * A judged metric that fell back to the heuristic (`method: "heuristic"`, `fallbackFrom`) is
 * scored: its value is a real measurement, labeled; the methods are tallied per metric.
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
}

const SCORED = new Set(["scored", "ok"]);

export function countScore(score: EvaliteScore): CountedScore {
  const metadata = typeof score.metadata === "object" && score.metadata !== null ? (score.metadata as Record<string, unknown>) : {};
  const counted: CountedScore = { metric: score.name, value: 0, status: "scored" };
  if (typeof metadata.method === "string") counted.method = metadata.method;
  const declared = metadata.status;
  if (declared !== undefined && !(typeof declared === "string" && SCORED.has(declared))) {
    counted.status = typeof declared === "string" && declared !== "" ? declared : "invalid";
    return counted;
  }
  const value = score.score;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1) {
    counted.status = "invalid";
    return counted;
  }
  counted.value = value;
  return counted;
}

/** The placeholder for a metric of a case whose task threw. */
export function erroredScore(metric: string): CountedScore {
  return { metric, value: 0, status: "errored" };
}

export const isScored = (s: CountedScore): boolean => s.status === "scored";
