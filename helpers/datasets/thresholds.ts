/**
 * A dataset's own gate (a golden Q&A set's `thresholds`), held as that format's tool holds it: over
 * all the questions of the answer eval, the share that passed (a question passes when every
 * expectation it states holds: the "Answers: questions" verdict; an errored question did not pass)
 * must be at least `minPassRate`, and the p95 of their answer latency (nearest rank, as the gate's
 * p95) at most `maxP95LatencyMs`; otherwise the run fails (exit 1). With models there is one answer
 * suite per preset: each is held to the thresholds. Questions not measured in this run (filtered
 * out, or skipped because the target does not answer) leave the gate unchecked: said, not failed.
 * Pure.
 */
import type { DatasetGateResult, Report } from "@hybrid-search/eval-gate/report";
import { percentile } from "@hybrid-search/eval-gate/stats";
import type { DatasetGate } from "./model.js";

/** The answer eval whose verdicts the thresholds read (evals/ask.eval.ts). */
export const QUESTIONS_EVAL = "Answers: questions";

/** What the thresholds read of a verdict unit. */
export interface QuestionUnit {
  suite: string;
  eval: string;
  kind: "question" | "case";
  outcome: "pass" | "fail" | "error";
  latencyMs: number | null;
}

export function checkDatasetGate(gate: DatasetGate, units: readonly QuestionUnit[]): DatasetGateResult {
  const bySuite = new Map<string, QuestionUnit[]>();
  for (const u of units) if (u.kind === "question" && u.eval === QUESTIONS_EVAL) bySuite.set(u.suite, [...(bySuite.get(u.suite) ?? []), u]);
  const checks = [...bySuite].map(([suite, questions]) => {
    const passed = questions.filter((q) => q.outcome === "pass").length;
    const passRate = passed / questions.length;
    const latencies = questions.map((q) => q.latencyMs).filter((l): l is number => l !== null);
    // A question without a latency (it errored before answering) cannot be left out of a p95 that must hold for all: then it is not known.
    const p95LatencyMs = latencies.length === questions.length && latencies.length > 0 ? percentile(latencies, 95) : null;
    return {
      suite,
      questions: questions.length,
      passed,
      passRate,
      p95LatencyMs,
      passRateOk: gate.minPassRate === undefined ? null : passRate >= gate.minPassRate,
      latencyOk: gate.maxP95LatencyMs === undefined ? null : p95LatencyMs !== null && p95LatencyMs <= gate.maxP95LatencyMs,
    };
  });
  return {
    minPassRate: gate.minPassRate ?? null,
    maxP95LatencyMs: gate.maxP95LatencyMs ?? null,
    source: gate.source,
    checks,
    pass: checks.every((c) => c.passRateOk !== false && c.latencyOk !== false),
  };
}

/** The verdict's lines for the dataset's gate. */
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

/** Why the run fails on the dataset's gate (a status reason), or null when it holds. */
export function datasetGateReason(result: DatasetGateResult): string | null {
  if (result.pass) return null;
  const failed = result.checks.filter((c) => c.passRateOk === false || c.latencyOk === false).map((c) => c.suite);
  return `the dataset's thresholds (${result.source}) did not hold on ${failed.join(", ")}`;
}

/**
 * Holds the report's run to the dataset's gate, when the dataset brings one: records the result in
 * `report.fixtures.gate`, and a failed check fails the run (status, exit 1, the reason). Returns the
 * verdict's lines (none without a gate).
 */
export function applyDatasetGate(report: Report, gate: DatasetGate | null): string[] {
  if (gate === null) return [];
  const result = checkDatasetGate(gate, report.verdicts);
  report.fixtures.gate = result;
  const reason = datasetGateReason(result);
  if (reason !== null) {
    report.status = "fail";
    report.exitStatus = 1;
    report.statusReasons.push(reason);
  }
  return datasetGateLines(result);
}
