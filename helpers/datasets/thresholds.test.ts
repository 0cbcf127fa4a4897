import { checkDatasetGate } from "@hybrid-search/eval-gate/dataset-gate";
import { describe, expect, it } from "vitest";
import { datasetGateLines, QUESTIONS_EVAL } from "./thresholds.js";

const SUITE = "Answers: questions [offline extractive]";
const q = (outcome: "pass" | "fail" | "error", latencyMs: number | null) => ({
  suite: SUITE,
  eval: QUESTIONS_EVAL,
  kind: "question" as const,
  outcome,
  latencyMs,
});
const GATE = { minPassRate: 0.6, maxP95LatencyMs: 100, source: "golden_qa.json /thresholds", eval: QUESTIONS_EVAL };

describe("the verdict's lines for a dataset's own gate", () => {
  it("say each suite's pass rate and p95 against the thresholds, and which failed", () => {
    expect(datasetGateLines(checkDatasetGate(GATE, [q("pass", 10), q("pass", 20), q("pass", 30), q("fail", 40), q("fail", 100)]))).toEqual([
      `gate: dataset thresholds (golden_qa.json /thresholds) on ${SUITE}: pass rate 0.600 (3/5) ≥ 0.6; p95 latency 100 ms ≤ 100 ms`,
    ]);
    expect(datasetGateLines(checkDatasetGate(GATE, [q("pass", 10), q("error", 10), q("fail", 10)]))[0]).toContain(
      "pass rate 0.333 (1/3) < 0.6: FAIL",
    );
    expect(datasetGateLines(checkDatasetGate(GATE, [q("pass", 10), q("pass", 101)]))[0]).toContain("p95 latency 101 ms > 100 ms: FAIL");
    expect(datasetGateLines(checkDatasetGate(GATE, [q("pass", 10), q("error", null)]))[0]).toContain(
      "p95 latency not known (a question has none)",
    );
  });

  it("say when no question was measured: not checked", () => {
    expect(datasetGateLines(checkDatasetGate(GATE, []))).toEqual([
      'gate: dataset thresholds (golden_qa.json /thresholds: pass rate ≥ 0.6, p95 latency ≤ 100 ms): not checked, no question of "Answers: questions" was measured in this run',
    ]);
  });
});
