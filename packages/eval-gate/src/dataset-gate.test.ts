import { describe, expect, it } from "vitest";
import { checkDatasetGate, type DatasetGate, datasetGateReason } from "./dataset-gate.js";
import type { VerdictUnit } from "./verdicts.js";

type QuestionUnit = Pick<VerdictUnit, "suite" | "eval" | "kind" | "outcome" | "latencyMs">;

const q = (suite: string, outcome: QuestionUnit["outcome"], latencyMs: number | null): QuestionUnit => ({
  suite,
  eval: "Answers: questions",
  kind: "question",
  outcome,
  latencyMs,
});
const GATE: DatasetGate = { minPassRate: 0.6, maxP95LatencyMs: 100, source: "golden_qa.json /thresholds", eval: "Answers: questions" };
const SUITE = "Answers: questions [offline extractive]";

describe("a dataset's own gate, held with the golden Q&A tool's semantics", () => {
  it("passes when the share of passed questions reaches minPassRate and the p95 latency stays within maxP95LatencyMs", () => {
    const units = [q(SUITE, "pass", 10), q(SUITE, "pass", 20), q(SUITE, "pass", 30), q(SUITE, "fail", 40), q(SUITE, "fail", 100)];
    const result = checkDatasetGate(GATE, units);
    expect(result).toEqual({
      minPassRate: 0.6,
      maxP95LatencyMs: 100,
      source: "golden_qa.json /thresholds",
      checks: [{ suite: SUITE, questions: 5, passed: 3, passRate: 0.6, p95LatencyMs: 100, passRateOk: true, latencyOk: true }],
      pass: true,
    });
    expect(datasetGateReason(result)).toBeNull();
  });

  it("fails below the pass rate, or above the latency; an errored question counts as not passed", () => {
    const low = checkDatasetGate(GATE, [q(SUITE, "pass", 10), q(SUITE, "error", 10), q(SUITE, "fail", 10)]);
    expect(low.checks[0]).toMatchObject({ passed: 1, passRateOk: false, latencyOk: true });
    expect(low.pass).toBe(false);
    expect(datasetGateReason(low)).toBe(`the dataset's thresholds (golden_qa.json /thresholds) did not hold on ${SUITE}`);
    const slow = checkDatasetGate(GATE, [q(SUITE, "pass", 10), q(SUITE, "pass", 101)]);
    expect(slow.checks[0]).toMatchObject({ p95LatencyMs: 101, passRateOk: true, latencyOk: false });
  });

  it("holds every preset's answer suite separately, reads only the question verdicts, and holds only the thresholds the dataset sets", () => {
    const units: QuestionUnit[] = [
      q("Answers: questions [slim]", "fail", 10),
      q("Answers: questions [quality]", "pass", 10),
      { ...q("Search (BM25)", "fail", 1), eval: "Search (BM25)", kind: "case" },
    ];
    const result = checkDatasetGate({ minPassRate: 1, source: "s", eval: "Answers: questions" }, units);
    expect(result.checks.map((c) => [c.suite, c.passRateOk, c.latencyOk])).toEqual([
      ["Answers: questions [slim]", false, null],
      ["Answers: questions [quality]", true, null],
    ]);
    expect(result.pass).toBe(false);
  });

  it("a latency unknown for a question leaves the p95 unknown, which does not hold a latency threshold; no question measured is not checked, not failed", () => {
    const unknown = checkDatasetGate(GATE, [q(SUITE, "pass", 10), q(SUITE, "error", null)]);
    expect(unknown.checks[0]).toMatchObject({ p95LatencyMs: null, latencyOk: false });
    const none = checkDatasetGate(GATE, []);
    expect(none).toMatchObject({ checks: [], pass: true });
  });
});
