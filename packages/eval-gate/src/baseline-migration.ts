/**
 * Reading older baseline files as the current version: a file is never rewritten behind the
 * user's back, so a version 1 file is upgraded each time it is read, and written back as the
 * current version only by a run that writes the baseline anyway (`--update-baseline`, which says
 * so). Pure.
 *
 * - **Version 1** (floors only): the metrics renamed since are renamed in its floors
 *   (`METRIC_RENAMES`); the sections version 2 added start empty (no ceilings, no recorded cases)
 *   or at their defaults (pass marks, ceiling tolerance). Its log is kept as it was logged, keys
 *   and all.
 */
import { DEFAULT_CEILING_TOLERANCE } from "./ceilings.js";
import { isObject } from "./evalite-output.js";
import { defaultPassMarks } from "./pass-marks.js";

/** The version this package writes. */
export const BASELINE_VERSION = 2;

/**
 * Metric names a version 1 baseline used that were renamed since: the ranking evals' MRR was
 * computed over the top 10 only (trec_eval's `recip_rank` on a ranking cut at 10), and is now
 * labeled what it is. The numbers did not change, so the floors carry over.
 */
export const METRIC_RENAMES: Readonly<Record<string, string>> = { MRR: "MRR@10" };

/** A version 1 baseline as version 2: floors' metrics renamed (`METRIC_RENAMES`), the new sections at their defaults. */
export function upgradeBaseline(v1: Record<string, unknown>): Record<string, unknown> {
  const floors = isObject(v1.floors)
    ? Object.fromEntries(
        Object.entries(v1.floors).map(([mode, evals]) => [
          mode,
          isObject(evals)
            ? Object.fromEntries(
                Object.entries(evals).map(([evalKey, metrics]) => [
                  evalKey,
                  isObject(metrics) ? Object.fromEntries(Object.entries(metrics).map(([m, sl]) => [METRIC_RENAMES[m] ?? m, sl])) : metrics,
                ]),
              )
            : evals,
        ]),
      )
    : v1.floors;
  const { tolerance, modeTolerance, log, ...rest } = v1;
  return {
    ...rest,
    version: BASELINE_VERSION,
    tolerance,
    ...(modeTolerance !== undefined ? { modeTolerance } : {}),
    passMarks: defaultPassMarks(),
    ceilingTolerance: { ...DEFAULT_CEILING_TOLERANCE },
    floors,
    ceilings: {},
    cases: {},
    log,
  };
}

/** The version a file was written as, when it is one this package upgrades (null: current, or not a baseline at all). */
export function olderVersion(value: unknown): 1 | null {
  return isObject(value) && value.version === 1 ? 1 : null;
}

/** `value` as the current version: upgraded when it is an older one, else as it is (checked afterwards either way). */
export function migrateBaseline(value: unknown): unknown {
  return olderVersion(value) === 1 ? upgradeBaseline(value as Record<string, unknown>) : value;
}
