/**
 * The case-level ratchet, beside the per-metric floors: the baseline records, per mode and suite,
 * which verdict units (verdicts.ts) passed and which failed —
 * `cases: { "<mode>": { "<suite>": { "pass": [ids], "fail": [ids] } } }`. Against it every unit
 * of a run is:
 *
 * | status          | before   | now       | fails the run |
 * | --------------- | -------- | --------- | ------------- |
 * | `pass`          | pass     | pass      | no            |
 * | `regression`    | pass     | fail/error | **yes**      |
 * | `known-failure` | fail     | fail/error | no (reported) |
 * | `fixed`         | fail     | pass      | no (reported; `--update-baseline` records it) |
 * | `new-pass`      | none     | pass      | no            |
 * | `new-failure`   | none     | fail/error | no (reported; `--update-baseline` records it as failing) |
 *
 * Recorded units of a suite that ran but did not measure them (a case removed from the fixtures)
 * are `gone`: reported, removed by `--update-baseline`. Suites a filtered run did not run are left
 * alone. `--update-baseline` records passes and new failures but never turns a recorded pass into
 * a failure: a regression keeps failing the run until it is fixed or accepted with
 * `--accept-failure <suite|id> --reason "…"` (logged with the run's other changes, ratchet.ts). Pure,
 * but for the baseline object it updates.
 */
import type { Baseline, CaseChange } from "./baseline.js";
import { ConfigError, quoteInput } from "./errors.js";
import type { VerdictUnit } from "./verdicts.js";

export type CaseStatus = "pass" | "regression" | "known-failure" | "fixed" | "new-pass" | "new-failure";

export interface CaseCheck {
  /** Each unit's status, by key. */
  statuses: Record<string, CaseStatus>;
  /** Recorded units of suites that ran, which this run did not measure. */
  gone: string[];
  /** Whether the mode has any recorded case at all (else every unit is new). */
  recorded: boolean;
}

const failing = (u: Pick<VerdictUnit, "outcome">): boolean => u.outcome !== "pass";

function recordedOutcome(baseline: Baseline, mode: string, suite: string, id: string): "pass" | "fail" | null {
  const r = baseline.cases[mode]?.[suite];
  if (!r) return null;
  return r.pass.includes(id) ? "pass" : r.fail.includes(id) ? "fail" : null;
}

export function caseStatus(before: "pass" | "fail" | null, unit: Pick<VerdictUnit, "outcome">): CaseStatus {
  if (before === null) return failing(unit) ? "new-failure" : "new-pass";
  if (before === "pass") return failing(unit) ? "regression" : "pass";
  return failing(unit) ? "known-failure" : "fixed";
}

/** Every unit of the run against the recorded outcomes of `mode`; `ranSuites` are the suites the run measured. */
export function checkCases(baseline: Baseline, mode: string, units: readonly VerdictUnit[], ranSuites: ReadonlySet<string>): CaseCheck {
  const statuses: Record<string, CaseStatus> = {};
  for (const u of units) statuses[u.key] = caseStatus(recordedOutcome(baseline, mode, u.suite, u.id), u);
  const measured = new Set(units.map((u) => u.key));
  const gone: string[] = [];
  for (const [suite, r] of Object.entries(baseline.cases[mode] ?? {})) {
    if (!ranSuites.has(suite)) continue;
    for (const id of [...r.pass, ...r.fail]) if (!measured.has(`${suite}|${id}`)) gone.push(`${suite}|${id}`);
  }
  return { statuses, gone, recorded: Object.keys(baseline.cases[mode] ?? {}).length > 0 };
}

export const regressions = (check: CaseCheck): string[] =>
  Object.entries(check.statuses)
    .filter(([, s]) => s === "regression")
    .map(([key]) => key);

function setRecord(baseline: Baseline, mode: string, suite: string, id: string, to: "pass" | "fail" | null): void {
  const modeCases = (baseline.cases[mode] ??= {});
  const r = (modeCases[suite] ??= { pass: [], fail: [] });
  r.pass = r.pass.filter((x) => x !== id);
  r.fail = r.fail.filter((x) => x !== id);
  if (to !== null) r[to].push(id);
  if (r.pass.length === 0 && r.fail.length === 0) delete modeCases[suite];
  if (Object.keys(modeCases).length === 0) delete baseline.cases[mode];
}

/**
 * `--update-baseline`: records what this run measured — passes (a fixed case included) and new
 * failures — and removes recorded units of suites that ran but no longer measure them. A recorded
 * pass that fails now stays recorded as a pass. Returns the changes.
 */
export function recordCases(baseline: Baseline, mode: string, units: readonly VerdictUnit[], ranSuites: ReadonlySet<string>): CaseChange[] {
  const changes: CaseChange[] = [];
  const check = checkCases(baseline, mode, units, ranSuites);
  for (const u of units) {
    const from = recordedOutcome(baseline, mode, u.suite, u.id);
    const to = failing(u) ? (from === "pass" ? "pass" : "fail") : "pass";
    if (from === to) continue;
    setRecord(baseline, mode, u.suite, u.id, to);
    changes.push({ key: u.key, from, to });
  }
  for (const key of check.gone) {
    const [suite, id] = splitUnitKey(key);
    changes.push({ key, from: recordedOutcome(baseline, mode, suite, id), to: null });
    setRecord(baseline, mode, suite, id, null);
  }
  return changes;
}

/**
 * `--accept-failure <pattern>`: records the matched units that fail in this run as failing (a
 * regression accepted). A pattern is `<suite>|<id>`, `*` for any suite or id (`<suite>` alone is
 * every case of it). One that matches no failing unit of this run is a ConfigError.
 */
export function acceptFailures(baseline: Baseline, mode: string, patterns: readonly string[], units: readonly VerdictUnit[]): CaseChange[] {
  const changes: CaseChange[] = [];
  for (const pattern of patterns) {
    const [suite, id = "*"] = splitUnitKey(pattern.includes("|") ? pattern : `${pattern}|*`);
    const matched = units.filter((u) => (suite === "*" || u.suite === suite) && (id === "*" || u.id === id));
    if (matched.length === 0)
      throw new ConfigError(
        `--accept-failure ${quoteInput(pattern)}: this run measured no such case (keys are <suite>|<id>; * matches any)`,
      );
    const failingNow = matched.filter(failing);
    if (failingNow.length === 0) throw new ConfigError(`--accept-failure ${quoteInput(pattern)}: every matched case passes in this run`);
    for (const u of failingNow) {
      const from = recordedOutcome(baseline, mode, u.suite, u.id);
      if (from === "fail") continue;
      setRecord(baseline, mode, u.suite, u.id, "fail");
      changes.push({ key: u.key, from, to: "fail" });
    }
  }
  return changes;
}

/** `<suite>|<id>`: suite names may contain "|", ids do not. */
export function splitUnitKey(key: string): [string, string] {
  const at = key.lastIndexOf("|");
  return [key.slice(0, at), key.slice(at + 1)];
}
