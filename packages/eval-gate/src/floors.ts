/**
 * The floors of a baseline (baseline.ts) against a run: per mode, eval, metric and slice, the
 * least mean a run may score.
 *
 * - **Mode** keys floors, ceilings and cases: `offline`, or the model configuration's name, with
 *   `@<dataset>` appended when the run measured another dataset than the fixtures — a run is only
 *   ever judged against what was set in the same mode on the same dataset.
 * - **Tolerance**: a floor is what a run achieved less `absolute + perSqrtN / √n` (n = cases in the
 *   slice), rounded down to 4 decimals and never below 0; `modeTolerance` overrides it per mode
 *   (model runs are noisier than the deterministic offline run).
 * - **Which slices get floors**: every base slice (`all`, or the variant's), and a language or
 *   category slice with at least `minSliceN` cases. Smaller slices are reported, not floored, and
 *   so is a measurement whose floor would be 0 (it could never fail).
 * - **The check**: a floor *fell* when the run's mean is below it; a floor whose eval ran but which
 *   the run did not measure is *missing* (also a failure: a renamed metric must not slip out of the
 *   gate silently); floors of evals that did not run (a file filter) are *not run*; floors of evals
 *   (or variants) the run's target could not run are *skipped*, with the reason; floors of a judged
 *   metric whose judge does not agree with people well enough are *not gated*, with the
 *   calibration that says so (judge-trust.ts). None of the last three fails.
 *
 * Keys print as `eval|metric|slice`. Pure.
 */
import type { SliceAggregate } from "./aggregate.js";
import type { Baseline, Floors, Tolerance } from "./baseline.js";
import { type SkippedEval, skipCovering } from "./run-info.js";

export const floorKey = (evalKey: string, metric: string, slice: string): string => `${evalKey}|${metric}|${slice}`;

/** The floors' mode key of a run: its model mode, plus `@dataset` off the fixtures. */
export function floorMode(mode: string, dataset: string): string {
  return dataset === "fixtures" ? mode : `${mode}@${dataset}`;
}

export function toleranceFor(baseline: Baseline, mode: string): Tolerance {
  return { ...baseline.tolerance, ...baseline.modeTolerance?.[mode] };
}

/** The floor a mean of n cases earns: mean − (absolute + perSqrtN/√n), rounded down to 4 decimals, ≥ 0. */
export function floorFrom(achieved: number, n: number, tolerance: Tolerance): number {
  const slack = tolerance.absolute + tolerance.perSqrtN / Math.sqrt(Math.max(1, n));
  return Math.max(0, Math.floor((achieved - slack) * 10_000 + 1e-9) / 10_000);
}

export function floored(slice: Pick<SliceAggregate, "base" | "n">, tolerance: Tolerance): boolean {
  return slice.base || slice.n >= tolerance.minSliceN;
}

export interface FloorCheck {
  key: string;
  eval: string;
  metric: string;
  slice: string;
  floor: number;
  /** This run's mean; null when not measured. */
  value: number | null;
  /** value − floor. */
  delta: number | null;
  n: number | null;
  status: "pass" | "fell" | "missing" | "not-run" | "skipped" | "not-gated";
  /** Why a skipped floor was not checked (its eval's skip, run-info.ts), or why a judged metric's is not gated (judge-trust.ts). */
  reason?: string;
}

export interface GateResult {
  mode: string;
  tolerance: Tolerance;
  checks: FloorCheck[];
  /** Measurements of this run that could carry a floor but have none yet. */
  unfloored: string[];
}

/**
 * Every floor of `mode` against the run's aggregates; `ranEvals` are the evals the run measured,
 * `skipped` the evals (or variants) its target could not run: their floors are `skipped`, with
 * the reason, neither missing nor passed; `notGated` the judged metrics that hold no floor, with
 * why (judge-trust.ts): their floors are `not-gated`, and a measurement of theirs earns none.
 */
export function checkFloors(
  baseline: Baseline,
  mode: string,
  aggregates: readonly SliceAggregate[],
  ranEvals: ReadonlySet<string>,
  skipped: readonly SkippedEval[] = [],
  notGated: ReadonlyMap<string, string> = new Map(),
): GateResult {
  const tolerance = toleranceFor(baseline, mode);
  const measured = measurements(aggregates);
  const checks: FloorCheck[] = [];
  for (const [evalKey, metric, slice, floor] of eachFloor(baseline.floors[mode] ?? {})) {
    const key = floorKey(evalKey, metric, slice);
    const m = measured.get(key);
    const base = { key, eval: evalKey, metric, slice, floor };
    const skip = m ? undefined : skipCovering(skipped, evalKey, slice);
    const ungated = notGated.get(metric);
    if (ungated !== undefined && ranEvals.has(evalKey))
      checks.push({
        ...base,
        value: m?.mean ?? null,
        delta: m ? m.mean - floor : null,
        n: m?.n ?? null,
        status: "not-gated",
        reason: ungated,
      });
    else if (skip) checks.push({ ...base, value: null, delta: null, n: null, status: "skipped", reason: skip.reason });
    else if (!ranEvals.has(evalKey)) checks.push({ ...base, value: null, delta: null, n: null, status: "not-run" });
    else if (!m) checks.push({ ...base, value: null, delta: null, n: null, status: "missing" });
    else checks.push({ ...base, value: m.mean, delta: m.mean - floor, n: m.n, status: m.mean < floor - 1e-9 ? "fell" : "pass" });
  }
  const unfloored = [...measured.entries()]
    .filter(([key, m]) => m.floorable(tolerance) && !hasFloor(baseline, mode, key) && !notGated.has(splitKey(key)[1]))
    .map(([key]) => key);
  return { mode, tolerance, checks, unfloored };
}

/** The floors that fail the run: fell, or went missing. */
export const gateFailures = (gate: GateResult): FloorCheck[] => gate.checks.filter((c) => c.status === "fell" || c.status === "missing");

/** A measurement of the run that a floor can hold: its mean and n, and whether its slice earns a floor. */
export interface Measurement {
  mean: number;
  n: number;
  floorable(t: Tolerance): boolean;
}

/** The run's measurements by floor key. */
export function measurements(aggregates: readonly SliceAggregate[]): Map<string, Measurement> {
  const out = new Map<string, Measurement>();
  for (const slice of aggregates) {
    // A floor of 0 could never fail: such a measurement is reported, not floored.
    for (const m of slice.metrics)
      out.set(floorKey(slice.eval, m.metric, slice.slice), {
        mean: m.mean,
        n: m.n,
        floorable: (t) => floored(slice, t) && floorFrom(m.mean, m.n, t) > 0,
      });
  }
  return out;
}

export function* eachFloor(floors: Floors): Generator<[string, string, string, number]> {
  for (const [evalKey, metrics] of Object.entries(floors)) {
    for (const [metric, slices] of Object.entries(metrics))
      for (const [slice, floor] of Object.entries(slices)) yield [evalKey, metric, slice, floor];
  }
}

function hasFloor(baseline: Baseline, mode: string, key: string): boolean {
  const [evalKey, metric, slice] = splitKey(key);
  return baseline.floors[mode]?.[evalKey]?.[metric]?.[slice] !== undefined;
}

/** A floor's (or ceiling's) key as eval, metric and slice. */
export function splitKey(key: string): [string, string, string] {
  // Eval names may contain "|"; metric and slice names do not.
  const parts = key.split("|");
  const slice = parts.pop()!;
  const metric = parts.pop()!;
  return [parts.join("|"), metric, slice];
}
