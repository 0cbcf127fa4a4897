/**
 * From case records to case outcomes and slice aggregates.
 *
 * **Case outcome.** A case's metric value is the mean of its trials' counted values (not-scored
 * counts 0); the metric passes when every trial scored it and that mean reaches the metric's
 * **pass mark** (pass-marks.ts: 0.5 unless the baseline or `--pass-mark` says otherwise). A case
 * with a **verdict score** (score-status.ts: a "Question verdict") is judged by that verdict
 * instead: it passes when every trial's verdict passed, and its reasons are the failed
 * expectations the verdict names. Otherwise the case is `pass` when every metric passed, else
 * `fail`, with one reason per metric that did not pass; `error` when any trial threw. With more
 * than one trial the case also records each trial's outcome and `flipped` when they differ.
 *
 * **Slices.** Aggregates are keyed by eval (the variant group, or the suite) and slice: `all`, or
 * for a variant suite its variant (`tier=fast`, `preset=slim`); then that base joined with the
 * case's language and category (`language=de`, `tier=fast,category=keyword`). A variant group has
 * no `all` slice: means over different tiers or presets are not one population.
 *
 * **Aggregate.** Per slice and metric: n cases, the mean and sample SD of the case values, min,
 * max, the share of cases whose metric passed, not-scored counts by reason (over trials), the
 * scorers' methods, and with trials > 1 the pooled trial SD √(mean of the per-case trial
 * variances). Per slice: p50 and p95 (nearest rank) of the cases' latency (the median over a
 * case's trials).
 */
import type { CaseRecord, SuiteRecord, Trial } from "./evalite-output.js";
import { defaultPassMarks, passMarkOf, type PassMarks } from "./pass-marks.js";
import { erroredScore, isScored, type CountedScore, type ScoreVerdict } from "./score-status.js";
import { mean, percentile, sd } from "./stats.js";

export type Outcome = "pass" | "fail" | "error";

export interface CaseMetric {
  metric: string;
  /** Mean over trials of the counted values (not scored = 0). */
  value: number;
  /** Each trial's value and their SD, when there is more than one trial. */
  trials?: number[];
  sd?: number;
  /** `scored` when every trial scored it; otherwise the first reason it was not. */
  status: string;
  /** Trials that did not score it, by reason (absent when every trial scored it). */
  notScored?: Record<string, number>;
  passed: boolean;
  /** Trials by the scorer's `metadata.method` (`heuristic`, `llm-judge`), when it names one. */
  methods?: Record<string, number>;
}

/** A case record's identity, with its trials summed up. */
export interface CaseOutcome extends Omit<CaseRecord, "trials"> {
  slices: string[];
  trials: number;
  outcome: Outcome;
  /** Why the case did not pass: one line per metric below its mark or not scored, or each expectation its verdict failed; and task errors. */
  reasons: string[];
  /** `verdict` when a verdict score judged the case, `pass-marks` otherwise. */
  judgedBy: "verdict" | "pass-marks";
  /** A verdict's diagnosis and golden-set warnings (from the first trial that failed, else the first). */
  diagnosis?: { verdict: string; reasons: string[] };
  warnings?: string[];
  /** The key (`suite|id`) of the verdict unit this case belongs to: its own, or its question's (verdicts.ts). */
  verdict?: string;
  metrics: CaseMetric[];
  /** Median latency over the trials (ms), when measured. */
  latencyMs: number | null;
  trialOutcomes?: Outcome[];
  flipped?: boolean;
}

export interface MetricAggregate {
  metric: string;
  n: number;
  mean: number;
  sd: number;
  min: number;
  max: number;
  passRate: number;
  /** Trial scores that were not scored, by reason. */
  notScored: Record<string, number>;
  /** Scores by the scorer's `metadata.method`, when scorers name one. */
  methods?: Record<string, number>;
  /** With trials > 1: pooled within-case trial SD. */
  trialSd?: number;
}

export interface LatencyStats {
  n: number;
  p50Ms: number;
  p95Ms: number;
  source: SuiteRecord["latencySource"];
}

export interface SliceAggregate {
  eval: string;
  slice: string;
  /** `all` or the variant slice: the one every case of the eval (variant) is in. */
  base: boolean;
  n: number;
  latency: LatencyStats | null;
  metrics: MetricAggregate[];
}

export function sliceKeys(c: Pick<CaseRecord, "variant" | "language" | "category">): string[] {
  const base = c.variant ? `${c.variant.dimension}=${c.variant.value}` : "all";
  const prefix = c.variant ? `${base},` : "";
  const keys = [base];
  if (c.language) keys.push(`${prefix}language=${c.language}`);
  if (c.category) keys.push(`${prefix}category=${c.category}`);
  return keys;
}

/** `all` or a variant's slice (`tier=fast`): every case of the eval or variant is in it. */
export const isBaseSlice = (slice: string): boolean => !slice.includes("language=") && !slice.includes("category=");

/**
 * Outcomes of every case. `expectedMetrics` names metrics an eval must have (its floors), so a
 * case whose task threw is counted `errored` on them even when no case of the suite scored.
 */
export function caseOutcomes(
  cases: readonly CaseRecord[],
  expectedMetrics: (evalKey: string) => readonly string[] = () => [],
  marks: PassMarks = defaultPassMarks(),
): CaseOutcome[] {
  const metricsBySuite = new Map<string, string[]>();
  for (const c of cases) {
    const names = metricsBySuite.get(c.suite) ?? [...expectedMetrics(c.eval)];
    for (const t of c.trials) for (const s of t.scores) if (!names.includes(s.metric)) names.push(s.metric);
    metricsBySuite.set(c.suite, names);
  }
  return cases.map((c) => caseOutcome(c, metricsBySuite.get(c.suite)!, marks));
}

function caseOutcome(c: CaseRecord, metricNames: readonly string[], marks: PassMarks): CaseOutcome {
  const perTrial = c.trials.map((t) => trialScores(t, metricNames));
  const metrics: CaseMetric[] = metricNames
    .filter((name) => perTrial.some((scores) => scores.has(name)))
    .map((name) =>
      caseMetric(
        name,
        perTrial.map((scores) => scores.get(name) ?? { metric: name, value: 0, status: "missing" }),
        passMarkOf(marks, name),
      ),
    );
  const reasons: string[] = [];
  const trialLabel = (i: number): string => (c.trials.length > 1 ? `trial ${i + 1}: ` : "");
  c.trials.forEach((t, i) => {
    if (t.status === "error") reasons.push(`${trialLabel(i)}the task threw: ${t.error}`);
  });
  const verdicts = perTrial.map(verdictOf);
  const judgedBy = verdicts.some((v) => v !== undefined) ? "verdict" : "pass-marks";
  if (judgedBy === "verdict") {
    verdicts.forEach((v, i) => {
      if (c.trials[i]!.status === "error") return;
      if (!v) reasons.push(`${trialLabel(i)}no verdict (the verdict score is missing or not readable)`);
      else for (const failed of v.failed) if (!v.pass) reasons.push(`${trialLabel(i)}${failed}`);
    });
  } else {
    for (const m of metrics) {
      if (m.passed) continue;
      reasons.push(
        m.status === "scored"
          ? `${m.metric} ${m.value.toFixed(3)} < ${passMarkOf(marks, m.metric)}`
          : `${m.metric} not scored (${m.status})`,
      );
    }
  }
  const passed = judgedBy === "verdict" ? verdicts.every((v) => v?.pass === true) : metrics.every((m) => m.passed);
  const outcome: Outcome = c.trials.some((t) => t.status === "error") ? "error" : passed ? "pass" : "fail";
  const latencies = c.trials.map((t) => t.latencyMs).filter((x): x is number => x !== null);
  const { trials, ...identity } = c;
  const result: CaseOutcome = {
    ...identity,
    slices: sliceKeys(c),
    trials: trials.length,
    outcome,
    reasons,
    judgedBy,
    metrics,
    latencyMs: latencies.length > 0 ? median(latencies) : null,
  };
  const told = verdicts.find((v) => v && !v.pass) ?? verdicts.find((v) => v !== undefined);
  if (told?.diagnosis) result.diagnosis = told.diagnosis;
  if (told?.warnings) result.warnings = told.warnings;
  if (c.trials.length > 1) {
    result.trialOutcomes = perTrial.map((scores, i) => trialOutcome(c.trials[i]!, scores, marks, judgedBy));
    result.flipped = new Set(result.trialOutcomes).size > 1;
  }
  return result;
}

function trialScores(t: Trial, metricNames: readonly string[]): Map<string, CountedScore> {
  if (t.status === "error") return new Map(metricNames.map((name) => [name, erroredScore(name)]));
  return new Map(t.scores.map((s) => [s.metric, s]));
}

/** The verdict among a trial's scores, if a verdict score is there. */
function verdictOf(scores: Map<string, CountedScore>): ScoreVerdict | undefined {
  for (const s of scores.values()) if (s.verdict) return s.verdict;
  return undefined;
}

function trialOutcome(t: Trial, scores: Map<string, CountedScore>, marks: PassMarks, judgedBy: CaseOutcome["judgedBy"]): Outcome {
  if (t.status === "error") return "error";
  if (judgedBy === "verdict") return verdictOf(scores)?.pass === true ? "pass" : "fail";
  return [...scores.values()].every((s) => isScored(s) && s.value >= passMarkOf(marks, s.metric)) ? "pass" : "fail";
}

function caseMetric(metric: string, trials: readonly CountedScore[], mark: number): CaseMetric {
  const values = trials.map((s) => s.value);
  const failed = trials.filter((s) => !isScored(s));
  const value = mean(values);
  const m: CaseMetric = {
    metric,
    value,
    status: failed[0]?.status ?? "scored",
    passed: failed.length === 0 && value >= mark,
  };
  if (failed.length > 0) m.notScored = countBy(failed.map((s) => s.status));
  if (trials.length > 1) {
    m.trials = values;
    m.sd = sd(values);
  }
  const methods = trials.flatMap((s) => (s.method ? [s.method] : []));
  if (methods.length > 0) m.methods = countBy(methods);
  return m;
}

/** Aggregates per (eval, slice), in order of first appearance; metrics in the eval's order. */
export function aggregate(
  outcomes: readonly CaseOutcome[],
  latencySource: (suite: string) => SuiteRecord["latencySource"],
): SliceAggregate[] {
  const groups = new Map<string, { eval: string; slice: string; cases: CaseOutcome[] }>();
  for (const c of outcomes) {
    for (const slice of c.slices) {
      const key = `${c.eval}\u0000${slice}`;
      const group = groups.get(key) ?? { eval: c.eval, slice, cases: [] };
      group.cases.push(c);
      groups.set(key, group);
    }
  }
  return [...groups.values()].map(({ eval: evalKey, slice, cases }) => {
    const names: string[] = [];
    for (const c of cases) for (const m of c.metrics) if (!names.includes(m.metric)) names.push(m.metric);
    const latencies = cases.map((c) => c.latencyMs).filter((x): x is number => x !== null);
    return {
      eval: evalKey,
      slice,
      base: isBaseSlice(slice),
      n: cases.length,
      latency:
        latencies.length > 0
          ? {
              n: latencies.length,
              p50Ms: percentile(latencies, 50),
              p95Ms: percentile(latencies, 95),
              source: latencySource(cases[0]!.suite),
            }
          : null,
      metrics: names.map((name) => metricAggregate(name, cases)),
    };
  });
}

function metricAggregate(metric: string, cases: readonly CaseOutcome[]): MetricAggregate {
  const rows = cases.map((c) => c.metrics.find((m) => m.metric === metric)).filter((m): m is CaseMetric => m !== undefined);
  const values = rows.map((m) => m.value);
  const notScored: Record<string, number> = {};
  const methods: Record<string, number> = {};
  for (const m of rows) {
    addCounts(notScored, m.notScored);
    addCounts(methods, m.methods);
  }
  const agg: MetricAggregate = {
    metric,
    n: rows.length,
    mean: mean(values),
    sd: sd(values),
    min: Math.min(...values),
    max: Math.max(...values),
    passRate: rows.filter((m) => m.passed).length / rows.length,
    notScored,
  };
  if (Object.keys(methods).length > 0) agg.methods = methods;
  if (rows.some((m) => m.trials)) agg.trialSd = Math.sqrt(mean(rows.map((m) => (m.sd ?? 0) ** 2)));
  return agg;
}

function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

function addCounts(into: Record<string, number>, counts: Record<string, number> | undefined): void {
  for (const [k, n] of Object.entries(counts ?? {})) into[k] = (into[k] ?? 0) + n;
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
