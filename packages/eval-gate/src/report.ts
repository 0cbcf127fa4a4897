/**
 * The run report (`reports/<timestamp>.json`, schema `packages/eval-gate/report.schema.json`): what ran, in
 * which context (commit, mode and model ids, index fingerprint, fixtures), against which
 * thresholds and floors, every aggregate, every case's outcome with its reasons, and the status the
 * run exits with. `buildReport` is pure: bin/eval.ts gathers the inputs.
 */
import { aggregate, caseOutcomes, CASE_PASS_MARK, isBaseSlice, type CaseOutcome, type Outcome, type SliceAggregate } from "./aggregate.js";
import { floorKey, gateFailures, type FloorChange, type FloorCheck, type GateResult, type Tolerance } from "./baseline.js";
import type { Evalite } from "evalite";
import { caseRecords, evaliteMean, suiteRecord, type SuiteRecord } from "./evalite-output.js";
import type { RunInfo } from "./run-info.js";
import { percentile } from "./stats.js";

export const REPORT_SCHEMA_VERSION = 1;

export interface FixtureInfo {
  dataset: string;
  kind: "fixtures" | "beir";
  /** The fixture files' `version` field (fixtures), or null. */
  version: number | null;
  /** sha256 over the dataset's query and judgment files. */
  hash: string;
  queries: number;
  judgedQueries: number;
  askCases: number | null;
}

export interface EvaliteThreshold {
  /** Percent, as Evalite takes it; null when none is configured. */
  threshold: number | null;
  source: "evalite.config.ts" | "--threshold" | "none";
  /** True only when given on the command line: then a mean below it fails the run. */
  binding: boolean;
}

export interface ReportInput {
  startedAt: Date;
  finishedAt: Date;
  git: { commit: string | null; dirty: boolean | null };
  args: string[];
  runInfo: RunInfo;
  floorMode: string;
  fixtures: FixtureInfo;
  /** What Evalite's test run said beyond its stored results. */
  evalite: EvaliteVerdict;
  evaliteThreshold: EvaliteThreshold;
  /** This run's results, as Evalite exports them. */
  output: Evalite.Exported.Output;
  analysis: RunAnalysis;
  baselinePath: string;
  gate: GateResult;
  /** What this run changed in the baseline (--update-baseline, --lower-floor). */
  changes: FloorChange[];
}

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

/** The run's cases and aggregates, computed once from Evalite's output. */
export interface RunAnalysis {
  suites: SuiteRecord[];
  cases: CaseOutcome[];
  aggregates: SliceAggregate[];
  /** Evals (floor keys) this run measured. */
  ranEvals: Set<string>;
}

export interface ReportAggregate extends SliceAggregate {
  metrics: Array<SliceAggregate["metrics"][number] & { floor: number | null }>;
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  status: "pass" | "fail";
  exitStatus: 0 | 1;
  /** Why the run did not pass (empty when it passed). */
  statusReasons: string[];
  git: { commit: string | null; dirty: boolean | null };
  args: string[];
  mode: string;
  floorMode: string;
  models: Record<string, string | null>;
  fingerprint: RunInfo["fingerprint"];
  engineOptions: Record<string, unknown>;
  fixtures: FixtureInfo & { documents: number | null; passages: number | null };
  thresholds: { casePassMark: number; evalite: EvaliteThreshold; tolerance: Tolerance };
  evalite: { exitStatus: 0 | 1; mean: number | null; scores: number; thresholdMet: boolean | null; failedSuites: string[] };
  /** How the LLM-judged metrics were scored in this run: by the judge, by the heuristic, or both (fallbacks counted). */
  judge: JudgeModeSummary;
  gate: {
    baseline: string;
    status: "pass" | "fail";
    checked: number;
    fell: number;
    missing: number;
    notRun: number;
    failures: FloorCheck[];
    checks: FloorCheck[];
    unfloored: string[];
    changes: FloorChange[];
  };
  summary: {
    evals: number;
    suites: number;
    cases: number;
    passed: number;
    failed: number;
    errored: number;
    passRate: number;
    scores: number;
    notScored: number;
    p50LatencyMs: number | null;
    p95LatencyMs: number | null;
  };
  evals: Array<{ eval: string; suites: Array<Omit<SuiteRecord, "eval"> & { cases: number }> }>;
  aggregates: ReportAggregate[];
  cases: CaseOutcome[];
  variance: { maxTrials: number; flipped: Array<Pick<CaseOutcome, "suite" | "id" | "label"> & { trialOutcomes: Outcome[] }> } | null;
}

/** `expectedMetrics`: an eval's floored metrics, so a case whose task threw counts on them even when no case of its suite scored. */
export function analyzeRun(output: Evalite.Exported.Output, expectedMetrics: (evalKey: string) => readonly string[]): RunAnalysis {
  const suites = output.suites.map((s) => ({ suite: s, record: suiteRecord(s) }));
  const cases = caseOutcomes(
    suites.flatMap(({ suite, record }) => caseRecords(suite, record)),
    expectedMetrics,
  );
  const sourceOf = new Map(suites.map(({ record }) => [record.name, record.latencySource]));
  return {
    suites: suites.map(({ record }) => record),
    cases,
    aggregates: aggregate(cases, (suite) => sourceOf.get(suite) ?? "duration"),
    ranEvals: new Set(suites.map(({ record }) => record.eval)),
  };
}

export interface JudgeModeSummary {
  mode: "heuristic" | "llm-judge" | "mixed" | "none";
  llmJudge: number;
  heuristic: number;
  /** Heuristic scores standing in for a judge that failed twice. */
  fallbacks: number;
}

/**
 * The run's judge mode, from the `method` in the metadata of every scored triad score: the one
 * place a run's mode is computed (the scorers label each score; the evals keep no tally).
 */
export function judgeMode(output: Evalite.Exported.Output): JudgeModeSummary {
  const summary: JudgeModeSummary = { mode: "none", llmJudge: 0, heuristic: 0, fallbacks: 0 };
  for (const suite of output.suites) {
    for (const row of suite.evals) {
      for (const score of row.scores) {
        const m = (score.metadata ?? {}) as { method?: unknown; status?: unknown; grader?: unknown; fallbackFrom?: unknown };
        if (!TRIAD_GRADERS.has(String(m.grader)) || m.status !== "scored") continue;
        if (m.method === "llm-judge") summary.llmJudge++;
        else if (m.method === "heuristic") {
          summary.heuristic++;
          if (m.fallbackFrom === "llm-judge") summary.fallbacks++;
        }
      }
    }
  }
  summary.mode =
    summary.llmJudge > 0 && summary.heuristic > 0
      ? "mixed"
      : summary.llmJudge > 0
        ? "llm-judge"
        : summary.heuristic > 0
          ? "heuristic"
          : "none";
  return summary;
}

const TRIAD_GRADERS = new Set(["context-relevance", "faithfulness", "answer-relevance"]);

export function buildReport(input: ReportInput): Report {
  const { suites, cases, aggregates, ranEvals } = input.analysis;
  const { gate, changes } = input;
  const failures = gateFailures(gate);
  const floorOf = new Map(gate.checks.map((c) => [c.key, c.floor]));

  const { mean, scores } = evaliteMean(input.output);
  const threshold = input.evaliteThreshold.threshold;
  const thresholdMet = threshold === null || mean === null ? null : mean * 100 >= threshold;
  const failedSuites = suites.filter((s) => s.status !== "success").map((s) => s.name);

  const exitStatusOfEvalite = evaliteStatus(input.evalite);
  const { failedTests, unloadedFiles } = input.evalite;
  const statusReasons: string[] = [];
  if (exitStatusOfEvalite !== 0) {
    if (failedSuites.length > 0) statusReasons.push(`${failedSuites.length} eval(s) failed: ${failedSuites.join(", ")}`);
    if (unloadedFiles.length > 0) statusReasons.push(`${unloadedFiles.length} eval file(s) did not load: ${unloadedFiles.join(", ")}`);
    if (failedSuites.length === 0 && unloadedFiles.length === 0)
      statusReasons.push(`${failedTests} test(s) failed with no failed eval in Evalite's results`);
  }
  statusReasons.push(...nothingScored(cases));
  if (failures.length > 0) statusReasons.push(`${failures.length} floor(s) fell or went missing`);
  if (input.evaliteThreshold.binding && thresholdMet === false)
    statusReasons.push(`Evalite's mean ${pct(mean)} is below --threshold ${threshold} %`);
  const exitStatus = statusReasons.length > 0 ? 1 : 0;

  const latencies = cases.map((c) => c.latencyMs).filter((x): x is number => x !== null);
  const passed = cases.filter((c) => c.outcome === "pass").length;
  const flipped = cases.filter((c) => c.flipped);
  const maxTrials = Math.max(0, ...cases.map((c) => c.trials));
  const documents = input.runInfo.fingerprint.documents;
  const passages = input.runInfo.fingerprint.passages;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    status: exitStatus === 0 ? "pass" : "fail",
    exitStatus,
    statusReasons,
    git: input.git,
    args: input.args,
    mode: input.runInfo.mode,
    judge: judgeMode(input.output),
    floorMode: input.floorMode,
    models: input.runInfo.models,
    fingerprint: input.runInfo.fingerprint,
    engineOptions: input.runInfo.engineOptions,
    fixtures: {
      ...input.fixtures,
      documents: typeof documents === "number" ? documents : null,
      passages: typeof passages === "number" ? passages : null,
    },
    thresholds: { casePassMark: CASE_PASS_MARK, evalite: input.evaliteThreshold, tolerance: gate.tolerance },
    evalite: { exitStatus: exitStatusOfEvalite, mean, scores, thresholdMet, failedSuites },
    gate: {
      baseline: input.baselinePath,
      status: failures.length > 0 ? "fail" : "pass",
      checked: gate.checks.filter((c) => c.status !== "not-run").length,
      fell: gate.checks.filter((c) => c.status === "fell").length,
      missing: gate.checks.filter((c) => c.status === "missing").length,
      notRun: gate.checks.filter((c) => c.status === "not-run").length,
      // Whole evals and variants first, then their language and category slices; largest drops first.
      failures: [...failures].sort(
        (a, b) => Number(isBaseSlice(b.slice)) - Number(isBaseSlice(a.slice)) || (a.delta ?? -1) - (b.delta ?? -1),
      ),
      checks: gate.checks,
      unfloored: gate.unfloored,
      changes,
    },
    summary: {
      evals: ranEvals.size,
      suites: suites.length,
      cases: cases.length,
      passed,
      failed: cases.filter((c) => c.outcome === "fail").length,
      errored: cases.filter((c) => c.outcome === "error").length,
      passRate: cases.length > 0 ? passed / cases.length : 0,
      scores: cases.reduce((n, c) => n + c.metrics.length * c.trials, 0),
      notScored: cases.reduce(
        (n, c) => n + c.metrics.reduce((k, m) => k + Object.values(m.notScored ?? {}).reduce((a, b) => a + b, 0), 0),
        0,
      ),
      p50LatencyMs: latencies.length > 0 ? percentile(latencies, 50) : null,
      p95LatencyMs: latencies.length > 0 ? percentile(latencies, 95) : null,
    },
    evals: [...ranEvals].map((evalKey) => ({
      eval: evalKey,
      suites: suites
        .filter((s) => s.eval === evalKey)
        .map(({ eval: _, ...s }) => ({ ...s, cases: cases.filter((c) => c.suite === s.name).length })),
    })),
    aggregates: aggregates.map((a) => ({
      ...a,
      metrics: a.metrics.map((m) => ({ ...m, floor: floorOf.get(floorKey(a.eval, m.metric, a.slice)) ?? null })),
    })),
    cases,
    variance:
      maxTrials > 1
        ? { maxTrials, flipped: flipped.map((c) => ({ suite: c.suite, id: c.id, label: c.label, trialOutcomes: c.trialOutcomes! })) }
        : null,
  };
}

/**
 * No silent pass: a run that could score nothing, or an eval (suite) none of whose cases could be
 * scored — every model call failed, every task threw — measured nothing there, whatever the floors
 * say (a mode without floors would otherwise pass it). One reason each, naming the suites and why
 * their scores were not scored.
 */
export function nothingScored(cases: readonly CaseOutcome[]): string[] {
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
  const why = (counts: Record<string, number>): string =>
    Object.keys(counts).length === 0
      ? "no scores at all"
      : `not scored: ${Object.entries(counts)
          .map(([reason, n]) => `${reason} ${n}`)
          .join(", ")}`;
  const suites = [...bySuite];
  if (suites.every(([, s]) => s.scored === 0)) {
    const total: Record<string, number> = {};
    for (const [, s] of suites) for (const [reason, n] of Object.entries(s.notScored)) total[reason] = (total[reason] ?? 0) + n;
    return [
      cases.length === 0
        ? "nothing was scored: the run recorded no case"
        : `nothing could be scored: ${cases.length} case(s), ${why(total)}`,
    ];
  }
  const none = suites.filter(([, s]) => s.scored === 0);
  return none.length === 0
    ? []
    : [
        `${none.length} eval(s) could score no case: ${none.map(([suite, s]) => `${suite} (${s.cases} case(s), ${why(s.notScored)})`).join("; ")}`,
      ];
}

export const pct = (x: number | null): string => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);
