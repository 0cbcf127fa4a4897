import { describe, expect, it } from "vitest";
import { checkPassMarkNames, defaultPassMarks, parsePassMark, passMarkOf, withFlags } from "./pass-marks.js";

describe("pass marks", () => {
  it("default 0.5, per-metric marks from the baseline, the command line on top ('*' the default)", () => {
    const marks = withFlags({ default: 0.5, metrics: { "nDCG@10": 0.6 } }, [parsePassMark("Recall@5=0.25"), parsePassMark("*=0.4")]);
    expect(marks).toEqual({ default: 0.4, metrics: { "nDCG@10": 0.6, "Recall@5": 0.25 } });
    expect(passMarkOf(marks, "MRR@10")).toBe(0.4);
    expect(passMarkOf(defaultPassMarks(), "anything")).toBe(0.5);
  });

  it("a malformed --pass-mark is one line naming it", () => {
    for (const raw of ["nDCG@10", "nDCG@10=", "=0.5", "nDCG@10=1.5", "nDCG@10=high"])
      expect(() => parsePassMark(raw)).toThrow(`--pass-mark ${JSON.stringify(raw)}: must be <metric>=<number from 0 to 1>`);
  });

  it("a mark for a metric nobody measures is refused, naming where it was set", () => {
    const known = new Set(["nDCG@10", "MRR@10"]);
    expect(() => checkPassMarkNames({ default: 0.5, metrics: { "nDCG@10": 0.6 } }, known, () => "x")).not.toThrow();
    expect(() =>
      checkPassMarkNames({ default: 0.5, metrics: { "nDCG@11": 0.6 } }, known, (m) => `evals/baseline.json: /passMarks/metrics/${m}`),
    ).toThrow(
      'evals/baseline.json: /passMarks/metrics/nDCG@11: no metric "nDCG@11" in this run or the baseline\'s floors (metrics: MRR@10, nDCG@10)',
    );
  });
});
