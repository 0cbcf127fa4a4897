/**
 * The gate's verdict on one `pnpm eval` run, decided in one place: `judgeRun` takes what the run
 * measured (Evalite's output read back, what vitest knew, the run info, the skipped evals), the
 * baseline and the command line's options, and returns the verdict, the exit status, the
 * baseline after the run (a new value: the one given is never changed), what changed in it, and
 * the report. bin/eval-verdict.ts only reads the inputs, writes what this returns and prints it.
 *
 * In order:
 * 1. the run is analysed once (analysis.ts) with the pass marks in force (the baseline's, the
 *    command line's on top); a mark for a metric neither measured nor floored is refused (exit 2);
 * 2. `--lower-floor` and `--accept-failure` change the baseline (a pattern that matches nothing is
 *    refused, exit 2);
 * 3. the run is held to the baseline as it stands then: floors, latency ceilings, recorded cases
 *    (floors.ts, ceilings.ts, case-ratchet.ts) — an explicit lowering counts, a raise does not;
 *    the floors of a judged metric whose judge does not agree with people well enough are not
 *    gated (judge-trust.ts: the calibration beside the baseline decides, the baseline's
 *    `gateJudgedAnyway` overrides), and the verdict says which and why;
 * 4. `--update-baseline` raises floors, tightens ceilings and records cases (ratchet.ts) — only
 *    from a run in which no eval failed and every case was measured (no fault: the target and
 *    every model answered), so a broken run never sets the bar; it sets no floor on a judged
 *    metric that is not gated, and removes those it had, logged with the calibration's figures;
 * 5. the verdict (`runVerdict`), then the report.
 *
 * **The verdict.** Exit 1 when an eval failed (a task threw or timed out, a file did not load),
 * when nothing or no case of some eval could be scored, when any case could not be measured
 * because the target or a model failed (a fault: score-status.ts), when a case regressed, a floor
 * fell or went missing, a latency ceiling was exceeded or went missing, or `--threshold N` was not
 * met, or the dataset's own thresholds did not hold (dataset-gate.ts); else 0. The faults and "nothing scored" rules hold whatever the floors: a mode without floors
 * (not gated) has no means to compare, which does not make errors fine.
 *
 * **PASS means something held a bar.** A run that failed nothing and held no bar — no floor and no
 * latency ceiling checked, no recorded case compared, no threshold of its own or of the command
 * line — is `not-gated`, never `pass`: exit 0, or 1 with `--require-gate` (EVAL_REQUIRE_GATE=1),
 * for a CI that must not take a team's first run for a green one.
 */
import type { Evalite } from "evalite";
import type { CaseOutcome } from "./aggregate.js";
import {
  analyzeRun,
  type EvaliteVerdict,
  evaliteStatus,
  type Fault,
  measuredMetrics,
  type RunAnalysis,
  scoringBySuite,
} from "./analysis.js";
import type { Baseline, CaseChange, FloorChange, LogEntry } from "./baseline.js";
import { acceptFailures, type CaseCheck, checkCases, recordCases, regressions } from "./case-ratchet.js";
import { type CeilingCheck, ceilingFailures, checkCeilings } from "./ceilings.js";
import { checkDatasetGate, type DatasetGate, datasetGateReason } from "./dataset-gate.js";
import { ConfigError, quoteInput } from "./errors.js";
import { checkFloors, floorMode, type GateResult, gateFailures } from "./floors.js";
import { checkPassMarkNames, withFlags } from "./pass-marks.js";
import { dropNotGated, ratchet, logChanges, lowerFloors } from "./ratchet.js";
import {
  buildReport,
  type DatasetGateResult,
  type EvaliteThreshold,
  evaliteSummary,
  type FixtureInfo,
  pct,
  isChecked,
  type Report,
  type RunVerdict,
} from "./report.js";
import type { RunInfo, SkippedEval } from "./run-info.js";
import { type Calibration, type JudgeMethod, judgeLine } from "./calibration.js";
import { DEFAULT_MAX_FLIP_RATE, instabilityReasons, type JudgeStability, judgeStability } from "./judge-stability.js";
import { judgeTrust, notGated } from "./judge-trust.js";
import { dollars, type UsageSummary } from "./usage.js";
import { idMismatch, targetCalls } from "./target-calls.js";
import { draftsSummary, splitDrafts } from "./drafts.js";

/** What one run measured, as bin/eval-verdict.ts reads it back after Evalite ran. */
export interface RecordedRun {
  /** This run's results, as Evalite exports them (read back from its storage by run id). */
  output: Evalite.Exported.Output;
  /** What vitest knew beyond the stored results: failed tests, files that did not load. */
  evalite: EvaliteVerdict;
  /** What global setup measured: the index fingerprint, the mode and model ids, the engine options. */
  runInfo: RunInfo;
  /** The evals (or variants) the run's target could not run, with why. */
  skipped: SkippedEval[];
  /** The dataset measured (its name keys the floors off the fixtures). */
  fixtures: FixtureInfo;
  startedAt: Date;
  finishedAt: Date;
  git: { commit: string | null; dirty: boolean | null };
  /** The command line, as the report records it. */
  args: string[];
  /** The file filter the run was given; null for a full run. */
  filter: string | null;
  /** The dataset's own thresholds (dataset-gate.ts), when it brings them. */
  datasetGate?: DatasetGate | null;
  /** Every model call's tokens and cost, per role and model (usage.ts); null when not recorded. */
  usage?: UsageSummary | null;
  /** A few of the dataset's document ids, to show beside a target's when most of its ids match none (target-calls.ts, `idMismatch`). */
  datasetIds?: readonly string[];
}

/** A run in which Evalite recorded nothing: every eval file failed to load, or every eval was skipped. */
export interface UnrecordedRun {
  output: null;
  evalite: EvaliteVerdict;
  /** The evals (or variants) skipped, with why: when every selected one was, no eval could run. */
  skipped?: readonly SkippedEval[];
}

/** The command line's say in the verdict, and how the report names things. */
export interface GateOptions {
  /** `--update-baseline`: raise floors, tighten ceilings, record cases (never lower). */
  updateBaseline: boolean;
  /** `--lower-floor` patterns (`eval|metric|slice`, `*` for any). */
  lowerFloors: readonly string[];
  /** `--accept-failure` patterns (`suite|id`, `*` for any). */
  acceptFailures: readonly string[];
  /** `--reason`, logged with every change; null logs "pnpm eval --update-baseline". */
  reason: string | null;
  /** `--pass-mark` flags, over the baseline's marks (`*` the default). */
  passMarks: ReadonlyArray<{ metric: string; mark: number }>;
  /** `--threshold N` (percent): Evalite's mean becomes part of the verdict. */
  threshold: number | null;
  /** evalite.config.ts's `scoreThreshold`: recorded, never applied. */
  configuredThreshold: number | null;
  /** The graders a judge grades when one is configured; the suite names them (scorers/judged-graders.ts). */
  judgedGraders: readonly string[];
  /** The baseline file as the report names it (relative to the root). */
  baselinePath: string;
  /** The baseline file as messages name it (relative to the working directory). */
  baselineShown: string;
  /** The version the baseline file was upgraded from when it was read; null when it was current or new. */
  upgradedFrom: number | null;
  /** The repository root: eval files are reported relative to it. */
  root: string;
  /** The flip rate over trials above which a judged metric is unstable (judge-stability.ts). @default 0.1 */
  maxFlipRate?: number;
  /** `--require-gate` (EVAL_REQUIRE_GATE=1): a run that held no bar fails (exit 1) instead of ending not gated. */
  requireGate?: boolean;
  /**
   * The judge methods the run has (the heuristic; the judge model with its prompts' hash) and their
   * calibration, for the judge lines and which judged metrics gate; `graders`: each judged grader's
   * id → its metric's name (the suite names them).
   */
  judge?: {
    methods: ReadonlyArray<JudgeMethod & { judgeConfig: string | null }>;
    calibration: Calibration | null;
    calibrationPath: string;
    graders?: Readonly<Record<string, string>>;
  };
}

/** What the gate decided about a run, and what to write and print. */
export type Judgment = Judged | Unrecorded | Refused;

/** A run the gate judged: the verdict, the report, the baseline after it. */
export interface Judged {
  kind: "judged";
  exitStatus: 0 | 1;
  verdict: RunVerdict;
  report: Report;
  /** The baseline after this run: a new value. */
  baseline: Baseline;
  /** Whether the baseline file must be written: something changed, or `--update-baseline` rewrites an older version. */
  writeBaseline: boolean;
  /** Floors and ceilings this run changed. */
  changes: FloorChange[];
  /** Recorded case outcomes this run changed. */
  caseChanges: CaseChange[];
  /** The log entries this run added. */
  log: LogEntry[];
  /** Why `--update-baseline` raised nothing; null when it raised, or was not asked to. */
  notRaised: string | null;
}

/** Evalite recorded no run: nothing to judge, no report; exit 1. */
export interface Unrecorded {
  kind: "unrecorded";
  exitStatus: 1;
  reason: string;
}

/** A flag or the baseline names what the run does not have (a pass mark's metric, a floor, a case): exit 2, nothing written. */
export interface Refused {
  kind: "refused";
  exitStatus: 2;
  error: ConfigError;
}

/** The gate's verdict on a run (module comment). Pure: the baseline given is never changed. */
export function judgeRun(run: UnrecordedRun, baseline: Baseline, options: GateOptions): Unrecorded;
export function judgeRun(run: RecordedRun, baseline: Baseline, options: GateOptions): Judged | Refused;
export function judgeRun(run: RecordedRun | UnrecordedRun, baseline: Baseline, options: GateOptions): Judgment;
export function judgeRun(run: RecordedRun | UnrecordedRun, baseline: Baseline, options: GateOptions): Judgment {
  if (run.output === null) {
    const unloaded = run.evalite.unloadedFiles;
    return {
      kind: "unrecorded",
      exitStatus: 1,
      reason:
        unloaded.length === 0 && (run.skipped ?? []).length > 0
          ? "no eval could run: every selected eval was skipped"
          : `Evalite recorded no run (every eval file failed to load, or every eval was skipped); its output above says why${unloaded.length > 0 ? ` (did not load: ${unloaded.join(", ")})` : ""}`,
    };
  }
  // A target whose ids name none of the dataset's documents is measured against nothing: an input error.
  const mismatch = idMismatch(targetCalls(run.output), run.datasetIds ?? []);
  if (mismatch !== null) return { kind: "refused", exitStatus: 2, error: new ConfigError(mismatch) };
  const mode = floorMode(run.runInfo.mode, run.fixtures.dataset);
  const floorsOf = baseline.floors[mode] ?? {};
  const passMarks = withFlags(baseline.passMarks, options.passMarks);
  // Drafted cases are measured, and judged apart: nothing below but their faults sees them (drafts.ts).
  const { gated: output, drafts } = splitDrafts(run.output);
  const analysis = analyzeRun(output, (evalKey) => Object.keys(floorsOf[evalKey] ?? {}), passMarks);
  const drafted = drafts ? analyzeRun(drafts, () => [], passMarks) : null;
  const next = structuredClone(baseline);
  const context = {
    date: run.startedAt.toISOString(),
    commit: run.git.commit,
    dirty: run.git.dirty,
    reason: options.reason ?? "pnpm eval --update-baseline",
  };
  const changes: FloorChange[] = [];
  const caseChanges: CaseChange[] = [];
  try {
    // A mark for a metric nobody measures is a typo: named where it was set.
    const floored = Object.values(baseline.floors).flatMap((evals) => Object.values(evals).flatMap((metrics) => Object.keys(metrics)));
    const flagged = new Set(options.passMarks.map((p) => p.metric));
    const measured = [...measuredMetrics(analysis), ...(drafted ? measuredMetrics(drafted) : [])];
    checkPassMarkNames(passMarks, new Set([...measured, ...floored]), (metric) =>
      flagged.has(metric) ? `--pass-mark ${metric}=…` : `${options.baselineShown}: /passMarks/metrics/${metric}`,
    );
    if (options.lowerFloors.length > 0)
      changes.push(...lowerFloors(next, mode, options.lowerFloors, analysis.aggregates, analysis.ranEvals, context));
    if (options.acceptFailures.length > 0) {
      const accepted = acceptFailures(next, mode, options.acceptFailures, analysis.units);
      logChanges(next, mode, "lower", { cases: accepted }, context);
      caseChanges.push(...accepted);
    }
  } catch (error) {
    if (error instanceof ConfigError) return { kind: "refused", exitStatus: 2, error };
    throw error;
  }
  // Which judged metrics may hold floors: the judge model's calibration when one is configured, else the heuristic's.
  const trust = options.judge?.graders
    ? judgeTrust({
        graders: options.judge.graders,
        method: options.judge.methods.find((m) => m.method === "llm-judge") ?? options.judge.methods[0]!,
        calibration: options.judge.calibration,
        ...(baseline.gateJudgedAnyway ? { gateAnyway: baseline.gateJudgedAnyway } : {}),
      })
    : [];
  const ungated = notGated(trust);
  // The run is held to the baseline as it stands after an explicit lowering, before any raise.
  const checks = checkRun(next, mode, analysis, run.skipped, ungated);
  const evaliteThreshold: EvaliteThreshold =
    options.threshold !== null
      ? { threshold: options.threshold, source: "--threshold", binding: true }
      : {
          threshold: options.configuredThreshold,
          source: options.configuredThreshold === null ? "none" : "evalite.config.ts",
          binding: false,
        };
  const datasetGate = run.datasetGate ? checkDatasetGate(run.datasetGate, analysis.units) : null;
  const graders = new Set(options.judgedGraders);
  const stability = analysis.records.some((r) => r.trials.length > 1)
    ? judgeStability(analysis.records, passMarks, graders, options.maxFlipRate ?? DEFAULT_MAX_FLIP_RATE)
    : null;
  const verdict = runVerdict({
    analysis,
    drafted,
    evalite: run.evalite,
    output,
    evaliteThreshold,
    datasetGate,
    ...checks,
    stability,
    usage: run.usage ?? null,
    requireGate: options.requireGate ?? false,
  });

  let notRaised: string | null = null;
  if (options.updateBaseline) {
    notRaised = raiseRefused(run.evalite, [...analysis.faults, ...(drafted?.faults ?? [])]);
    // Floors of judged metrics that do not gate go whatever the run: they depend on the calibration, not on it.
    if (ungated.size > 0) changes.push(...dropNotGated(next, mode, ungated, analysis.aggregates, context));
    if (notRaised === null) {
      changes.push(...ratchet(next, mode, analysis.aggregates, context, ungated));
      const recorded = recordCases(next, mode, analysis.units, new Set(analysis.suites.map((s) => s.name)));
      logChanges(next, mode, "raise", { cases: recorded }, context);
      caseChanges.push(...recorded);
    }
  }

  const report = buildReport({
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    git: run.git,
    args: run.args,
    runInfo: run.runInfo,
    floorMode: mode,
    fixtures: datasetGate ? { ...run.fixtures, gate: datasetGate } : run.fixtures,
    evalite: run.evalite,
    evaliteThreshold,
    output,
    analysis,
    drafts: drafted ? draftsSummary(drafted) : null,
    baselinePath: options.baselinePath,
    ...checks,
    changes,
    caseChanges,
    filter: run.filter,
    skipped: run.skipped,
    root: options.root,
    verdict,
    judgedGraders: graders,
    stability,
    usage: run.usage ?? null,
    judgeLines: (used) => judgeLines(used, options.judge),
    trust,
  });
  return {
    kind: "judged",
    exitStatus: verdict.exitStatus,
    verdict,
    report,
    baseline: next,
    writeBaseline: changes.length > 0 || caseChanges.length > 0 || (options.updateBaseline && options.upgradedFrom !== null),
    changes,
    caseChanges,
    log: next.log.slice(baseline.log.length),
    notRaised,
  };
}

/**
 * The gate's checks of a run against the baseline of its mode: floors, latency ceilings, recorded
 * cases. `skipped`: the evals the run's target could not run, whose floors and ceilings are skipped.
 */
function checkRun(
  baseline: Baseline,
  mode: string,
  analysis: Pick<RunAnalysis, "aggregates" | "ranEvals" | "units" | "suites">,
  skipped: readonly SkippedEval[] = [],
  notGatedMetrics: ReadonlyMap<string, string> = new Map(),
): { gate: GateResult; ceilings: CeilingCheck[]; ceilingTolerance: Baseline["ceilingTolerance"]; cases: CaseCheck } {
  return {
    gate: checkFloors(baseline, mode, analysis.aggregates, analysis.ranEvals, skipped, notGatedMetrics),
    ceilings: checkCeilings(baseline.ceilings[mode] ?? {}, analysis.aggregates, analysis.ranEvals, skipped),
    ceilingTolerance: baseline.ceilingTolerance,
    cases: checkCases(baseline, mode, analysis.units, new Set(analysis.suites.map((s) => s.name))),
  };
}

/** Why `--update-baseline` must not raise from this run (null: it may): a broken run never sets the bar. */
function raiseRefused(evalite: EvaliteVerdict, faults: readonly Fault[]): string | null {
  if (evaliteStatus(evalite) !== 0) return "an eval failed in this run";
  if (faults.length > 0) return `${unitsOf(faults).size} case(s) errored in this run (the target, a model or the task failed)`;
  return null;
}

/**
 * The judge line of each judge method the run used (the heuristic, when any judged score was
 * heuristic; the judge model, when any was judged by it): its κ from the calibration beside the
 * baseline, or that it was never measured.
 */
function judgeLines(used: { heuristic: number; llmJudge: number }, judge: GateOptions["judge"]): string[] {
  if (!judge) return [];
  return judge.methods
    .filter((m) => (m.method === "heuristic" ? used.heuristic > 0 : used.llmJudge > 0))
    .map((m) => judgeLine(judge.calibration, m, undefined, judge.calibrationPath));
}

/** What the verdict is decided from: the analysis, what Evalite knew, and the checks against the baseline. */
interface VerdictInputs {
  analysis: Pick<RunAnalysis, "cases" | "suites" | "faults">;
  /** The drafted cases, analysed apart: only their faults, and whether anything was scored, reach the verdict. */
  drafted: Pick<RunAnalysis, "cases" | "faults"> | null;
  evalite: EvaliteVerdict;
  output: Evalite.Exported.Output;
  evaliteThreshold: EvaliteThreshold;
  gate: GateResult;
  ceilings: CeilingCheck[];
  cases: CaseCheck;
  /** The dataset's own thresholds as this run held them; null when it brings none. */
  datasetGate: DatasetGateResult | null;
  stability: JudgeStability | null;
  usage: UsageSummary | null;
  requireGate: boolean;
}

/** What held a bar in this run (module comment), in words; empty when nothing did. */
export function barsHeld(input: Pick<VerdictInputs, "gate" | "ceilings" | "cases" | "datasetGate" | "evaliteThreshold">): string[] {
  const bars: string[] = [];
  const floors = input.gate.checks.filter((c) => isChecked(c.status)).length;
  if (floors > 0) bars.push(`${floors} floor(s)`);
  const ceilings = input.ceilings.filter((c) => isChecked(c.status)).length;
  if (ceilings > 0) bars.push(`${ceilings} latency ceiling(s)`);
  const compared = Object.values(input.cases.statuses).filter((s) => s !== "new-pass" && s !== "new-failure").length;
  if (compared > 0) bars.push(`${compared} recorded case(s)`);
  // The dataset's thresholds hold a bar only over questions this run measured (a filtered run may have none).
  if (input.datasetGate?.checks.some((c) => c.passRateOk !== null || c.latencyOk !== null)) bars.push("the dataset's own thresholds");
  if (input.evaliteThreshold.binding) bars.push(`--threshold ${input.evaliteThreshold.threshold} %`);
  return bars;
}

/** The verdict (module comment): every reason the run does not pass, in a fixed order; pass when there is none. */
function runVerdict(input: VerdictInputs): RunVerdict {
  const { failedTests, unloadedFiles } = input.evalite;
  const evalite = evaliteSummary(input.output, input.evalite, input.evaliteThreshold.threshold, input.analysis.suites);
  const reasons: string[] = [];
  if (evalite.exitStatus !== 0) {
    const failed = evalite.failedSuites;
    if (failed.length > 0) reasons.push(`${failed.length} eval(s) failed: ${failed.join(", ")}`);
    if (unloadedFiles.length > 0) reasons.push(`${unloadedFiles.length} eval file(s) did not load: ${unloadedFiles.join(", ")}`);
    if (failed.length === 0 && unloadedFiles.length === 0)
      reasons.push(`${failedTests} test(s) failed with no failed eval in Evalite's results`);
  }
  const budget = input.usage?.budget;
  if (budget && budget.refused > 0)
    reasons.push(
      `--max-cost ${dollars(budget.maxCost)} reached: ${budget.refused} model call(s) not made (the first: ${budget.firstRefused}); spent ${dollars(budget.spent)}; what was scored before is kept`,
    );
  reasons.push(...nothingScored([...input.analysis.cases, ...(input.drafted?.cases ?? [])]));
  reasons.push(...faultReasons(input.analysis.faults));
  // A target or a model that fails on a draft has failed as on any case; the draft's own grade never counts.
  const draftFaults = faultReasons(input.drafted?.faults ?? []);
  reasons.push(...draftFaults.map((r) => `drafts: ${r}`));
  const regressed = regressions(input.cases).length;
  if (regressed > 0) reasons.push(`${regressed} case(s) regressed`);
  const fell = gateFailures(input.gate).length;
  if (fell > 0) reasons.push(`${fell} floor(s) fell or went missing`);
  const slow = ceilingFailures(input.ceilings).length;
  if (slow > 0) reasons.push(`${slow} latency ceiling(s) exceeded or went missing`);
  reasons.push(...instabilityReasons(input.stability));
  if (input.evaliteThreshold.binding && evalite.thresholdMet === false)
    reasons.push(`Evalite's mean ${pct(evalite.mean)} is below --threshold ${input.evaliteThreshold.threshold} %`);
  const dataset = input.datasetGate ? datasetGateReason(input.datasetGate) : null;
  if (dataset !== null) reasons.push(dataset);
  if (reasons.length > 0) return { status: "fail", exitStatus: 1, statusReasons: reasons };
  if (barsHeld(input).length > 0) return { status: "pass", exitStatus: 0, statusReasons: [] };
  if (input.requireGate)
    return {
      status: "fail",
      exitStatus: 1,
      statusReasons: [
        "--require-gate: no floor, latency ceiling, recorded case or threshold held this run (pnpm eval --update-baseline sets floors)",
      ],
    };
  return { status: "not-gated", exitStatus: 0, statusReasons: [] };
}

/**
 * No silent pass: a run that could score nothing, or an eval (suite) none of whose cases could be
 * scored — every model call failed, every task threw — measured nothing there, whatever the floors
 * say (a mode without floors would otherwise pass it). One reason each, naming the suites and why
 * their scores were not scored.
 */
function nothingScored(cases: readonly CaseOutcome[]): string[] {
  const bySuite = scoringBySuite(cases);
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

/** Suites, and distinct errors, named in a fault reason before the rest are counted. */
const NAMED_SUITES = 6;
const NAMED_ERRORS = 3;

/**
 * No pass over a failure of the target or a model: one reason for every case that could not be
 * measured, counted per verdict unit (the summary's cases), naming the suites that judge them and
 * the errors, most frequent first, each with how often it occurred.
 */
export function faultReasons(faults: readonly Fault[]): string[] {
  if (faults.length === 0) return [];
  const units = unitsOf(faults);
  const perSuite = new Map<string, number>();
  for (const unit of units) {
    const suite = unit.slice(0, unit.lastIndexOf("|"));
    perSuite.set(suite, (perSuite.get(suite) ?? 0) + 1);
  }
  const perError = new Map<string, number>();
  for (const f of faults) for (const e of f.errors) perError.set(e, (perError.get(e) ?? 0) + 1);
  const suites = [...perSuite].map(([suite, n]) => `${suite} ${n}`);
  const errors = [...perError].sort((a, b) => b[1] - a[1]).map(([e, n]) => `${quoteInput(e)} ×${n}`);
  const listed = (items: string[], limit: number, what: string): string =>
    items.slice(0, limit).join(", ") + (items.length > limit ? `, and ${items.length - limit} more ${what}` : "");
  return [
    `${units.size} case(s) errored: the target, a model or the task failed (${listed(suites, NAMED_SUITES, "eval(s)")}): ${listed(errors, NAMED_ERRORS, "error(s)")}`,
  ];
}

const unitsOf = (faults: readonly Fault[]): Set<string> => new Set(faults.map((f) => f.unit));
