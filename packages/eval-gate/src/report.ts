/**
 * The run report (`reports/<timestamp>.json`, schema `packages/eval-gate/report.schema.json`): what ran, in
 * which context (commit, mode and model ids, index fingerprint, fixtures), against which
 * thresholds and floors, every aggregate, every case's outcome with its reasons, and the status the
 * run exits with. `buildReport` is pure: bin/eval.ts gathers the inputs.
 */
import { aggregate, caseOutcomes, CASE_PASS_MARK, isBaseSlice, type CaseOutcome, type Outcome, type SliceAggregate } from "./aggregate.js";
import { floorKey, gateFailures, type FloorChange, type FloorCheck, type GateResult, type Tolerance } from "./baseline.js";
import { caseRecords, evaliteMean, suiteRecord, type EvaliteOutput, type SuiteRecord } from "./evalite-output.js";
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

/** What global setup wrote to EVAL_RUN_INFO_FILE (helpers/global-setup.ts). */
export interface RunInfo {
  fingerprint: Record<string, unknown> & { corpusHash?: string; analyzer?: string; embedder?: string; dataset?: string };
  mode: string;
  models: Record<string, string | null>;
  engineOptions: Record<string, unknown>;
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
  evaliteStatus: number;
  evaliteThreshold: EvaliteThreshold;
  output: EvaliteOutput;
  analysis: RunAnalysis;
  baselinePath: string;
  gate: GateResult;
  /** What this run changed in the baseline (--update-baseline, --lower-floor). */
  changes: FloorChange[];
}

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
  evalite: { exitStatus: number; mean: number | null; scores: number; thresholdMet: boolean | null; failedSuites: string[] };
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
export function analyzeRun(output: EvaliteOutput, expectedMetrics: (evalKey: string) => readonly string[]): RunAnalysis {
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

/** The run's judge mode, from the `method` in the metadata of every scored triad score. */
export function judgeMode(output: EvaliteOutput): JudgeModeSummary {
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

  const statusReasons: string[] = [];
  if (input.evaliteStatus !== 0) {
    statusReasons.push(
      failedSuites.length > 0
        ? `${failedSuites.length} eval(s) failed: ${failedSuites.join(", ")}`
        : `Evalite exited ${input.evaliteStatus} with no failed eval in its results (an eval file that failed to load?)`,
    );
  }
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
    evalite: { exitStatus: input.evaliteStatus, mean, scores, thresholdMet, failedSuites },
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

export const pct = (x: number | null): string => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);
