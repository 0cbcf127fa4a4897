/**
 * Which judged metrics may hold floors (judge-trust.ts), and what the gate does with the others:
 * their floors are not checked, --update-baseline sets none and removes those there were (logged
 * with the calibration's figures), and the baseline's gateJudgedAnyway makes one gate, said so.
 */
import type { Evalite } from "evalite";
import { describe, expect, it } from "vitest";
import { type Baseline, emptyBaseline } from "./baseline.js";
import type { Calibration, Estimate, MetricCalibration } from "./calibration.js";
import { gateOptions, output, recordedRun, row, suite } from "./test-data/gate.js";
import { type GateOptions, type Judged, judgeRun } from "./judge-run.js";
import { judgeTrust, MIN_KAPPA, MIN_LABELS, notGated, trustLines } from "./judge-trust.js";

const GRADERS = { faithfulness: "Faithfulness", "topic-coverage": "Topic coverage" };
const HEURISTIC = { method: "heuristic" as const, model: null, judgeConfig: "heuristic-v2" };

function metric(id: string, labels: number, kappa: Estimate): MetricCalibration {
  return {
    metric: id,
    scale: "pass-fail",
    labels,
    cases: labels,
    stale: 0,
    notJudged: 0,
    agreement: 0.9,
    kappa,
    kappaKind: "cohen",
    auc: { value: 0.8, ci: [0.7, 0.9] },
    spearman: { value: 0.5, ci: [0.3, 0.7] },
    passMark: 0.5,
    confusion: { tp: 1, fn: 0, fp: 0, tn: 1 },
    bestPassMark: null,
    selfConsistency: null,
  };
}

function calibration(metrics: MetricCalibration[], judgeConfig = "heuristic-v2"): Calibration {
  return {
    version: 2,
    createdAt: "2026-12-04T00:00:00.000Z",
    commit: null,
    labels: { file: "l.jsonl", sha256: "0".repeat(64), count: 100, cases: 50, labellers: ["p"], kind: "answers" },
    passMarks: {},
    methods: [{ method: "heuristic", model: null, judgeConfig, metrics }],
    references: [],
    interAnnotator: [],
  };
}

describe("judgeTrust: κ ≥ 0.4 over ≥ 30 labels with the interval above 0, for this run's method and prompts", () => {
  it("gates a metric only when all three hold", () => {
    const cases: Array<[string, MetricCalibration, boolean]> = [
      ["the bar met", metric("faithfulness", MIN_LABELS, { value: MIN_KAPPA, ci: [0.1, 0.7] }), true],
      ["too few labels", metric("faithfulness", MIN_LABELS - 1, { value: 0.9, ci: [0.6, 1] }), false],
      ["κ below 0.4", metric("faithfulness", 200, { value: 0.39, ci: [0.3, 0.5] }), false],
      ["an interval reaching 0", metric("faithfulness", 40, { value: 0.5, ci: [0, 0.8] }), false],
      ["κ undefined", metric("faithfulness", 40, { value: null, ci: null }), false],
    ];
    for (const [what, m, gated] of cases) {
      const [t] = judgeTrust({ graders: { faithfulness: "Faithfulness" }, method: HEURISTIC, calibration: calibration([m]) });
      expect(t!.gated, what).toBe(gated);
    }
  });

  it("says why a metric is not gated: its κ and labels, no calibration, another version, no labels of it", () => {
    const c = calibration([metric("faithfulness", 12, { value: 0, ci: [0, 0] })]);
    expect(judgeTrust({ graders: GRADERS, method: HEURISTIC, calibration: c }).map((t) => t.evidence)).toEqual([
      "heuristic κ 0.00 [0.00, 0.00] vs 12 labels",
      "heuristic: no labels of topic-coverage",
    ]);
    expect(judgeTrust({ graders: GRADERS, method: HEURISTIC, calibration: null })[0]!.evidence).toBe(
      "heuristic: κ never measured against human labels",
    );
    expect(judgeTrust({ graders: GRADERS, method: { ...HEURISTIC, judgeConfig: "heuristic-v3" }, calibration: c })[0]!.evidence).toBe(
      "heuristic: κ measured for other rules",
    );
    const judge = { method: "llm-judge" as const, model: "mock/j", judgeConfig: "abc" };
    expect(judgeTrust({ graders: GRADERS, method: judge, calibration: c })[0]!.evidence).toBe(
      "llm-judge mock/j: κ never measured against human labels",
    );
    expect([...notGated(judgeTrust({ graders: GRADERS, method: HEURISTIC, calibration: c }))]).toEqual([
      ["Faithfulness", "not gated: heuristic κ 0.00 [0.00, 0.00] vs 12 labels"],
      ["Topic coverage", "not gated: heuristic: no labels of topic-coverage"],
    ]);
  });

  it("gates a metric the baseline names in gateJudgedAnyway, with its reason, and the verdict says so", () => {
    const trust = judgeTrust({
      graders: GRADERS,
      method: HEURISTIC,
      calibration: null,
      gateAnyway: { Faithfulness: "our own labels say 0.6" },
    });
    expect(trust[0]).toMatchObject({ gated: true, gatedAnyway: "our own labels say 0.6" });
    expect(trustLines(trust, "evals/baseline.json")).toEqual([
      "gate: 1 judged metric(s) not gated (a judged metric gates from κ ≥ 0.4 over ≥ 30 labels with its interval above 0; their floors are reported, not checked):",
      "  Topic coverage: not gated: heuristic: κ never measured against human labels",
      'gate: Faithfulness gated although its judge falls short (heuristic: κ never measured against human labels): evals/baseline.json /gateJudgedAnyway says "our own labels say 0.6"',
    ]);
  });
});

// ------------------------------------------------------------------ in the verdict

/** An answer suite: nDCG-free, one Faithfulness score per case (a judged grader's, heuristic). */
const triad = (values: readonly number[]): Evalite.Exported.Output =>
  output([
    suite(
      "Triad",
      values.map((v, i) =>
        row({
          id: `a${i + 1}`,
          scores: { Faithfulness: { score: v, metadata: { grader: "faithfulness", method: "heuristic", status: "scored" } } },
        }),
      ),
    ),
  ]);

const judgeOptions = (c: Calibration | null, over: Partial<GateOptions> = {}): GateOptions =>
  gateOptions({
    judge: {
      methods: [HEURISTIC],
      calibration: c,
      calibrationPath: "evals/judge-calibration.json",
      graders: { faithfulness: "Faithfulness" },
    },
    ...over,
  });

function judged(values: readonly number[], baseline: Baseline, options: GateOptions): Judged {
  const j = judgeRun(recordedRun(triad(values)), baseline, options);
  if (j.kind !== "judged") throw new Error(j.kind);
  return j;
}

describe("the gate and judged metrics below the bar", () => {
  const trusted = calibration([metric("faithfulness", 60, { value: 0.7, ci: [0.5, 0.85] })]);
  const atChance = calibration([metric("faithfulness", 12, { value: 0, ci: [0, 0] })]);
  const withFloor = judged(
    [0.9, 0.9, 0.9, 0.9, 0.9, 0.9],
    emptyBaseline(),
    judgeOptions(trusted, { updateBaseline: true, reason: "first" }),
  ).baseline;

  it("a trusted judge's floor is set and checked: a fall fails the run", () => {
    expect(withFloor.floors.offline?.Triad?.Faithfulness?.all).toBeGreaterThan(0.8);
    const fell = judged([0.1, 0.1, 0.1, 0.1, 0.1, 0.1], withFloor, judgeOptions(trusted));
    expect(fell.exitStatus).toBe(1);
    expect(fell.report.gate.fell).toBe(1);
  });

  it("an untrusted judge's floor is reported, not checked: the same fall passes, saying why", () => {
    // Floors only: a case judged by pass marks alone is still held to its judged metric's mark (docs/gate.md).
    const floorsOnly = { ...withFloor, cases: {} };
    const run = judged([0.1, 0.1, 0.1, 0.1, 0.1, 0.1], floorsOnly, judgeOptions(atChance));
    expect(run.report.statusReasons).toEqual([]);
    expect(run.exitStatus).toBe(0);
    expect(run.report.gate).toMatchObject({ fell: 0, checked: 0, notGated: 1 });
    expect(run.report.gate.checks[0]).toMatchObject({
      status: "not-gated",
      reason: "not gated: heuristic κ 0.00 [0.00, 0.00] vs 12 labels",
      value: expect.closeTo(0.1, 12),
    });
    expect(run.report.judge.trust).toEqual([
      {
        metric: "Faithfulness",
        grader: "faithfulness",
        method: "heuristic",
        gated: false,
        evidence: "heuristic κ 0.00 [0.00, 0.00] vs 12 labels",
      },
    ]);
    // Without the judge options (a caller that names no judged metric), the floor gates as before.
    expect(judgeRun(recordedRun(triad([0.1, 0.1, 0.1, 0.1, 0.1, 0.1])), floorsOnly, gateOptions()).exitStatus).toBe(1);
  });

  it("--update-baseline sets no floor on it and removes the floors it had, logged with the calibration's figures", () => {
    const fresh = judged([0.9, 0.9, 0.9, 0.9, 0.9, 0.9], emptyBaseline(), judgeOptions(atChance, { updateBaseline: true, reason: "r" }));
    expect(fresh.baseline.floors.offline?.Triad).toBeUndefined();
    expect(fresh.report.gate.unfloored).toEqual([]);
    const dropped = judged([0.9, 0.9, 0.9, 0.9, 0.9, 0.9], withFloor, judgeOptions(atChance, { updateBaseline: true, reason: "issue 41" }));
    expect(dropped.baseline.floors.offline?.Triad).toBeUndefined();
    expect(dropped.changes).toEqual([expect.objectContaining({ key: "Triad|Faithfulness|all", to: null, achieved: 0.9 })]);
    expect(dropped.log.at(-1)).toMatchObject({
      action: "lower",
      reason: "issue 41 — floors of judged metrics removed, Faithfulness (not gated: heuristic κ 0.00 [0.00, 0.00] vs 12 labels)",
    });
  });

  it("gateJudgedAnyway makes it gate: the fall fails the run again", () => {
    const anyway = { ...withFloor, cases: {}, gateJudgedAnyway: { Faithfulness: "we accept it" } };
    const run = judged([0.1, 0.1, 0.1, 0.1, 0.1, 0.1], anyway, judgeOptions(atChance));
    expect(run.exitStatus).toBe(1);
    expect(run.report.statusReasons).toEqual(["1 floor(s) fell or went missing"]);
    expect(run.report.judge.trust![0]).toMatchObject({ gated: true, gatedAnyway: "we accept it" });
  });
});
