/**
 * A dataset's own gate (a golden Q&A set's `thresholds`, or `gate` in the suite's ask-cases.json),
 * held as the golden Q&A tool holds it: over all the questions of the answer eval (`eval`: its
 * name, which the suite gives), the share that passed — a question unit whose verdict held every
 * expectation; an errored question did not pass — must be at least `minPassRate`, and the p95 of
 * their latency (nearest rank, the gate's p95) at most `maxP95LatencyMs`. With several answer
 * suites (one per preset with models), each is held to the thresholds. Questions not measured in
 * the run (filtered out, skipped) leave the thresholds unchecked: the verdict says so and does not
 * fail on them. Pure.
 */
import type { DatasetGateResult } from "./report.js";
import { percentile } from "./stats.js";
import type { VerdictUnit } from "./verdicts.js";

/** The settings a dataset brings, and which eval's questions they hold. */
export interface DatasetGate {
  /** Share of questions that must pass (0..1). */
  minPassRate?: number;
  /** The largest p95 answer latency (ms). */
  maxP95LatencyMs?: number;
  /** Where the settings were read (file and field), for the verdict's line. */
  source: string;
  /** The eval whose question verdicts the thresholds read ("Answers: questions"). */
  eval: string;
}

export function checkDatasetGate(
  gate: DatasetGate,
  units: ReadonlyArray<Pick<VerdictUnit, "suite" | "eval" | "kind" | "outcome" | "latencyMs">>,
): DatasetGateResult {
  const bySuite = new Map<string, Array<(typeof units)[number]>>();
  for (const u of units) if (u.kind === "question" && u.eval === gate.eval) bySuite.set(u.suite, [...(bySuite.get(u.suite) ?? []), u]);
  const checks = [...bySuite].map(([suite, questions]) => {
    const passed = questions.filter((q) => q.outcome === "pass").length;
    const passRate = passed / questions.length;
    const latencies = questions.map((q) => q.latencyMs).filter((l): l is number => l !== null);
    // A question without a latency (it failed before answering) leaves a p95 over all questions unknown.
    const p95LatencyMs = latencies.length === questions.length ? percentile(latencies, 95) : null;
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

/** Why the run fails on the dataset's gate (one of the verdict's reasons), or null when it holds. */
export function datasetGateReason(result: DatasetGateResult): string | null {
  if (result.pass) return null;
  const failed = result.checks.filter((c) => c.passRateOk === false || c.latencyOk === false).map((c) => c.suite);
  return `the dataset's thresholds (${result.source}) did not hold on ${failed.join(", ")}`;
}
