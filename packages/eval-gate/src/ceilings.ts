/**
 * Latency ceilings, beside the floors: per mode, eval and base slice, a budget in milliseconds for
 * the p95 latency of the run's cases — `ceilings: { "<mode>": { "<eval>": { "<slice>": 1000 } } }`.
 * Only engine-timed evals get one (`latency.source: "elapsedMs"`, the engine's own measurement of a
 * call); an Evalite row duration is the harness's time. A run whose p95 is above its ceiling fails,
 * naming it; a ceiling whose eval ran but measured no latency is `missing`, also a failure.
 *
 * A ceiling is what `--update-baseline` earns from a run: `max(factor × p95, minMs)` (defaults
 * 3 × and 2000 ms, `ceilingTolerance` in the baseline), rounded up to a millisecond. The update
 * adds ceilings and tightens one only down to what this run earns, so never below 3 × the measured
 * p95; it never loosens one. Latency depends on the machine, which is why the margin is wide:
 * offline a case takes milliseconds, yet one suite's p95 measured 0.2 s in one run and 1.35 s
 * in the next on a loaded 2-core machine, and the floor of 2 s keeps such load from failing a run. `--lower-floor "<eval>|p95 ms|<slice>"` loosens a ceiling to what the run earns.
 *
 * Keys print as `<eval>|p95 ms|<slice>`, like a floor's. Pure: functions of the ceilings and the
 * run's aggregates.
 */
import type { SliceAggregate } from "./aggregate.js";
import { type SkippedEval, skipCovering } from "./run-info.js";

/** The pseudo-metric of a ceiling's key. */
export const CEILING_METRIC = "p95 ms";

export interface CeilingTolerance {
  /** A ceiling is at least this many times the measured p95. */
  factor: number;
  /** …and at least this many milliseconds. */
  minMs: number;
}

export const DEFAULT_CEILING_TOLERANCE: CeilingTolerance = { factor: 3, minMs: 2000 };

/** eval → base slice → ceiling (ms). */
export type Ceilings = Record<string, Record<string, number>>;

export interface CeilingCheck {
  key: string;
  eval: string;
  slice: string;
  ceilingMs: number;
  /** This run's p95 latency; null when not measured. */
  p95Ms: number | null;
  n: number | null;
  status: "pass" | "exceeded" | "missing" | "not-run" | "skipped";
  /** Why a skipped ceiling was not checked: its eval's skip (run-info.ts). */
  reason?: string;
}

export interface CeilingChange {
  key: string;
  from: number | null;
  to: number | null;
  /** This run's p95, when measured. */
  achieved: number | null;
  n: number | null;
}

export const ceilingKey = (evalKey: string, slice: string): string => `${evalKey}|${CEILING_METRIC}|${slice}`;

/** The ceiling a measured p95 earns. */
export function ceilingFrom(p95Ms: number, t: CeilingTolerance): number {
  return Math.ceil(Math.max(t.factor * p95Ms, t.minMs));
}

/** The run's engine-timed base slices: what gets a ceiling. */
function timed(aggregates: readonly SliceAggregate[]): Map<string, { eval: string; slice: string; p95Ms: number; n: number }> {
  const out = new Map<string, { eval: string; slice: string; p95Ms: number; n: number }>();
  for (const a of aggregates) {
    if (!a.base || a.latency === null || a.latency.source !== "elapsedMs") continue;
    out.set(ceilingKey(a.eval, a.slice), { eval: a.eval, slice: a.slice, p95Ms: a.latency.p95Ms, n: a.latency.n });
  }
  return out;
}

export function* eachCeiling(ceilings: Ceilings): Generator<[string, string, number]> {
  for (const [evalKey, slices] of Object.entries(ceilings)) for (const [slice, ms] of Object.entries(slices)) yield [evalKey, slice, ms];
}

/** Every ceiling against the run; `ranEvals` are the evals the run measured, `skipped` those its target could not run. */
export function checkCeilings(
  ceilings: Ceilings,
  aggregates: readonly SliceAggregate[],
  ranEvals: ReadonlySet<string>,
  skipped: readonly SkippedEval[] = [],
): CeilingCheck[] {
  const measured = new Map(aggregates.filter((a) => a.base).map((a) => [ceilingKey(a.eval, a.slice), a]));
  const checks: CeilingCheck[] = [];
  for (const [evalKey, slice, ceilingMs] of eachCeiling(ceilings)) {
    const key = ceilingKey(evalKey, slice);
    const latency = measured.get(key)?.latency ?? null;
    const base = { key, eval: evalKey, slice, ceilingMs };
    const skip = latency === null ? skipCovering(skipped, evalKey, slice) : undefined;
    if (skip) checks.push({ ...base, p95Ms: null, n: null, status: "skipped", reason: skip.reason });
    else if (!ranEvals.has(evalKey)) checks.push({ ...base, p95Ms: null, n: null, status: "not-run" });
    else if (latency === null) checks.push({ ...base, p95Ms: null, n: null, status: "missing" });
    else checks.push({ ...base, p95Ms: latency.p95Ms, n: latency.n, status: latency.p95Ms > ceilingMs ? "exceeded" : "pass" });
  }
  return checks;
}

export const ceilingFailures = (checks: readonly CeilingCheck[]): CeilingCheck[] =>
  checks.filter((c) => c.status === "exceeded" || c.status === "missing");

/** Engine-timed measurements of the run that have no ceiling yet. */
export function unceiled(ceilings: Ceilings, aggregates: readonly SliceAggregate[]): string[] {
  return [...timed(aggregates).values()].filter((m) => ceilings[m.eval]?.[m.slice] === undefined).map((m) => ceilingKey(m.eval, m.slice));
}

/** `--update-baseline`: adds ceilings, and tightens one only down to what this run earns (≥ factor × p95). Never loosens. */
export function tightenCeilings(ceilings: Ceilings, aggregates: readonly SliceAggregate[], t: CeilingTolerance): CeilingChange[] {
  const changes: CeilingChange[] = [];
  for (const [key, m] of timed(aggregates)) {
    const current = ceilings[m.eval]?.[m.slice];
    const earned = ceilingFrom(m.p95Ms, t);
    if (current !== undefined && earned >= current) continue;
    (ceilings[m.eval] ??= {})[m.slice] = earned;
    changes.push({ key, from: current ?? null, to: earned, achieved: m.p95Ms, n: m.n });
  }
  return changes;
}

/**
 * `--lower-floor` on ceilings: loosens each matched ceiling of an eval that ran to what this run
 * earns when that is higher, and removes a matched ceiling the run no longer measures.
 */
export function loosenCeilings(
  ceilings: Ceilings,
  matched: ReadonlyArray<[string, string, number]>,
  aggregates: readonly SliceAggregate[],
  t: CeilingTolerance,
): CeilingChange[] {
  const measured = timed(aggregates);
  const changes: CeilingChange[] = [];
  for (const [evalKey, slice, current] of matched) {
    const key = ceilingKey(evalKey, slice);
    const m = measured.get(key);
    const earned = m ? ceilingFrom(m.p95Ms, t) : null;
    if (earned !== null && earned <= current) continue;
    if (earned === null) {
      delete ceilings[evalKey]![slice];
      if (Object.keys(ceilings[evalKey]!).length === 0) delete ceilings[evalKey];
    } else ceilings[evalKey]![slice] = earned;
    changes.push({ key, from: current, to: earned, achieved: m?.p95Ms ?? null, n: m?.n ?? null });
  }
  return changes;
}
