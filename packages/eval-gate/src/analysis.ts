/**
 * What a run measured, computed once from Evalite's output: its suites, every case's outcome, the
 * verdict units, the aggregates per eval and slice, and the faults — cases the target or a model
 * failed to answer (score-status.ts). With what vitest knew of the run beyond Evalite's results
 * (`EvaliteVerdict`), this is everything the gate judges (judge-run.ts). Pure.
 */
import type { Evalite } from "evalite";
import { aggregate, type CaseOutcome, caseOutcomes, type SliceAggregate } from "./aggregate.js";
import { type CaseRecord, caseRecords, type SuiteRecord, suiteRecord } from "./evalite-output.js";
import { defaultPassMarks, type PassMarks } from "./pass-marks.js";
import { isFault } from "./score-status.js";
import { type VerdictUnit, verdictUnits } from "./verdicts.js";

/**
 * What vitest knew of the run that Evalite's storage does not show: tests that failed (a task threw
 * or timed out; those are also failed rows) and eval files that did not load (no suite at all).
 */
export interface EvaliteVerdict {
  failedTests: number;
  /** Eval files that failed to load, relative to the root. */
  unloadedFiles: string[];
}

/** Evalite's exit status without a threshold: 1 when an eval failed or an eval file did not load (what its reporter counts). */
export const evaliteStatus = (verdict: EvaliteVerdict): 0 | 1 => (verdict.failedTests > 0 || verdict.unloadedFiles.length > 0 ? 1 : 0);

/** A case the target or a model failed to answer: a trial's task threw, or a score says `failed` (score-status.ts). */
export interface Fault {
  /** The key (`suite|id`) of the verdict unit the case belongs to (verdicts.ts). */
  unit: string;
  suite: string;
  id: string;
  /** Why, once per thrown trial and per failed score: the error it names, else `<metric> <status>`. */
  errors: string[];
}

/** The run's cases, verdict units and aggregates, computed once from Evalite's output. */
export interface RunAnalysis {
  suites: SuiteRecord[];
  cases: CaseOutcome[];
  /** One per retrieval case and per question at a preset (verdicts.ts). */
  units: VerdictUnit[];
  aggregates: SliceAggregate[];
  /** Evals (floor keys) this run measured. */
  ranEvals: Set<string>;
  /** The pass marks the case outcomes were decided with. */
  passMarks: PassMarks;
  /** The cases the target or a model failed to answer, in case order. */
  faults: Fault[];
  /** Every case with its trials' scores, as read from Evalite's output (judge stability reads each trial's method). */
  records: CaseRecord[];
}

/** `expectedMetrics`: an eval's floored metrics, so a case whose task threw counts on them even when no case of its suite scored. */
export function analyzeRun(
  output: Evalite.Exported.Output,
  expectedMetrics: (evalKey: string) => readonly string[],
  passMarks: PassMarks = defaultPassMarks(),
): RunAnalysis {
  const suites = output.suites.map((s) => ({ suite: s, record: suiteRecord(s) }));
  const records = suites.flatMap(({ suite, record }) => caseRecords(suite, record));
  const cases = caseOutcomes(records, expectedMetrics, passMarks);
  const suiteRecords = suites.map(({ record }) => record);
  const sourceOf = new Map(suiteRecords.map((record) => [record.name, record.latencySource]));
  const units = verdictUnits(cases, suiteRecords);
  return {
    suites: suiteRecords,
    cases,
    units,
    aggregates: aggregate(cases, (suite) => sourceOf.get(suite) ?? "duration"),
    ranEvals: new Set(suiteRecords.map((record) => record.eval)),
    passMarks,
    // caseOutcomes keeps the records' order, and verdictUnits has set each case's unit.
    faults: records.flatMap((record, i) => faultOf(record, cases[i]!)),
    records,
  };
}

function faultOf(record: CaseRecord, outcome: CaseOutcome): Fault[] {
  const errors: string[] = [];
  for (const trial of record.trials) {
    if (trial.status === "error") errors.push(`the task threw: ${trial.error ?? "no error named"}`);
    else for (const s of trial.scores) if (isFault(s.status)) errors.push(s.error ?? `${s.metric} ${s.status}`);
  }
  return errors.length === 0
    ? []
    : [{ unit: outcome.verdict ?? `${record.suite}|${record.id}`, suite: record.suite, id: record.id, errors }];
}

/** Every metric name the run measured: what a pass mark may name (with the baseline's floored metrics). */
export function measuredMetrics(analysis: Pick<RunAnalysis, "aggregates">): Set<string> {
  return new Set(analysis.aggregates.flatMap((a) => a.metrics.map((m) => m.metric)));
}

/** Per suite: its cases, how many of its scores were scored, and why the others were not. */
export function scoringBySuite(
  cases: readonly CaseOutcome[],
): Map<string, { cases: number; scored: number; notScored: Record<string, number> }> {
  const bySuite = new Map<string, { cases: number; scored: number; notScored: Record<string, number> }>();
  for (const c of cases) {
    const s = bySuite.get(c.suite) ?? { cases: 0, scored: 0, notScored: {} };
    s.cases++;
    for (const m of c.metrics) {
      const notScored = Object.values(m.notScored ?? {}).reduce((a, b) => a + b, 0);
      s.scored += c.trials - notScored;
      for (const [reason, n] of Object.entries(m.notScored ?? {})) s.notScored[reason] = (s.notScored[reason] ?? 0) + n;
    }
    bySuite.set(c.suite, s);
  }
  return bySuite;
}
