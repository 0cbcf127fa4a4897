/**
 * The run report (`reports/<timestamp>.json`, schema `packages/eval-gate/report.schema.json`): what ran, in
 * which context (commit, mode and model ids, index fingerprint, fixtures), against which
 * thresholds, floors, ceilings and recorded cases, every aggregate, every case's measurements, one
 * verdict per verdict unit (a retrieval case, or a question at a preset) with its ratchet status,
 * its failed expectations and diagnosis, the golden-set warnings, and the status the run exits
 * with. `buildReport` is pure and decides nothing: it records the verdict judge-run.ts reached.
 */
import { relative } from "node:path";
import type { Evalite } from "evalite";
import { type CaseOutcome, isBaseSlice, type Outcome, type SliceAggregate } from "./aggregate.js";
import { type EvaliteVerdict, evaliteStatus, type RunAnalysis } from "./analysis.js";
import type { CaseChange, FloorChange, Tolerance } from "./baseline.js";
import type { CaseCheck, CaseStatus } from "./case-ratchet.js";
import { ceilingFailures, type CeilingCheck, type CeilingTolerance } from "./ceilings.js";
import { evaliteMean, type SuiteRecord } from "./evalite-output.js";
import { floorKey, type FloorCheck, gateFailures, type GateResult } from "./floors.js";
import type { PassMarks } from "./pass-marks.js";
import type { RunInfo, SkippedEval } from "./run-info.js";
import { percentile } from "./stats.js";
import { type TargetCalls, targetCalls } from "./target-calls.js";
import type { VerdictUnit } from "./verdicts.js";
import type { JudgeStability } from "./judge-stability.js";
import type { JudgedMetricTrust } from "./judge-trust.js";
import type { UsageSummary } from "./usage.js";
import type { DraftsSummary } from "./drafts.js";

export const REPORT_SCHEMA_VERSION = 2;

export interface FixtureInfo {
  dataset: string;
  /** The name of the dataset's format, as the suite's table of formats names it (`fixtures` is the suite's own). */
  kind: string;
  /** The dataset's own `version` (the fixture files', a golden Q&A set's), or null when it states none. */
  version: number | string | null;
  /** sha256 over the dataset's query and judgment files. */
  hash: string;
  queries: number;
  judgedQueries: number;
  askCases: number | null;
  /** Fields of the dataset its reader could not map, with how many records had them and why (absent: none). */
  unmapped?: Array<{ file: string; field: string; records: number; why: string }>;
  /** What the dataset's reader warned about (a short refusal marker); absent: nothing. */
  warnings?: string[];
  /**
   * Present when some query lists a relevant set that differs from its documents judged ≥ 1 (a
   * fixtures layout's relevantDocs): how many such queries, and metric → the source field it
   * counted (`Recall@k` → `relevantDocs`, `nDCG@k` → `judgments`).
   */
  relevance?: { queries: number; metrics: Record<string, string> };
  /** The dataset's own gate (a golden Q&A set's thresholds) and how this run held it; absent: none. */
  gate?: DatasetGateResult;
}

/** A dataset's own thresholds, held on the answer eval's questions with that format's semantics. */
export interface DatasetGateResult {
  minPassRate: number | null;
  maxP95LatencyMs: number | null;
  /** Where the settings were read. */
  source: string;
  /** One check per answer suite (one per preset with models), or none when no question was measured. */
  checks: Array<{
    suite: string;
    questions: number;
    passed: number;
    passRate: number;
    p95LatencyMs: number | null;
    passRateOk: boolean | null;
    latencyOk: boolean | null;
  }>;
  pass: boolean;
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
  /** The drafted cases, measured apart and never gated (drafts.ts); null when the run had none. */
  drafts?: DraftsSummary | null;
  baselinePath: string;
  gate: GateResult;
  /** The latency ceilings of the run's mode against this run (ceilings.ts). */
  ceilings: CeilingCheck[];
  ceilingTolerance: CeilingTolerance;
  /** This run's verdict units against the recorded cases (case-ratchet.ts). */
  cases: CaseCheck;
  /** What this run changed in the baseline (--update-baseline, --lower-floor, --accept-failure). */
  changes: FloorChange[];
  caseChanges: CaseChange[];
  /** The file filter the run was given; null for a full run. */
  filter: string | null;
  /** The evals (or variants) the run's target could not run, with why (run-info.ts). */
  skipped: SkippedEval[];
  /** The repository root: eval files are reported relative to it. */
  root: string;
  /** The run's verdict (judge-run.ts): recorded, not decided, here. */
  verdict: RunVerdict;
  /** The graders a judge grades when one is configured: the suite names them (`judgeMode`). */
  judgedGraders: ReadonlySet<string>;
  /** The judged metrics' self-consistency over trials (judge-stability.ts); null with one trial. */
  stability?: JudgeStability | null;
  /** The run's model calls: tokens, cache hits, cost per role and model (usage.ts). */
  usage?: UsageSummary | null;
  /** The judge lines (κ against human labels, or never measured) of the methods the run used. */
  judgeLines?: (used: JudgeModeSummary) => string[];
  /** Which judged metrics gate and why (judge-trust.ts). */
  trust?: readonly JudgedMetricTrust[];
}

/** Whether the run passed, its exit status, and why it did not pass (empty when it passed). */
export interface RunVerdict {
  /**
   * `pass`: something held a bar (a floor, a latency ceiling, a recorded case, a threshold) and
   * nothing failed; `fail`: some rule failed; `not-gated`: nothing failed, and nothing held a bar
   * either — never called a pass (exit 0, or 1 with `--require-gate`).
   */
  status: "pass" | "fail" | "not-gated";
  exitStatus: 0 | 1;
  statusReasons: string[];
}

/** A verdict unit with its standing against the recorded cases. */
export interface ReportVerdict extends VerdictUnit {
  status: CaseStatus;
}

export interface ReportAggregate extends SliceAggregate {
  metrics: Array<SliceAggregate["metrics"][number] & { floor: number | null }>;
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  status: RunVerdict["status"];
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
  /** The file filter; null for a full run (only a full run writes the badge). */
  filter: string | null;
  thresholds: { passMarks: PassMarks; evalite: EvaliteThreshold; tolerance: Tolerance; ceilingTolerance: CeilingTolerance };
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
    /** Floors of evals the target could not run: not checked, never passed. */
    skipped: number;
    /** Floors of judged metrics whose judge does not agree with people well enough (judge-trust.ts): reported, not checked. */
    notGated?: number;
    failures: FloorCheck[];
    checks: FloorCheck[];
    unfloored: string[];
    changes: FloorChange[];
    ceilings: {
      checked: number;
      exceeded: number;
      missing: number;
      notRun: number;
      skipped: number;
      failures: CeilingCheck[];
      checks: CeilingCheck[];
    };
    cases: {
      /** Whether the mode had recorded cases (else every case is new). */
      recorded: boolean;
      regressions: number;
      knownFailures: number;
      fixed: number;
      newFailures: number;
      newPasses: number;
      /** Recorded cases of suites that ran, which this run did not measure. */
      gone: string[];
      changes: CaseChange[];
    };
  };
  summary: {
    evals: number;
    suites: number;
    /** Verdict units: retrieval cases, and questions at a preset. */
    cases: number;
    passed: number;
    failed: number;
    errored: number;
    /** Share of verdict units that passed. */
    passRate: number;
    scores: number;
    notScored: number;
    p50LatencyMs: number | null;
    p95LatencyMs: number | null;
  };
  evals: Array<{ eval: string; suites: Array<Omit<SuiteRecord, "eval"> & { cases: number }> }>;
  aggregates: ReportAggregate[];
  /** Every case of every suite: its measurements, and (`verdict`) the unit whose verdict it shares. */
  cases: CaseOutcome[];
  /** One verdict per unit, with its status against the recorded cases. */
  verdicts: ReportVerdict[];
  /** Warnings about the golden data (not failures): questions whose expected answer shares almost no vocabulary with what was retrieved. */
  warnings: Array<{ kind: "golden-set"; suite: string; id: string; message: string }>;
  variance: {
    maxTrials: number;
    flipped: Array<Pick<CaseOutcome, "suite" | "id" | "label"> & { trialOutcomes: Outcome[] }>;
    /** The judged metrics' flip rate and spread over trials, per suite and method; the unstable ones fail the run. */
    judge?: JudgeStability | null;
  } | null;
  /** Every model call's tokens, cache hits and cost, per role and model; null when the run recorded none (absent before it was recorded). */
  usage?: UsageSummary | null;
  /** The evals (or variants) the run's target could not run, each with why: reported, never scored (their floors are skipped). */
  skipped: SkippedEval[];
  /** Another target's ranking calls: client and target time, unjudged results (target-calls.ts); null in-process. */
  target: TargetCalls | null;
  /**
   * The drafted cases (input `status: "draft"`), measured apart: in no other field of the report,
   * no floor, mean, ceiling or recorded case; null when the run had none (absent in reports written before drafts).
   */
  drafts?: DraftsSummary | null;
}

export interface JudgeModeSummary {
  mode: "heuristic" | "llm-judge" | "mixed" | "none";
  llmJudge: number;
  heuristic: number;
  /** Heuristic scores standing in for a judge that failed twice. */
  fallbacks: number;
  /** Judged scores whose judge reply came from the model cache. */
  cached?: number;
  /** Per judge method the run used: its κ against human labels (judge-calibration.json beside the baseline), or that it was never measured. */
  calibration?: string[];
  /** Per judged metric: whether it gates, by which calibration, or because the baseline says so (judge-trust.ts). */
  trust?: JudgedMetricTrust[];
}

/**
 * The run's judge mode, from the `method` in the metadata of every scored score of a judged grader
 * (`graders`: the grader ids a judge grades when one is configured, which the suite names): the one
 * place a run's mode is computed (the scorers label each score; the evals keep no tally).
 */
export function judgeMode(output: Evalite.Exported.Output, graders: ReadonlySet<string>): JudgeModeSummary {
  const summary: JudgeModeSummary = { mode: "none", llmJudge: 0, heuristic: 0, fallbacks: 0 };
  for (const suite of output.suites) {
    for (const row of suite.evals) {
      for (const score of row.scores) {
        const m = (score.metadata ?? {}) as { method?: unknown; status?: unknown; grader?: unknown; fallbackFrom?: unknown };
        if (!graders.has(String(m.grader)) || m.status !== "scored") continue;
        if (m.method === "llm-judge") {
          summary.llmJudge++;
          if ((m as { cached?: unknown }).cached === true) summary.cached = (summary.cached ?? 0) + 1;
        } else if (m.method === "heuristic") {
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

/**
 * What Evalite itself would say of the run: its exit status without a threshold (an eval failed,
 * a file did not load), its flat mean over every score, whether `threshold` (percent) was met, and
 * the suites it marked failed.
 */
export function evaliteSummary(
  output: Evalite.Exported.Output,
  verdict: EvaliteVerdict,
  threshold: number | null,
  suites: readonly Pick<SuiteRecord, "name" | "status">[],
): Report["evalite"] {
  const { mean, scores } = evaliteMean(output);
  return {
    exitStatus: evaliteStatus(verdict),
    mean,
    scores,
    thresholdMet: threshold === null || mean === null ? null : mean * 100 >= threshold,
    failedSuites: suites.filter((s) => s.status !== "success").map((s) => s.name),
  };
}

export function buildReport(input: ReportInput): Report {
  const { suites, cases, units, aggregates, ranEvals } = input.analysis;
  const { gate, changes } = input;
  const failures = gateFailures(gate);
  const ceilingsFailed = ceilingFailures(input.ceilings);
  const statuses = input.cases.statuses;
  const verdicts: ReportVerdict[] = units.map((u) => ({
    ...u,
    file: relativeTo(input.root, u.file),
    status: statuses[u.key] ?? "new-pass",
  }));
  const count = (status: CaseStatus): number => verdicts.filter((v) => v.status === status).length;
  const regressed = count("regression");
  const floorOf = new Map(gate.checks.map((c) => [c.key, c.floor]));

  const evalite = evaliteSummary(input.output, input.evalite, input.evaliteThreshold.threshold, suites);
  const { status, exitStatus, statusReasons } = input.verdict;

  const latencies = cases.map((c) => c.latencyMs).filter((x): x is number => x !== null);
  const passed = verdicts.filter((v) => v.outcome === "pass").length;
  // A case folded into its question flips with the question; only units are listed.
  const flipped = cases.filter((c) => c.flipped && c.verdict === `${c.suite}|${c.id}`);
  const maxTrials = Math.max(0, ...cases.map((c) => c.trials));
  const documents = input.runInfo.fingerprint.documents;
  const passages = input.runInfo.fingerprint.passages;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    status,
    exitStatus,
    statusReasons: [...statusReasons],
    git: input.git,
    args: input.args,
    mode: input.runInfo.mode,
    judge: {
      ...withCalibration(judgeMode(input.output, input.judgedGraders), input.judgeLines),
      ...(input.trust && input.trust.length > 0 ? { trust: [...input.trust] } : {}),
    },
    floorMode: input.floorMode,
    models: input.runInfo.models,
    fingerprint: input.runInfo.fingerprint,
    engineOptions: input.runInfo.engineOptions,
    fixtures: {
      ...input.fixtures,
      documents: typeof documents === "number" ? documents : null,
      passages: typeof passages === "number" ? passages : null,
    },
    filter: input.filter,
    thresholds: {
      passMarks: input.analysis.passMarks,
      evalite: input.evaliteThreshold,
      tolerance: gate.tolerance,
      ceilingTolerance: input.ceilingTolerance,
    },
    evalite,
    gate: {
      baseline: input.baselinePath,
      status: failures.length > 0 || ceilingsFailed.length > 0 || regressed > 0 ? "fail" : "pass",
      checked: gate.checks.filter((c) => isChecked(c.status)).length,
      fell: gate.checks.filter((c) => c.status === "fell").length,
      missing: gate.checks.filter((c) => c.status === "missing").length,
      notRun: gate.checks.filter((c) => c.status === "not-run").length,
      skipped: gate.checks.filter((c) => c.status === "skipped").length,
      notGated: gate.checks.filter((c) => c.status === "not-gated").length,
      // Whole evals and variants first, then their language and category slices; largest drops first.
      failures: [...failures].sort(
        (a, b) => Number(isBaseSlice(b.slice)) - Number(isBaseSlice(a.slice)) || (a.delta ?? -1) - (b.delta ?? -1),
      ),
      checks: gate.checks,
      unfloored: gate.unfloored,
      changes,
      ceilings: {
        checked: input.ceilings.filter((c) => isChecked(c.status)).length,
        exceeded: input.ceilings.filter((c) => c.status === "exceeded").length,
        missing: input.ceilings.filter((c) => c.status === "missing").length,
        notRun: input.ceilings.filter((c) => c.status === "not-run").length,
        skipped: input.ceilings.filter((c) => c.status === "skipped").length,
        failures: [...ceilingsFailed].sort((a, b) => (b.p95Ms ?? 0) / b.ceilingMs - (a.p95Ms ?? 0) / a.ceilingMs),
        checks: input.ceilings,
      },
      cases: {
        recorded: input.cases.recorded,
        regressions: regressed,
        knownFailures: count("known-failure"),
        fixed: count("fixed"),
        newFailures: count("new-failure"),
        newPasses: count("new-pass"),
        gone: input.cases.gone,
        changes: input.caseChanges,
      },
    },
    summary: {
      evals: ranEvals.size,
      suites: suites.length,
      cases: verdicts.length,
      passed,
      failed: verdicts.filter((v) => v.outcome === "fail").length,
      errored: verdicts.filter((v) => v.outcome === "error").length,
      passRate: verdicts.length > 0 ? passed / verdicts.length : 0,
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
        .map(({ eval: _, ...s }) => ({
          ...s,
          file: relativeTo(input.root, s.file),
          cases: cases.filter((c) => c.suite === s.name).length,
        })),
    })),
    aggregates: aggregates.map((a) => ({
      ...a,
      metrics: a.metrics.map((m) => ({ ...m, floor: floorOf.get(floorKey(a.eval, m.metric, a.slice)) ?? null })),
    })),
    cases,
    verdicts,
    warnings: verdicts.flatMap((v) =>
      (v.warnings ?? []).map((message) => ({ kind: "golden-set" as const, suite: v.suite, id: v.id, message })),
    ),
    variance:
      maxTrials > 1
        ? {
            maxTrials,
            flipped: flipped.map((c) => ({ suite: c.suite, id: c.id, label: c.label, trialOutcomes: c.trialOutcomes! })),
            judge: input.stability ?? null,
          }
        : null,
    usage: input.usage ?? null,
    skipped: input.skipped,
    target: targetCalls(input.output),
    drafts: input.drafts ?? null,
  };
}

function withCalibration(summary: JudgeModeSummary, lines: ReportInput["judgeLines"]): JudgeModeSummary {
  return lines ? { ...summary, calibration: lines(summary) } : summary;
}

/** Whether a floor or ceiling was held to this run: not when its eval did not run (a filter) or was skipped (the target lacks it). */
export const isChecked = (status: FloorCheck["status"] | CeilingCheck["status"]): boolean =>
  status !== "not-run" && status !== "skipped" && status !== "not-gated";

export const pct = (x: number | null): string => (x === null ? "–" : `${(x * 100).toFixed(1)} %`);

/** A path inside the repository relative to its root (JUnit's classname must not differ by checkout); others as given. */
function relativeTo(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === "" || rel.startsWith("..") || rel.startsWith("/") ? path : rel.split("\\").join("/");
}
