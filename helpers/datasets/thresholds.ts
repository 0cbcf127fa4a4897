/**
 * The verdict's lines for a dataset's own gate (a golden Q&A set's thresholds), which the gate
 * holds (packages/eval-gate/src/dataset-gate.ts) on the questions of the answer eval named here.
 */
import type { DatasetGateResult } from "@hybrid-search/eval-gate/report";

/** The answer eval whose question verdicts a dataset's thresholds read (evals/ask.eval.ts). */
export const QUESTIONS_EVAL = "Answers: questions";

export function datasetGateLines(result: DatasetGateResult): string[] {
  const held = [
    ...(result.minPassRate !== null ? [`pass rate ≥ ${result.minPassRate}`] : []),
    ...(result.maxP95LatencyMs !== null ? [`p95 latency ≤ ${result.maxP95LatencyMs} ms`] : []),
  ].join(", ");
  if (result.checks.length === 0)
    return [
      `gate: dataset thresholds (${result.source}: ${held}): not checked, no question of "${QUESTIONS_EVAL}" was measured in this run`,
    ];
  return result.checks.map((c) => {
    const rate = `pass rate ${c.passRate.toFixed(3)} (${c.passed}/${c.questions})${c.passRateOk === null ? "" : c.passRateOk ? ` ≥ ${result.minPassRate}` : ` < ${result.minPassRate}: FAIL`}`;
    const p95 =
      c.p95LatencyMs === null
        ? "p95 latency not known (a question has none)"
        : `p95 latency ${c.p95LatencyMs.toFixed(0)} ms${c.latencyOk === null ? "" : c.latencyOk ? ` ≤ ${result.maxP95LatencyMs} ms` : ` > ${result.maxP95LatencyMs} ms: FAIL`}`;
    return `gate: dataset thresholds (${result.source}) on ${c.suite}: ${rate}; ${p95}`;
  });
}
