/**
 * The committed baseline of the gate, as a file: `evals/baseline.json` (or `EVAL_BASELINE`) —
 * per-metric floors that only rise (floors.ts checks a run against them, ratchet.ts moves them),
 * latency ceilings that only tighten (ceilings.ts), which cases passed (case-ratchet.ts), the pass
 * marks of case outcomes (pass-marks.ts) and the log of every change.
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
 * Its JSON Schema is `baseline.schema.json` beside the report's (baseline-schema.ts checks a file
 * against it: one line naming the file and the field); an older version is read as the current one
 * (baseline-migration.ts). **Mode** keys floors, ceilings and cases: `offline`, or the model
 * configuration's name, with `@<dataset>` appended when the run measured another dataset than the
 * fixtures (floors.ts, `floorMode`). Reading and writing are this module's only I/O.
 *
 * Writing is atomic (a temp file beside it, renamed over it: a reader sees the old file or the new
 * one, never half of one), and a run that changes the baseline does so under a lock
 * (`withBaselineLock`): it reads the file as it is then, applies its own changes and writes, while
 * any other run doing the same waits. Two `--update-baseline` runs at once both land.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { isBaseSlice } from "./aggregate.js";
import { baselineProblem } from "./baseline-schema.js";
import { BASELINE_VERSION, migrateBaseline, olderVersion } from "./baseline-migration.js";
import { type CeilingTolerance, type Ceilings, DEFAULT_CEILING_TOLERANCE } from "./ceilings.js";
import { ConfigError, quoteInput } from "./errors.js";
import { defaultPassMarks, type PassMarks } from "./pass-marks.js";

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
    passMarks: defaultPassMarks(),
    ceilingTolerance: { ...DEFAULT_CEILING_TOLERANCE },
    floors: {},
    ceilings: {},
    cases: {},
    log: [],
  };
}

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
  return { baseline: checkBaseline(parsed, path), upgradedFrom: olderVersion(parsed) };
}

/** `input` as a current baseline (an older version upgraded), or a ConfigError naming `source` and the field. */
export function checkBaseline(input: unknown, source: string): Baseline {
  const value = migrateBaseline(input);
  const problem = baselineProblem(value);
  // A pointer is made of the file's keys: quoted like any input, so a huge key cannot flood the line.
  if (problem) throw new ConfigError(`${source}: ${quoteInput(problem.where, { bare: true })}: ${problem.what}`);
  return value as Baseline;
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
  writeAtomically(path, `${JSON.stringify(file, null, 2)}\n`);
}

/** `text` written to `path` through a temp file beside it, flushed and renamed over it. */
export function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, "w");
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new ConfigError(`${path}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** What a lock file says of its holder. */
interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/** How long a run waits for another run's lock on the baseline before giving up, by default. */
export const BASELINE_LOCK_WAIT_MS = 120_000;

/**
 * Runs `fn` holding the lock on the baseline at `path` (`<path>.lock`, created exclusively, naming
 * this process): `fn` reads the file, changes it and writes it while no other run can. A lock whose
 * process is gone (same host) is taken over; a lock still held after `waitMs` is a ConfigError
 * naming its holder. The lock is released however `fn` ends.
 */
export async function withBaselineLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  options: { waitMs?: number; pollMs?: number } = {},
): Promise<T> {
  const lock = `${path}.lock`;
  const waitMs = options.waitMs ?? BASELINE_LOCK_WAIT_MS;
  const started = Date.now();
  for (;;) {
    const holder = tryLock(lock);
    if (holder === null) break;
    if (Date.now() - started >= waitMs)
      throw new ConfigError(
        `${path}: another run (process ${holder.pid} on ${holder.host}, since ${holder.since}) is still updating it after ${Math.round(waitMs / 1000)} s; wait for it to finish, or remove ${lock} if that process is gone`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes the lock (null), or says who holds it; a holder that died on this host loses it. */
function tryLock(lock: string): LockHolder | null {
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  try {
    writeFileSync(lock, JSON.stringify(me), { flag: "wx" });
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST")
      throw new ConfigError(`${lock}: cannot be created (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(lock, "utf8")) as LockHolder;
  } catch {
    // Being written by its holder this very moment, or left empty by one that died as it wrote: old enough, it is stale.
    const age = Date.now() - (statSafe(lock) ?? Date.now());
    if (age > 5_000) rmSync(lock, { force: true });
    return { pid: 0, host: "?", since: "just now" };
  }
  if (holder.host === hostname() && !alive(holder.pid)) {
    rmSync(lock, { force: true });
    return tryLock(lock);
  }
  return holder;
}

function statSafe(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Whether a process of this host is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
