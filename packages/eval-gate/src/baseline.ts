/**
 * The committed baseline of the gate: `evals/baseline.json` (or `EVAL_BASELINE`) — per-metric
 * floors that only rise, latency ceilings that only tighten (ceilings.ts), which cases passed
 * (case-ratchet.ts), and the pass marks of case outcomes (pass-marks.ts).
 *
 * ```json
 * { "version": 2,
 *   "tolerance": { "absolute": 0.01, "perSqrtN": 0.1, "minSliceN": 5 },
 *   "modeTolerance": { "<mode>": { "perSqrtN": 0.5 } },
 *   "passMarks": { "default": 0.5, "metrics": { "<metric>": 0.6 } },
 *   "ceilingTolerance": { "factor": 3, "minMs": 2000 },
 *   "floors": { "<mode>": { "<eval>": { "<metric>": { "<slice>": 0.6162 } } } },
 *   "ceilings": { "<mode>": { "<eval>": { "<slice>": 1000 } } },
 *   "cases": { "<mode>": { "<suite>": { "pass": ["q-001"], "fail": ["q-002"] } } },
 *   "log": [ { "date", "commit", "dirty"?, "mode", "action": "raise" | "lower", "reason",
 *              "changes": [ { "key", "from", "to", "achieved", "n" } ],
 *              "cases"?: [ { "key", "from", "to" } ] } ] }
 * ```
 *
 * - **Versions.** A version 1 file (floors only, `MRR` for what is MRR@10) is upgraded when read
 *   (`upgradeBaseline`: metrics renamed by `METRIC_RENAMES`, the new sections empty, marks and
 *   ceiling tolerance at their defaults); `--update-baseline` writes it back as version 2. The log
 *   keeps the keys as they were when logged.
 * - **Mode** keys floors, ceilings and cases: `offline`, or the model configuration's name, with
 *   `@<dataset>` appended when the run measured another dataset than the fixtures — a run is only
 *   ever judged against what was set in the same mode on the same dataset.
 * - **Tolerance**: a floor is what a run achieved less `absolute + perSqrtN / √n` (n = cases in the
 *   slice), rounded down to 4 decimals and never below 0; `modeTolerance` overrides it per mode
 *   (model runs are noisier than the deterministic offline run).
 * - **Which slices get floors**: every base slice (`all`, or the variant's), and a language or
 *   category slice with at least `minSliceN` cases. Smaller slices are reported, not floored.
 * - **Gate**: a floor *fell* when the run's mean is below it; a floor whose eval ran but which the
 *   run did not measure is *missing* (also a failure: a renamed metric must not slip out of the
 *   gate silently); floors of evals that did not run (a file filter) are *not run*; floors of evals
 *   (or variants) the run's target could not run are *skipped*, with the reason (neither fails).
 * - **Ratchet** (`--update-baseline`): adds floors for new measurements and raises floors to this
 *   run's achievement less the tolerance; never lowers. Adds and tightens ceilings (never below
 *   3 × the measured p95). **Lowering** (`--lower-floor <pattern>` with `--reason`) sets the
 *   matched floors to this run's achievement less the tolerance when that is lower, loosens the
 *   matched ceilings to what this run earns, and removes matched entries the run did not measure.
 *   Every change is logged with date, commit and reason, one entry per run and action.
 *
 * Keys print as `eval|metric|slice` (a ceiling's metric is `p95 ms`); a pattern names the same with
 * `*` for any eval, metric or slice, and missing parts mean `*` (`Search (BM25)|nDCG@10` is every
 * slice of that metric).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { ConfigError, quoteInput } from "./errors.js";
import { isBaseSlice, type SliceAggregate } from "./aggregate.js";
import {
  CEILING_METRIC,
  type CeilingTolerance,
  type Ceilings,
  DEFAULT_CEILING_TOLERANCE,
  eachCeiling,
  loosenCeilings,
  tightenCeilings,
} from "./ceilings.js";
import { isObject } from "./evalite-output.js";
import { DEFAULT_PASS_MARK, type PassMarks } from "./pass-marks.js";
import { type SkippedEval, skipCovering } from "./run-info.js";

export interface Tolerance {
  absolute: number;
  perSqrtN: number;
  minSliceN: number;
}

export type Floors = Record<string, Record<string, Record<string, number>>>;

export interface FloorChange {
  key: string;
  from: number | null;
  to: number | null;
  /** This run's mean, when measured. */
  achieved: number | null;
  n: number | null;
}

/** A change of a case's recorded outcome (case-ratchet.ts). */
export interface CaseChange {
  /** `<suite>|<id>` */
  key: string;
  from: "pass" | "fail" | null;
  to: "pass" | "fail" | null;
}

/** Recorded outcomes per mode → suite → pass/fail ids. */
export type CaseRecords = Record<string, Record<string, { pass: string[]; fail: string[] }>>;

export interface LogEntry {
  date: string;
  commit: string | null;
  /** The working tree had uncommitted changes: the floors came from code beyond `commit`. */
  dirty?: boolean;
  mode: string;
  action: "raise" | "lower";
  reason: string;
  /** Floors and ceilings (keys `eval|metric|slice`, `eval|p95 ms|slice`). */
  changes: FloorChange[];
  /** Recorded case outcomes. */
  cases?: CaseChange[];
}

export const BASELINE_VERSION = 2;

export interface Baseline {
  version: typeof BASELINE_VERSION;
  tolerance: Tolerance;
  modeTolerance?: Record<string, Partial<Tolerance>>;
  passMarks: PassMarks;
  ceilingTolerance: CeilingTolerance;
  /** mode → eval → metric → slice → floor. */
  floors: Record<string, Floors>;
  /** mode → eval → base slice → ceiling (ms). */
  ceilings: Record<string, Ceilings>;
  cases: CaseRecords;
  log: LogEntry[];
}

export const DEFAULT_TOLERANCE: Tolerance = { absolute: 0.01, perSqrtN: 0.1, minSliceN: 5 };

export function emptyBaseline(): Baseline {
  return {
    version: BASELINE_VERSION,
    tolerance: { ...DEFAULT_TOLERANCE },
    passMarks: { default: DEFAULT_PASS_MARK, metrics: {} },
    ceilingTolerance: { ...DEFAULT_CEILING_TOLERANCE },
    floors: {},
    ceilings: {},
    cases: {},
    log: [],
  };
}

/**
 * Metric names a version 1 baseline used that were renamed since: the ranking evals' MRR was
 * computed over the top 10 only (trec_eval's `recip_rank` on a ranking cut at 10), and is now
 * labeled what it is. The numbers did not change, so the floors carry over.
 */
export const METRIC_RENAMES: Readonly<Record<string, string>> = { MRR: "MRR@10" };

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

// ---------------------------------------------------------------------------------------------
// Reading and writing
// ---------------------------------------------------------------------------------------------

/**
 * The baseline at `path`. A missing file is an input error — a mistyped `EVAL_BASELINE` must not
 * turn the gate off — unless `create` (`--update-baseline`, which writes it): then it starts empty.
 */
export function readBaseline(path: string, options: { create?: boolean } = {}): Baseline {
  return loadBaseline(path, options).baseline;
}

/** The baseline at `path` and the version it was upgraded from (null when it was current or new). */
export function loadBaseline(path: string, options: { create?: boolean } = {}): { baseline: Baseline; upgradedFrom: number | null } {
  if (!existsSync(path)) {
    if (options.create) return { baseline: emptyBaseline(), upgradedFrom: null };
    throw new ConfigError(
      `${path}: no such baseline file (EVAL_BASELINE names the floors file); to start one there: pnpm eval --update-baseline --reason "..."`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON (${(error as Error).message.split("\n")[0]})`);
  }
  const upgradedFrom = isObject(parsed) && parsed.version === 1 ? 1 : null;
  return { baseline: checkBaseline(parsed, path), upgradedFrom };
}

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
  const defaults = emptyBaseline();
  return {
    ...rest,
    version: BASELINE_VERSION,
    tolerance,
    ...(modeTolerance !== undefined ? { modeTolerance } : {}),
    passMarks: defaults.passMarks,
    ceilingTolerance: defaults.ceilingTolerance,
    floors,
    ceilings: {},
    cases: {},
    log,
  };
}

export function checkBaseline(input: unknown, source: string): Baseline {
  // A pointer is made of the file's keys: quoted like any input, so a huge key cannot flood the line.
  const fail = (where: string, what: string): never => {
    throw new ConfigError(`${source}: ${quoteInput(where, { bare: true })}: ${what}`);
  };
  if (!isObject(input)) return fail("top level", "must be an object");
  if (input.version !== 1 && input.version !== BASELINE_VERSION)
    fail("/version", `must be ${BASELINE_VERSION} (or 1, which is upgraded) (got ${quoteInput(input.version)})`);
  const value = input.version === 1 ? upgradeBaseline(input) : input;
  checkTolerance(value.tolerance, "/tolerance", true, fail);
  if (value.modeTolerance !== undefined) {
    if (!isObject(value.modeTolerance)) fail("/modeTolerance", "must be an object");
    for (const [mode, t] of Object.entries(value.modeTolerance as object)) checkTolerance(t, `/modeTolerance/${mode}`, false, fail);
  }
  checkNested(value.floors, "/floors", ["modes", "evals", "metrics", "slices"], fail, (floor, at) => {
    if (typeof floor !== "number" || !(floor >= 0 && floor <= 1)) fail(at, `must be a number in [0, 1] (got ${quoteInput(floor)})`);
  });
  checkPassMarks(value.passMarks, fail);
  checkCeilingTolerance(value.ceilingTolerance, fail);
  checkNested(value.ceilings, "/ceilings", ["modes", "evals", "slices"], fail, (ms, at) => {
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) fail(at, `must be a number of milliseconds > 0 (got ${quoteInput(ms)})`);
  });
  if (!isObject(value.cases)) return fail("/cases", "must be an object");
  for (const [mode, suites] of Object.entries(value.cases)) {
    if (!isObject(suites)) fail(`/cases/${mode}`, "must be an object of suites");
    for (const [suite, r] of Object.entries(suites as object)) {
      const record = r as Record<string, unknown>;
      if (!isObject(record)) fail(`/cases/${mode}/${suite}`, 'must be { "pass": [ids], "fail": [ids] }');
      for (const field of ["pass", "fail"] as const) {
        const ids = record[field];
        if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string"))
          fail(`/cases/${mode}/${suite}/${field}`, `must be an array of case ids (got ${quoteInput(ids)})`);
      }
    }
  }
  if (!Array.isArray(value.log)) fail("/log", "must be an array");
  (value.log as unknown[]).forEach((entry, i) => {
    if (!isObject(entry) || typeof entry.date !== "string" || typeof entry.reason !== "string" || !Array.isArray(entry.changes)) {
      fail(`/log/${i}`, "must have date, reason and changes");
    }
  });
  return value as unknown as Baseline;
}

/** Checks a nested object whose levels are named by `levels` (`/floors` → modes → evals → metrics → slices), and each leaf. */
function checkNested(
  value: unknown,
  at: string,
  levels: readonly string[],
  fail: (where: string, what: string) => never,
  leaf: (value: unknown, at: string) => void,
): void {
  if (!isObject(value)) {
    fail(at, `must be an object of ${levels[0]}`);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (levels.length === 1) leaf(inner, `${at}/${key}`);
    else checkNested(inner, `${at}/${key}`, levels.slice(1), fail, leaf);
  }
}

function checkPassMarks(value: unknown, fail: (where: string, what: string) => never): void {
  if (!isObject(value)) {
    fail("/passMarks", 'must be an object: { "default": 0.5, "metrics": { "<metric>": <mark> } }');
    return;
  }
  const mark = (v: unknown): boolean => typeof v === "number" && v >= 0 && v <= 1;
  if (!mark(value.default)) fail("/passMarks/default", `must be a number from 0 to 1 (got ${quoteInput(value.default)})`);
  if (!isObject(value.metrics)) fail("/passMarks/metrics", "must be an object of metric → mark");
  for (const [metric, v] of Object.entries(value.metrics as object))
    if (!mark(v)) fail(`/passMarks/metrics/${metric}`, `must be a number from 0 to 1 (got ${quoteInput(v)})`);
}

function checkCeilingTolerance(value: unknown, fail: (where: string, what: string) => never): void {
  if (!isObject(value)) {
    fail("/ceilingTolerance", "must be an object with factor and minMs");
    return;
  }
  if (typeof value.factor !== "number" || !Number.isFinite(value.factor) || value.factor < 3)
    // Issue 11's rule: a ceiling is never set below 3 × the measured p95, whatever the file says.
    fail(
      "/ceilingTolerance/factor",
      `must be a number ≥ 3: a ceiling is never below 3 × the measured p95 (got ${quoteInput(value.factor)})`,
    );
  if (typeof value.minMs !== "number" || !Number.isFinite(value.minMs) || value.minMs < 0)
    fail("/ceilingTolerance/minMs", `must be a number of milliseconds ≥ 0 (got ${quoteInput(value.minMs)})`);
}

function checkTolerance(value: unknown, where: string, required: boolean, fail: (where: string, what: string) => never): void {
  if (!isObject(value)) {
    fail(where, "must be an object with absolute, perSqrtN and minSliceN");
    return;
  }
  for (const field of ["absolute", "perSqrtN", "minSliceN"] as const) {
    const v = value[field];
    if (v === undefined && !required) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(`${where}/${field}`, "must be a number ≥ 0");
  }
}

/** Writes the file with modes, evals and slices in a stable order (base slice first), so diffs show only what changed. */
export function writeBaseline(path: string, baseline: Baseline): void {
  const sorted = <T>(o: Record<string, T>, order: (a: string, b: string) => number = (a, b) => a.localeCompare(b)): Record<string, T> =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => order(a, b)));
  const slices = (a: string, b: string): number => Number(isBaseSlice(b)) - Number(isBaseSlice(a)) || a.localeCompare(b);
  const floors = Object.fromEntries(
    Object.entries(sorted(baseline.floors)).map(([mode, evals]) => [
      mode,
      Object.fromEntries(
        Object.entries(sorted(evals)).map(([evalKey, metrics]) => [
          evalKey,
          Object.fromEntries(Object.entries(metrics).map(([metric, s]) => [metric, sorted(s, slices)])),
        ]),
      ),
    ]),
  );
  const ceilings = Object.fromEntries(
    Object.entries(sorted(baseline.ceilings)).map(([mode, evals]) => [
      mode,
      Object.fromEntries(Object.entries(sorted(evals)).map(([evalKey, s]) => [evalKey, sorted(s, slices)])),
    ]),
  );
  const ids = (list: string[]): string[] => [...list].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const cases = Object.fromEntries(
    Object.entries(sorted(baseline.cases)).map(([mode, suites]) => [
      mode,
      Object.fromEntries(Object.entries(sorted(suites)).map(([suite, r]) => [suite, { pass: ids(r.pass), fail: ids(r.fail) }])),
    ]),
  );
  const { version, tolerance, modeTolerance, passMarks, ceilingTolerance, log } = baseline;
  const file = {
    version,
    tolerance,
    ...(modeTolerance ? { modeTolerance } : {}),
    passMarks,
    ceilingTolerance,
    floors,
    ceilings,
    cases,
    log,
  };
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// The gate
// ---------------------------------------------------------------------------------------------

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
  status: "pass" | "fell" | "missing" | "not-run" | "skipped";
  /** Why a skipped floor was not checked: its eval's skip (run-info.ts). */
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
 * the reason, neither missing nor passed.
 */
export function checkFloors(
  baseline: Baseline,
  mode: string,
  aggregates: readonly SliceAggregate[],
  ranEvals: ReadonlySet<string>,
  skipped: readonly SkippedEval[] = [],
): GateResult {
  const tolerance = toleranceFor(baseline, mode);
  const measured = measurements(aggregates);
  const checks: FloorCheck[] = [];
  for (const [evalKey, metric, slice, floor] of eachFloor(baseline.floors[mode] ?? {})) {
    const key = floorKey(evalKey, metric, slice);
    const m = measured.get(key);
    const base = { key, eval: evalKey, metric, slice, floor };
    const skip = m ? undefined : skipCovering(skipped, evalKey, slice);
    if (skip) checks.push({ ...base, value: null, delta: null, n: null, status: "skipped", reason: skip.reason });
    else if (!ranEvals.has(evalKey)) checks.push({ ...base, value: null, delta: null, n: null, status: "not-run" });
    else if (!m) checks.push({ ...base, value: null, delta: null, n: null, status: "missing" });
    else checks.push({ ...base, value: m.mean, delta: m.mean - floor, n: m.n, status: m.mean < floor - 1e-9 ? "fell" : "pass" });
  }
  const unfloored = [...measured.entries()]
    .filter(([key, m]) => m.floorable(tolerance) && !hasFloor(baseline, mode, key))
    .map(([key]) => key);
  return { mode, tolerance, checks, unfloored };
}

export const gateFailures = (gate: GateResult): FloorCheck[] => gate.checks.filter((c) => c.status === "fell" || c.status === "missing");

interface Measurement {
  mean: number;
  n: number;
  floorable(t: Tolerance): boolean;
}

function measurements(aggregates: readonly SliceAggregate[]): Map<string, Measurement> {
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

function* eachFloor(floors: Floors): Generator<[string, string, string, number]> {
  for (const [evalKey, metrics] of Object.entries(floors)) {
    for (const [metric, slices] of Object.entries(metrics))
      for (const [slice, floor] of Object.entries(slices)) yield [evalKey, metric, slice, floor];
  }
}

function hasFloor(baseline: Baseline, mode: string, key: string): boolean {
  const [evalKey, metric, slice] = splitKey(key);
  return baseline.floors[mode]?.[evalKey]?.[metric]?.[slice] !== undefined;
}

function splitKey(key: string): [string, string, string] {
  // Eval names may contain "|"; metric and slice names do not.
  const parts = key.split("|");
  const slice = parts.pop()!;
  const metric = parts.pop()!;
  return [parts.join("|"), metric, slice];
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

// ---------------------------------------------------------------------------------------------
// Ratchet and lowering
// ---------------------------------------------------------------------------------------------

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
export function ratchet(baseline: Baseline, mode: string, aggregates: readonly SliceAggregate[], context: ChangeContext): FloorChange[] {
  const tolerance = toleranceFor(baseline, mode);
  const changes: FloorChange[] = [];
  for (const [key, m] of measurements(aggregates)) {
    if (!m.floorable(tolerance)) continue;
    const [evalKey, metric, slice] = splitKey(key);
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
