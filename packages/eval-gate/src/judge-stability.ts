/**
 * Self-consistency of the judged metrics over trials (`pnpm eval --trials N`): per suite, judged
 * metric and method, how often a case's pass/fail flips between its trials and how far its scores
 * spread; a metric whose flip rate exceeds the limit is **unstable**, and a run with an unstable
 * judged metric does not pass (judge-run.ts): its mean could pass or fail a floor by chance, so it
 * is never gated silently. Pure.
 *
 * - **Judged metric**: a score whose `metadata.grader` is one the suite registers as judged
 *   (scorers/judged-graders.ts: the RAG triad, topic coverage).
 * - **Method**: the `metadata.method` of the case's trials: `llm-judge`, `heuristic`, or `mixed`
 *   when the trials differ (the judge failed in some and the heuristic stood in).
 * - **Cases**: those with at least two scored trials of the metric (a not-scored trial is neither
 *   pass nor fail).
 * - **Flip**: the trials' pass/fail differ (a trial passes when its score reaches the metric's
 *   pass mark). Flip rate = flipping cases ÷ cases. Spread: the mean over cases of the sample SD of
 *   their trials' scores.
 * - With a non-deterministic answerer each trial also judges a new answer, so the flip rate holds
 *   the answers' variance as well as the judge's; `pnpm eval:calibrate --trials N` judges the same
 *   answers N times and measures the judge alone.
 */
import type { CaseRecord } from "./evalite-output.js";
import { passMarkOf, type PassMarks } from "./pass-marks.js";
import { isScored } from "./score-status.js";
import { mean, sd } from "./stats.js";

/** The flip rate above which a judged metric is unstable, unless `--max-flip-rate` says otherwise. */
export const DEFAULT_MAX_FLIP_RATE = 0.1;

export interface MetricStability {
  suite: string;
  metric: string;
  method: string;
  /** Cases with at least two scored trials. */
  cases: number;
  trials: number;
  /** The cases whose pass/fail flipped, with each trial's score. */
  flipped: Array<{ id: string; label: string; scores: number[] }>;
  flipRate: number;
  meanSd: number;
  unstable: boolean;
}

export interface JudgeStability {
  maxFlipRate: number;
  metrics: MetricStability[];
}

export function judgeStability(
  records: readonly CaseRecord[],
  marks: PassMarks,
  judgedGraders: ReadonlySet<string>,
  maxFlipRate = DEFAULT_MAX_FLIP_RATE,
): JudgeStability {
  const groups = new Map<
    string,
    { suite: string; metric: string; method: string; cases: Array<{ id: string; label: string; scores: number[] }> }
  >();
  for (const c of records) {
    if (c.trials.length < 2) continue;
    const byMetric = new Map<string, Array<{ value: number; method: string }>>();
    for (const t of c.trials)
      for (const s of t.scores)
        if (s.grader !== undefined && judgedGraders.has(s.grader) && isScored(s))
          byMetric.set(s.metric, [...(byMetric.get(s.metric) ?? []), { value: s.value, method: s.method ?? "unnamed" }]);
    for (const [metric, trials] of byMetric) {
      if (trials.length < 2) continue;
      const methods = new Set(trials.map((t) => t.method));
      const method = methods.size === 1 ? [...methods][0]! : "mixed";
      const key = `${c.suite}\u0000${metric}\u0000${method}`;
      const group = groups.get(key) ?? { suite: c.suite, metric, method, cases: [] };
      group.cases.push({ id: c.id, label: c.label, scores: trials.map((t) => t.value) });
      groups.set(key, group);
    }
  }
  const metrics = [...groups.values()].map((g) => {
    const mark = passMarkOf(marks, g.metric);
    const flipped = g.cases.filter((c) => new Set(c.scores.map((v) => v >= mark)).size > 1);
    const flipRate = flipped.length / g.cases.length;
    return {
      suite: g.suite,
      metric: g.metric,
      method: g.method,
      cases: g.cases.length,
      trials: Math.max(...g.cases.map((c) => c.scores.length)),
      flipped,
      flipRate,
      meanSd: mean(g.cases.map((c) => sd(c.scores))),
      unstable: flipRate > maxFlipRate,
    };
  });
  return { maxFlipRate, metrics };
}

/** The verdict's reason for the unstable metrics, or none. */
export function instabilityReasons(stability: JudgeStability | null): string[] {
  const unstable = stability?.metrics.filter((m) => m.unstable) ?? [];
  if (unstable.length === 0) return [];
  return [
    `${unstable.length} judged metric(s) unstable over trials, not a gate: ${unstable
      .map(
        (m) =>
          `${m.suite} › ${m.metric} (${m.method}) flips on ${m.flipped.length} of ${m.cases} cases (${pctText(m.flipRate)} > ${pctText(stability!.maxFlipRate)})`,
      )
      .join("; ")}`,
  ];
}

/** The terminal's lines: each judged metric's flip rate, the unstable ones and their flipping cases first. */
export function stabilityLines(stability: JudgeStability | null, limit = 10): string[] {
  if (!stability || stability.metrics.length === 0) return [];
  const sorted = [...stability.metrics].sort((a, b) => Number(b.unstable) - Number(a.unstable) || b.flipRate - a.flipRate);
  const lines = [`judge stability over trials (flip rate limit ${pctText(stability.maxFlipRate)}, --max-flip-rate):`];
  for (const m of sorted) {
    lines.push(
      `  ${m.unstable ? "UNSTABLE " : ""}${m.suite} › ${m.metric} (${m.method}): ${m.flipped.length} of ${m.cases} cases flip (${pctText(m.flipRate)}), mean SD ${m.meanSd.toFixed(3)} over ${m.trials} trials`,
    );
    for (const c of m.flipped.slice(0, limit)) lines.push(`    ${c.id}: ${c.scores.map((v) => v.toFixed(2)).join(" → ")}`);
    if (m.flipped.length > limit) lines.push(`    and ${m.flipped.length - limit} more (the report's variance.judge)`);
  }
  return lines;
}

const pctText = (x: number): string => `${(x * 100).toFixed(0)} %`;
