/**
 * Pass marks: the value at which a metric of one case passes. A case without a verdict score (a
 * retrieval query, a lane case) passes when every one of its metrics reaches its mark. The marks
 * are the user's: a default for every metric (0.5) and per-metric marks, set in the baseline
 * (`passMarks: { "default": 0.5, "metrics": { "nDCG@10": 0.6 } }`) or for one run on the command
 * line (`--pass-mark nDCG@10=0.6`, `--pass-mark '*=0.4'` for the default), the command line
 * winning. Every mark in force is written into the report (`thresholds.passMarks`), so a case's
 * outcome can always be traced to the mark that decided it.
 *
 * A mark for a metric that neither this run measured nor the baseline floors is a typo, and a
 * typo must not quietly leave a metric on the default: one line naming where it was set, exit 2.
 */
import { ConfigError, quoteInput } from "./errors.js";

export interface PassMarks {
  /** The mark of every metric without one of its own. */
  default: number;
  metrics: Record<string, number>;
}

/** The documented default: a metric of a case passes at half its range. */
export const DEFAULT_PASS_MARK = 0.5;

export function defaultPassMarks(): PassMarks {
  return { default: DEFAULT_PASS_MARK, metrics: {} };
}

export function passMarkOf(marks: PassMarks, metric: string): number {
  return marks.metrics[metric] ?? marks.default;
}

/** One `--pass-mark <metric>=<mark>` (`*` for the default); a ConfigError naming the flag otherwise. */
export function parsePassMark(raw: string): { metric: string; mark: number } {
  const at = raw.lastIndexOf("=");
  const metric = at > 0 ? raw.slice(0, at).trim() : "";
  const text = at > 0 ? raw.slice(at + 1).trim() : "";
  const mark = Number(text);
  if (metric === "" || text === "" || !Number.isFinite(mark) || mark < 0 || mark > 1)
    throw new ConfigError(`--pass-mark ${quoteInput(raw)}: must be <metric>=<number from 0 to 1>, e.g. nDCG@10=0.5 ('*' sets the default)`);
  return { metric, mark };
}

/** The baseline's marks with the command line's on top. */
export function withFlags(marks: PassMarks, flags: ReadonlyArray<{ metric: string; mark: number }>): PassMarks {
  const out: PassMarks = { default: marks.default, metrics: { ...marks.metrics } };
  for (const { metric, mark } of flags) {
    if (metric === "*") out.default = mark;
    else out.metrics[metric] = mark;
  }
  return out;
}

/**
 * Refuses a mark for a metric no one measures: `known` is every metric this run measured or the
 * baseline floors; `where` says where each named metric's mark was set (a flag, a baseline field).
 */
export function checkPassMarkNames(marks: PassMarks, known: ReadonlySet<string>, where: (metric: string) => string): void {
  const unknown = Object.keys(marks.metrics).filter((m) => !known.has(m));
  if (unknown.length === 0) return;
  const metric = unknown[0]!;
  const names = [...known].sort();
  const shown = names.slice(0, 30).join(", ") + (names.length > 30 ? `, … (${names.length} metrics)` : "");
  throw new ConfigError(
    `${where(metric)}: no metric ${quoteInput(metric)} in this run or the baseline's floors (metrics: ${shown || "none"})`,
  );
}
