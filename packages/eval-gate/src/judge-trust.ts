/**
 * Which judged metrics may hold floors: only those whose judge agrees with people. A floor on a
 * judged metric's mean is only as good as the judge that scored it; a judge at chance moves the
 * mean with noise, and a gate on it passes and fails at random.
 *
 * **The bar.** A judged metric **gates** in a run when the calibration beside the baseline
 * (calibration.ts) measured the method that scores it in this run — the judge model, when one is
 * configured, else the heuristic — with the same prompts or rules (`judgeConfig`), and for that
 * metric found Cohen's (or quadratic-weighted) κ ≥ `MIN_KAPPA` (0.4, "moderate") over ≥
 * `MIN_LABELS` (30) labels, with the lower bound of its 95 % interval above 0. Otherwise it is
 * **not gated**: its floors are reported, neither checked nor failed (`not-gated`), and
 * `--update-baseline` sets none and removes those it had, logged with why.
 *
 * **Gating anyway.** The baseline's `gateJudgedAnyway` (`{ "<metric>": "why" }`) makes a metric
 * gate whatever its calibration; the verdict says so, with the reason, every run.
 *
 * Pure: the calibration, the methods and the metric names come in.
 */
import { type Calibration, estimateText, type JudgeMethod, methodName } from "./calibration.js";

/** κ from which a judged metric gates (Landis and Koch's "moderate" starts at 0.41). */
export const MIN_KAPPA = 0.4;
/** Labels from which a judged metric's κ is read as a measurement: fewer give intervals that say little. */
export const MIN_LABELS = 30;

export interface JudgedMetricTrust {
  /** The metric as floors name it (the Evalite scorer's name). */
  metric: string;
  /** The grader id its scores carry (the calibration's metric). */
  grader: string;
  /** The judge method that scores it in this run: `heuristic` or `llm-judge <model>`. */
  method: string;
  gated: boolean;
  /** The calibration it is judged by: `heuristic κ 0.00 [0.00, 0.00] vs 12 labels`, or why there is none. */
  evidence: string;
  /** Set when it gates only because the baseline says so (`gateJudgedAnyway`): the reason given there. */
  gatedAnyway?: string;
}

/** The bar in words, for the lines that say a metric is not gated. */
export const TRUST_BAR = `a judged metric gates from κ ≥ ${MIN_KAPPA} over ≥ ${MIN_LABELS} labels with its interval above 0`;

/**
 * Every judged metric's standing (module comment). `graders`: grader id → the metric's name;
 * `method`: the judge method of the run's configuration.
 */
export function judgeTrust(input: {
  graders: Readonly<Record<string, string>>;
  method: JudgeMethod & { judgeConfig: string | null };
  calibration: Calibration | null;
  gateAnyway?: Readonly<Record<string, string>>;
}): JudgedMetricTrust[] {
  const { method, calibration } = input;
  const measured = calibration?.methods.find((m) => m.method === method.method && m.model === method.model);
  return Object.entries(input.graders).map(([grader, metric]) => {
    let gated = false;
    let evidence: string;
    if (!calibration || !measured) evidence = `${methodName(method)}: κ never measured against human labels`;
    else if (measured.judgeConfig !== method.judgeConfig)
      evidence = `${methodName(method)}: κ measured for other ${method.method === "heuristic" ? "rules" : "prompts"}`;
    else {
      const m = measured.metrics.find((x) => x.metric === grader);
      if (!m) evidence = `${methodName(method)}: no labels of ${grader}`;
      else {
        evidence = `${methodName(method)} κ ${estimateText(m.kappa)} vs ${m.labels} labels`;
        gated = m.labels >= MIN_LABELS && m.kappa.value !== null && m.kappa.value >= MIN_KAPPA && m.kappa.ci !== null && m.kappa.ci[0] > 0;
      }
    }
    const anyway = input.gateAnyway?.[metric];
    return {
      metric,
      grader,
      method: methodName(method),
      gated: gated || anyway !== undefined,
      evidence,
      ...(anyway !== undefined && !gated ? { gatedAnyway: anyway } : {}),
    };
  });
}

/** The metrics that do not gate, by name, with the line that says why (`not gated: heuristic κ 0.00 … vs 12 labels`). */
export function notGated(trust: readonly JudgedMetricTrust[]): Map<string, string> {
  return new Map(trust.filter((t) => !t.gated).map((t) => [t.metric, `not gated: ${t.evidence}`]));
}

/** The verdict's lines about judged metrics: each not gated (why), each gated anyway (the baseline's reason). */
export function trustLines(trust: readonly JudgedMetricTrust[], baselineShown: string): string[] {
  const lines: string[] = [];
  const ungated = trust.filter((t) => !t.gated);
  if (ungated.length > 0) {
    lines.push(`gate: ${ungated.length} judged metric(s) not gated (${TRUST_BAR}; their floors are reported, not checked):`);
    for (const t of ungated) lines.push(`  ${t.metric}: not gated: ${t.evidence}`);
  }
  for (const t of trust.filter((x) => x.gatedAnyway !== undefined))
    lines.push(
      `gate: ${t.metric} gated although its judge falls short (${t.evidence}): ${baselineShown} /gateJudgedAnyway says ${JSON.stringify(t.gatedAnyway)}`,
    );
  return lines;
}
