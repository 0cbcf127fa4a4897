/**
 * How a baseline's floors and ceilings move, and the log of every move.
 *
 * - **Ratchet** (`--update-baseline`): adds floors for new measurements and raises floors to this
 *   run's achievement less the tolerance (floors.ts); never lowers. Adds and tightens ceilings
 *   (never below 3 × the measured p95, ceilings.ts). A judged metric that is not gated
 *   (judge-trust.ts) gets no floor, and the floors it had are removed, logged with why.
 * - **Lowering** (`--lower-floor <pattern>` with `--reason`): sets the matched floors to this run's
 *   achievement less the tolerance when that is lower, loosens the matched ceilings to what this
 *   run earns, and removes matched entries the run did not measure.
 * - **Log**: every change is logged with date, commit and reason, one entry per run and action
 *   (floors, ceilings and recorded cases of one run together).
 *
 * A pattern names floors as `eval|metric|slice` with `*` for any eval, metric or slice, and
 * missing parts mean `*` (`Search (BM25)|nDCG@10` is every slice of that metric); a ceiling's
 * metric is `p95 ms`. Pure, but for the baseline object each function updates (judge-run.ts hands
 * them a copy).
 */
import type { SliceAggregate } from "./aggregate.js";
import type { Baseline, CaseChange, FloorChange, LogEntry } from "./baseline.js";
import { CEILING_METRIC, eachCeiling, loosenCeilings, tightenCeilings } from "./ceilings.js";
import { ConfigError, quoteInput } from "./errors.js";
import { eachFloor, floorFrom, floorKey, measurements, splitKey, toleranceFor } from "./floors.js";

export interface ChangeContext {
  date: string;
  commit: string | null;
  dirty?: boolean | null;
  reason: string;
}

/**
 * Adds and raises floors to what the run achieved (less the tolerance), never lowering one; adds
 * and tightens latency ceilings (never below what the run earns). Returns the changes logged.
 */
export function ratchet(
  baseline: Baseline,
  mode: string,
  aggregates: readonly SliceAggregate[],
  context: ChangeContext,
  notGated: ReadonlyMap<string, string> = new Map(),
): FloorChange[] {
  const tolerance = toleranceFor(baseline, mode);
  const changes: FloorChange[] = [];
  for (const [key, m] of measurements(aggregates)) {
    if (!m.floorable(tolerance)) continue;
    const [evalKey, metric, slice] = splitKey(key);
    if (notGated.has(metric)) continue;
    const current = baseline.floors[mode]?.[evalKey]?.[metric]?.[slice];
    const earned = floorFrom(m.mean, m.n, tolerance);
    if (current !== undefined && earned <= current) continue;
    setFloor(baseline, mode, key, earned);
    changes.push({ key, from: current ?? null, to: earned, achieved: m.mean, n: m.n });
  }
  const ceilings = (baseline.ceilings[mode] ??= {});
  changes.push(...tightenCeilings(ceilings, aggregates, baseline.ceilingTolerance));
  if (Object.keys(ceilings).length === 0) delete baseline.ceilings[mode];
  logChanges(baseline, mode, "raise", { changes }, context);
  return changes;
}

/**
 * Removes the floors of `mode` whose metric is a judged metric that is not gated (`notGated`:
 * metric → why), logged as a lowering whose reason names each metric and its calibration.
 */
export function dropNotGated(
  baseline: Baseline,
  mode: string,
  notGated: ReadonlyMap<string, string>,
  aggregates: readonly SliceAggregate[],
  context: ChangeContext,
): FloorChange[] {
  const measured = measurements(aggregates);
  const changes: FloorChange[] = [];
  for (const [evalKey, metric, slice, current] of eachFloor(baseline.floors[mode] ?? {})) {
    if (!notGated.has(metric)) continue;
    const key = floorKey(evalKey, metric, slice);
    const m = measured.get(key);
    setFloor(baseline, mode, key, null);
    changes.push({ key, from: current, to: null, achieved: m?.mean ?? null, n: m?.n ?? null });
  }
  const metrics = [...new Set(changes.map((c) => splitKey(c.key)[1]))];
  const why = metrics.map((m) => `${m} (${notGated.get(m)})`).join("; ");
  logChanges(baseline, mode, "lower", { changes }, { ...context, reason: `${context.reason} — floors of judged metrics removed, ${why}` });
  return changes;
}

/**
 * Lowers the floors matched by `patterns` to what this run achieved (less the tolerance), and
 * removes matched floors of evals that ran but no longer measure them. A pattern that matches no
 * floor, or only floors of evals this run did not measure, is a ConfigError.
 */
export function lowerFloors(
  baseline: Baseline,
  mode: string,
  patterns: readonly string[],
  aggregates: readonly SliceAggregate[],
  ranEvals: ReadonlySet<string>,
  context: ChangeContext,
): FloorChange[] {
  const tolerance = toleranceFor(baseline, mode);
  const measured = measurements(aggregates);
  const changes: FloorChange[] = [];
  for (const pattern of patterns) {
    const matcher = patternMatcher(pattern);
    const matched = [...eachFloor(baseline.floors[mode] ?? {})].filter(([e, m, s]) => matcher(e, m, s));
    const ceilings = [...eachCeiling(baseline.ceilings[mode] ?? {})].filter(([e, s]) => matcher(e, CEILING_METRIC, s));
    if (matched.length === 0 && ceilings.length === 0)
      throw new ConfigError(
        `--lower-floor ${quoteInput(pattern)}: no ${mode} floor or ceiling matches (keys are eval|metric|slice; a ceiling's metric is "${CEILING_METRIC}")`,
      );
    const ran = matched.filter(([e]) => ranEvals.has(e));
    const ranCeilings = ceilings.filter(([e]) => ranEvals.has(e));
    if (ran.length === 0 && ranCeilings.length === 0)
      throw new ConfigError(
        `--lower-floor ${quoteInput(pattern)}: this run did not measure ${(matched[0] ?? ceilings[0])![0]}; run its eval file to lower its floors`,
      );
    if (ranCeilings.length > 0)
      changes.push(...loosenCeilings(baseline.ceilings[mode]!, ranCeilings, aggregates, baseline.ceilingTolerance));
    for (const [evalKey, metric, slice, current] of ran) {
      const key = floorKey(evalKey, metric, slice);
      const m = measured.get(key);
      const earned = m ? floorFrom(m.mean, m.n, tolerance) : null;
      if (earned !== null && earned >= current) continue;
      setFloor(baseline, mode, key, earned);
      changes.push({ key, from: current, to: earned, achieved: m?.mean ?? null, n: m?.n ?? null });
    }
  }
  if (Object.keys(baseline.ceilings[mode] ?? {}).length === 0) delete baseline.ceilings[mode];
  logChanges(baseline, mode, "lower", { changes }, context);
  return changes;
}

function setFloor(baseline: Baseline, mode: string, key: string, value: number | null): void {
  const [evalKey, metric, slice] = splitKey(key);
  const modeFloors = (baseline.floors[mode] ??= {});
  const metrics = (modeFloors[evalKey] ??= {});
  const slices = (metrics[metric] ??= {});
  if (value !== null) {
    slices[slice] = value;
    return;
  }
  delete slices[slice];
  if (Object.keys(slices).length === 0) delete metrics[metric];
  if (Object.keys(metrics).length === 0) delete modeFloors[evalKey];
}

function patternMatcher(pattern: string): (evalKey: string, metric: string, slice: string) => boolean {
  const parts = pattern.split("|");
  // Eval names may contain "|": the last two parts are metric and slice when there are more than three.
  const [e, m, s] =
    parts.length > 3 ? [parts.slice(0, -2).join("|"), parts.at(-2)!, parts.at(-1)!] : [parts[0]!, parts[1] ?? "*", parts[2] ?? "*"];
  const is = (want: string, got: string): boolean => want === "*" || want === got;
  return (evalKey, metric, slice) => is(e, evalKey) && is(m, metric) && is(s, slice);
}

/**
 * Logs a run's changes: one entry per run and action, so floors, ceilings and cases changed by one
 * `--update-baseline` read as one entry (an entry of this run — same date, mode, action and reason
 * — takes the new changes).
 */
export function logChanges(
  baseline: Baseline,
  mode: string,
  action: LogEntry["action"],
  add: { changes?: FloorChange[]; cases?: CaseChange[] },
  context: ChangeContext,
): void {
  const changes = add.changes ?? [];
  const cases = add.cases ?? [];
  if (changes.length === 0 && cases.length === 0) return;
  const last = baseline.log.at(-1);
  const entry =
    last && last.date === context.date && last.mode === mode && last.action === action && last.reason === context.reason ? last : undefined;
  if (entry) {
    entry.changes.push(...changes);
    if (cases.length > 0) entry.cases = [...(entry.cases ?? []), ...cases];
    return;
  }
  baseline.log.push({
    date: context.date,
    commit: context.commit,
    ...(context.dirty ? { dirty: true } : {}),
    mode,
    action,
    reason: context.reason,
    changes,
    ...(cases.length > 0 ? { cases } : {}),
  });
}

/** A ceiling's key names the metric `p95 ms`; every other key is a floor's. */
export const isCeilingChange = (change: Pick<FloorChange, "key">): boolean => splitKey(change.key)[1] === CEILING_METRIC;

/**
 * What a run changed in the baseline, as printed after the gate: floors and ceilings counted
 * apart (a ceiling is milliseconds that only tighten, a floor a mean that only rises, so "22
 * floors added" for 22 ceilings would mislead a reviewer), and the lines of the changes worth
 * reviewing — every move and removal; additions only when there are few (a first baseline adds
 * hundreds).
 */
export function describeChanges(changes: readonly FloorChange[]): { summary: string; lines: string[] } {
  const floors = changes.filter((c) => !isCeilingChange(c));
  const ceilings = changes.filter(isCeilingChange);
  const count = (of: readonly FloorChange[], test: (c: FloorChange) => boolean) => of.filter(test).length;
  const added = (c: FloorChange) => c.from === null;
  const removed = (c: FloorChange) => c.to === null;
  const up = (c: FloorChange) => c.from !== null && c.to !== null && c.to > c.from;
  const down = (c: FloorChange) => c.from !== null && c.to !== null && c.to < c.from;
  const summary =
    `${count(floors, added)} floor(s) added, ${count(floors, up)} raised, ${count(floors, down)} lowered, ${count(floors, removed)} removed; ` +
    `${count(ceilings, added)} ceiling(s) added, ${count(ceilings, down)} tightened, ${count(ceilings, up)} loosened, ${count(ceilings, removed)} removed`;
  const lines = changes
    .filter((c) => c.from !== null || changes.length <= 20)
    .map((c) => (isCeilingChange(c) ? ceilingChangeLine(c) : floorChangeLine(c)));
  return { summary, lines };
}

function floorChangeLine(c: FloorChange): string {
  const achieved = c.achieved === null ? "" : ` (achieved ${c.achieved.toFixed(4)}, n=${c.n})`;
  return `${c.key} ${c.from === null ? "new" : c.from.toFixed(4)} → ${c.to === null ? "removed" : c.to.toFixed(4)}${achieved}`;
}

function ceilingChangeLine(c: FloorChange): string {
  const p95 = c.achieved === null ? "" : ` (p95 ${c.achieved.toFixed(1)} ms, n=${c.n})`;
  return `${c.key} ${c.from === null ? "new" : `${c.from} ms`} → ${c.to === null ? "removed" : `${c.to} ms`}${p95}`;
}
