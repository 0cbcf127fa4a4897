import type { Evalite } from "evalite";
import { describe, expect, it } from "vitest";
import { type Baseline, emptyBaseline } from "./baseline.js";
import { evalRow, failedTests, gateOptions, output, recordedRun, row, suite } from "./test-data/gate.js";
import { barsHeld, faultReasons, type GateOptions, type Judged, judgeRun, type RecordedRun } from "./judge-run.js";

/** One retrieval suite: a case per nDCG@10 value. */
const search = (values: readonly number[]): Evalite.Exported.Output =>
  output([
    suite(
      "Search",
      values.map((v, i) => row({ id: `q${i + 1}`, scores: { "nDCG@10": v } })),
    ),
  ]);

/** An answer suite whose cases scored `failed` (the model failed), beside `scored` cases that were answered. */
const answers = (failed: number, scored = 0): Evalite.Exported.Suite =>
  suite("Answers [slim]", [
    ...Array.from({ length: failed }, (_, i) =>
      evalRow({
        input: { id: `a${i + 1}`, question: "How?" },
        output: { error: "answer model stub failed: 500" },
        scores: [
          {
            id: 1,
            name: "Answer includes",
            score: 0,
            metadata: { status: "failed", error: "answer model stub failed: 500 Internal Server Error" },
            createdAt: "2026-11-29 12:00:00",
          },
        ],
      }),
    ),
    ...Array.from({ length: scored }, (_, i) =>
      evalRow({
        input: { id: `b${i + 1}`, question: "How?" },
        output: { answer: "x" },
        scores: [{ id: 1, name: "Answer includes", score: 1, createdAt: "2026-11-29 12:00:00" }],
      }),
    ),
  ]);

const STRONG = search([0.9, 0.8, 0.9, 0.8]);
const WEAK = search([0.3, 0.2, 0.3, 0.2]);

/** Floors and recorded cases set from the strong run (nDCG@10 all 0.85 → floor 0.79). */
function floored(): Baseline {
  const b = emptyBaseline();
  const first = judgeRun(recordedRun(STRONG), b, gateOptions({ updateBaseline: true, reason: "first" }));
  if (first.kind !== "judged") throw new Error(first.kind);
  return first.baseline;
}

/** Deep-frozen: any write to it throws, so a judge that mutates its input fails the test. */
function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

function judged(run: RecordedRun, baseline: Baseline, options: Partial<GateOptions> = {}): Judged {
  const j = judgeRun(run, frozen(structuredClone(baseline)), gateOptions(options));
  if (j.kind !== "judged") throw new Error(`expected a verdict, got ${j.kind}: ${j.kind === "refused" ? j.error.message : ""}`);
  return j;
}

const floor = (b: Baseline): number | undefined => b.floors.offline?.Search?.["nDCG@10"]?.all;

describe("judgeRun: the verdict, decided once", () => {
  const base = floored();

  it.each([
    {
      name: "a run as good as its floors passes",
      run: recordedRun(STRONG),
      options: {},
      exitStatus: 0,
      reasons: [],
      floor: 0.79,
    },
    {
      name: "a run below its floors fails, naming the floors and the regressed cases",
      run: recordedRun(WEAK),
      options: {},
      exitStatus: 1,
      reasons: ["4 case(s) regressed", "1 floor(s) fell or went missing"],
      floor: 0.79,
    },
    {
      name: "lower, then check: an explicit lowering is what the run is held to (the regressed cases still fail it)",
      run: recordedRun(WEAK),
      options: { lowerFloors: ["Search"], reason: "accept the weaker ranking" },
      exitStatus: 1,
      reasons: ["4 case(s) regressed"],
      floor: 0.19,
    },
    {
      name: "lower and accept: the floors and the recorded cases both take the weaker run, which then passes",
      run: recordedRun(WEAK),
      options: { lowerFloors: ["Search"], acceptFailures: ["Search"], reason: "accept the weaker ranking" },
      exitStatus: 0,
      reasons: [],
      floor: 0.19,
    },
    {
      name: "check, then raise: --update-baseline never lowers, and the run is held to the floors as they were",
      run: recordedRun(WEAK),
      options: { updateBaseline: true },
      exitStatus: 1,
      reasons: ["4 case(s) regressed", "1 floor(s) fell or went missing"],
      floor: 0.79,
    },
    {
      name: "a better run raises the floors, and passes the floors it had before the raise",
      run: recordedRun(search([1, 1, 1, 1])),
      options: { updateBaseline: true },
      exitStatus: 0,
      reasons: [],
      floor: 0.94,
    },
    {
      name: "not raised when an eval failed in the run",
      run: recordedRun(search([1, 1, 1, 1]), { evalite: failedTests(1) }),
      options: { updateBaseline: true },
      exitStatus: 1,
      reasons: ["1 test(s) failed with no failed eval in Evalite's results"],
      floor: 0.79,
      notRaised: "an eval failed in this run",
    },
    {
      name: "not raised when a case errored because a model failed",
      run: recordedRun(output([...STRONG.suites, answers(1, 3)])),
      options: { updateBaseline: true },
      exitStatus: 1,
      reasons: [
        '1 case(s) errored: the target, a model or the task failed (Answers [slim] 1): "answer model stub failed: 500 Internal Server Error" ×1',
      ],
      floor: 0.79,
      notRaised: "1 case(s) errored in this run (the target, a model or the task failed)",
    },
    {
      name: "--threshold N makes Evalite's mean part of the verdict",
      run: recordedRun(STRONG),
      options: { threshold: 90 },
      exitStatus: 1,
      reasons: ["Evalite's mean 85.0 % is below --threshold 90 %"],
      floor: 0.79,
    },
    {
      name: "evalite.config.ts's threshold is recorded, never applied",
      run: recordedRun(STRONG),
      options: { configuredThreshold: 90 },
      exitStatus: 0,
      reasons: [],
      floor: 0.79,
    },
  ])("$name", ({ run, options, exitStatus, reasons, floor: expected, notRaised }) => {
    const j = judged(run, base, options);
    expect(j.exitStatus).toBe(exitStatus);
    expect(j.verdict).toEqual({ status: exitStatus === 0 ? "pass" : "fail", exitStatus, statusReasons: reasons });
    // The report records the verdict it was given.
    expect(j.report).toMatchObject({ status: j.verdict.status, exitStatus, statusReasons: reasons });
    expect(floor(j.baseline)).toBe(expected);
    expect(j.notRaised).toBe(notRaised ?? null);
    expect(j.writeBaseline).toBe(j.changes.length > 0 || j.caseChanges.length > 0);
    expect(j.log.flatMap((entry) => entry.changes)).toEqual(j.changes);
  });

  it("a run slower than a latency ceiling fails, naming it; the same run within the ceiling passes", () => {
    const timed = (ms: number) =>
      output([
        suite(
          "Search",
          [0.9, 0.8, 0.9, 0.8].map((v, i) => row({ id: `q${i + 1}`, scores: { "nDCG@10": v }, elapsedMs: ms })),
        ),
      ]);
    const ceiled: Baseline = { ...base, ceilings: { offline: { Search: { all: 2000 } } } };
    const slow = judged(recordedRun(timed(9000)), ceiled);
    expect(slow.verdict).toEqual({ status: "fail", exitStatus: 1, statusReasons: ["1 latency ceiling(s) exceeded or went missing"] });
    expect(slow.report.gate.ceilings).toMatchObject({ checked: 1, exceeded: 1, missing: 0 });
    expect(slow.report.gate.ceilings.failures.map((c) => c.key)).toEqual(["Search|p95 ms|all"]);
    const quick = judged(recordedRun(timed(5)), ceiled);
    expect(quick.verdict).toEqual({ status: "pass", exitStatus: 0, statusReasons: [] });
    expect(quick.report.gate.ceilings).toMatchObject({ checked: 1, exceeded: 0, missing: 0 });
  });

  it("never changes the baseline it is given; the new one is a new value, logged once per action", () => {
    const given = floored();
    const before = structuredClone(given);
    const j = judged(recordedRun(WEAK), given, { lowerFloors: ["Search|nDCG@10"], acceptFailures: ["Search|q1"], reason: "why" });
    expect(given).toEqual(before);
    expect(j.baseline).not.toBe(given);
    expect(j.log).toEqual([
      {
        date: "2026-11-29T12:00:00.000Z",
        commit: "0123456789abcdef0123456789abcdef01234567",
        mode: "offline",
        action: "lower",
        reason: "why",
        changes: j.changes,
        cases: [{ key: "Search|q1", from: "pass", to: "fail" }],
      },
    ]);
    expect(j.baseline.log).toEqual([...before.log, ...j.log]);
    expect(j.report.gate.changes).toEqual(j.changes);
    expect(j.report.gate.cases.changes).toEqual(j.caseChanges);
  });

  it("an older baseline is written as the current version by --update-baseline, even when nothing moved", () => {
    expect(judged(recordedRun(STRONG), base, { upgradedFrom: 1 }).writeBaseline).toBe(false);
    const rewrite = judged(recordedRun(STRONG), base, { upgradedFrom: 1, updateBaseline: true });
    expect(rewrite.changes).toEqual([]);
    expect(rewrite.writeBaseline).toBe(true);
  });
});

describe("judgeRun: what it refuses (exit 2, nothing written)", () => {
  const base = floored();

  it.each([
    {
      name: "a --pass-mark for a metric nobody measures names the flag",
      baseline: base,
      options: { passMarks: [{ metric: "nDCG@11", mark: 0.5 }] },
      message: '--pass-mark nDCG@11=…: no metric "nDCG@11" in this run or the baseline\'s floors (metrics: nDCG@10)',
    },
    {
      name: "the same typo in the baseline names the file and the field",
      baseline: { ...base, passMarks: { default: 0.5, metrics: { "nDCG@11": 0.6 } as Record<string, number> } },
      options: { baselineShown: "evals/my-baseline.json" },
      message:
        'evals/my-baseline.json: /passMarks/metrics/nDCG@11: no metric "nDCG@11" in this run or the baseline\'s floors (metrics: nDCG@10)',
    },
    {
      name: "a mark for a metric only the baseline floors is not a typo",
      baseline: { ...base, passMarks: { default: 0.5, metrics: { "nDCG@10": 0.6 } as Record<string, number> } },
      options: {},
      message: null,
    },
    {
      name: "--lower-floor matching no floor",
      baseline: base,
      options: { lowerFloors: ["Nope"], reason: "r" },
      message: '--lower-floor "Nope": no offline floor or ceiling matches (keys are eval|metric|slice; a ceiling\'s metric is "p95 ms")',
    },
    {
      name: "--accept-failure matching no failing case",
      baseline: base,
      options: { acceptFailures: ["Search|q1"], reason: "r" },
      message: '--accept-failure "Search|q1": every matched case passes in this run',
    },
  ])("$name", ({ baseline, options, message }) => {
    const j = judgeRun(recordedRun(STRONG), frozen(structuredClone(baseline)), gateOptions(options));
    if (message === null) expect(j.kind).toBe("judged");
    else expect(j).toMatchObject({ kind: "refused", exitStatus: 2, error: { name: "ConfigError", message } });
  });

  it("a target whose ids name none of the dataset's documents is refused before any verdict, naming both namings", () => {
    const foreign = output([
      suite(
        "Search (BM25)",
        Array.from({ length: 12 }, (_, i) => row({ id: `q${i + 1}`, scores: { "nDCG@10": 0 } })).map((r, i) => ({
          ...r,
          output: { mode: "search", target: "module m", results: [{ docId: `kb-${i}` }], unknownDocs: [`kb-${i}`] },
        })),
      ),
    ]);
    const j = judgeRun(recordedRun(foreign, { datasetIds: ["en/a.md", "en/b.md", "de/c.md"] }), emptyBaseline(), gateOptions());
    expect(j.kind).toBe("refused");
    if (j.kind !== "refused") return;
    expect(j.exitStatus).toBe(2);
    expect(j.error.message).toMatch(
      /^module m: 12 of 12 results name documents the dataset does not hold \(returned: "kb-0", "kb-1", "kb-2"; the dataset's: "en\/a\.md", "en\/b\.md", "de\/c\.md"\)/,
    );
  });

  it("a run Evalite did not record is exit 1 with the files that did not load, and no report", () => {
    expect(judgeRun({ output: null, evalite: { failedTests: 0, unloadedFiles: ["evals/broken.eval.ts"] } }, base, gateOptions())).toEqual({
      kind: "unrecorded",
      exitStatus: 1,
      reason:
        "Evalite recorded no run (every eval file failed to load, or every eval was skipped); its output above says why (did not load: evals/broken.eval.ts)",
    });
  });
});

describe("judgeRun: a run with no floors (not gated) passes only when nothing failed", () => {
  const ungated = emptyBaseline();

  it.each([
    { name: "every case measured, whatever the scores", suites: [answers(0, 2), ...search([0.1, 0]).suites], exitStatus: 0, reasons: [] },
    {
      name: "one case the model failed to answer, the rest scored",
      suites: [answers(1, 29)],
      exitStatus: 1,
      reasons: [
        '1 case(s) errored: the target, a model or the task failed (Answers [slim] 1): "answer model stub failed: 500 Internal Server Error" ×1',
      ],
    },
    {
      name: "every answer failed",
      suites: [answers(3)],
      exitStatus: 1,
      reasons: [
        "nothing could be scored: 3 case(s), not scored: failed 3",
        '3 case(s) errored: the target, a model or the task failed (Answers [slim] 3): "answer model stub failed: 500 Internal Server Error" ×3',
      ],
    },
    {
      name: "a task that threw",
      suites: [suite("Search", [row({ id: "q1", scores: { "nDCG@10": 1 } }), row({ id: "q2", scores: {}, error: "target down" })])],
      evalite: failedTests(1),
      exitStatus: 1,
      reasons: [
        "1 eval(s) failed: Search",
        '1 case(s) errored: the target, a model or the task failed (Search 1): "the task threw: Error: target down" ×1',
      ],
    },
  ])("$name", ({ suites, evalite, exitStatus, reasons }) => {
    const j = judged(recordedRun(output(suites), evalite ? { evalite } : {}), ungated);
    expect(j.report.gate.checked + j.report.gate.ceilings.checked).toBe(0);
    // Nothing failed and nothing held a bar: never a pass.
    expect(j.verdict).toEqual({ status: exitStatus === 0 ? "not-gated" : "fail", exitStatus, statusReasons: reasons });
  });
});

describe("judgeRun: PASS means something held a bar", () => {
  const withoutFloors = (b: Baseline): Baseline => ({ ...b, floors: {}, ceilings: {} });
  const answered = output([answers(0, 4)]);
  /** Three questions judged by their verdict score, two of them passing. */
  const questions = output([
    suite(
      "Answers: questions",
      [true, true, false].map((pass, i) =>
        evalRow({
          input: { id: `g${i + 1}`, question: "Which?" },
          output: { answer: "x" },
          scores: [
            {
              id: 1,
              name: "Question verdict",
              score: pass ? 1 : 0,
              metadata: { verdict: { pass, failed: pass ? [] : ["Answer includes"] } },
              createdAt: "2026-11-29 12:00:00",
            },
          ],
        }),
      ),
    ),
  ]);

  it.each([
    { name: "floors checked", run: recordedRun(STRONG), baseline: floored(), options: {}, status: "pass" },
    {
      name: "recorded cases compared, with no floor",
      run: recordedRun(STRONG),
      baseline: withoutFloors(floored()),
      options: {},
      status: "pass",
    },
    {
      name: "a binding --threshold met",
      run: recordedRun(answered),
      baseline: emptyBaseline(),
      options: { threshold: 50 },
      status: "pass",
    },
    {
      name: "the dataset's own pass rate held over the questions measured",
      run: recordedRun(questions),
      baseline: emptyBaseline(),
      options: {},
      datasetGate: { minPassRate: 0.5, eval: "Answers: questions", source: "golden.json gate" },
      status: "pass",
    },
    {
      name: "evalite.config.ts's threshold alone (recorded, not binding)",
      run: recordedRun(answered),
      baseline: emptyBaseline(),
      options: { configuredThreshold: 50 },
      status: "not-gated",
    },
    {
      name: "the dataset's thresholds over no question this run measured (a search-only run)",
      run: recordedRun(STRONG),
      baseline: emptyBaseline(),
      options: {},
      datasetGate: { minPassRate: 0.5, eval: "Answers: questions", source: "golden.json gate" },
      status: "not-gated",
    },
    {
      name: "recorded cases of another mode only",
      run: recordedRun(STRONG, { runInfo: { ...recordedRun(STRONG).runInfo, mode: "live" } }),
      baseline: withoutFloors(floored()),
      options: {},
      status: "not-gated",
    },
  ])("$name: $status", ({ run, baseline, options, datasetGate, status }) => {
    const j = judged(datasetGate ? { ...run, datasetGate } : run, baseline, options);
    expect(j.verdict).toEqual({ status, exitStatus: 0, statusReasons: [] });
    expect(j.report.status).toBe(status);
  });

  it("--require-gate turns a run that held no bar into a failure naming why, and leaves a held run a pass", () => {
    const ungated = judged(recordedRun(search([0.9, 0.8])), emptyBaseline(), { requireGate: true });
    expect(ungated.verdict.status).toBe("fail");
    expect(ungated.exitStatus).toBe(1);
    expect(ungated.verdict.statusReasons).toEqual([
      "--require-gate: no floor, latency ceiling, recorded case or threshold held this run (pnpm eval --update-baseline sets floors)",
    ]);
    expect(judged(recordedRun(STRONG), floored(), { requireGate: true }).verdict).toEqual({
      status: "pass",
      exitStatus: 0,
      statusReasons: [],
    });
    // A failure stays the failure it is: --require-gate adds no second reason.
    expect(judged(recordedRun(output([answers(1, 1)])), emptyBaseline(), { requireGate: true }).verdict.statusReasons).toHaveLength(1);
  });

  it("barsHeld names each bar the run held, and only checked floors and ceilings count", () => {
    const j = judged(recordedRun(STRONG), floored(), {});
    expect(
      barsHeld({
        gate: { ...j.report.gate, checks: j.report.gate.checks } as never,
        ceilings: [],
        cases: { statuses: {}, gone: [], recorded: true },
        datasetGate: null,
        evaliteThreshold: { threshold: null, binding: false } as never,
      }),
    ).toEqual(["1 floor(s)"]);
    const notRun = j.report.gate.checks.map((c) => ({ ...c, status: "not-run" as const }));
    expect(
      barsHeld({
        gate: { checks: notRun } as never,
        ceilings: [],
        cases: { statuses: { "Search|q1": "new-pass" }, gone: [], recorded: true },
        datasetGate: null,
        evaliteThreshold: { threshold: 80, binding: false } as never,
      }),
    ).toEqual([]);
  });
});

describe("faultReasons", () => {
  it("counts verdict units, names the suites that judge them and the most frequent errors first, each quoted and bounded", () => {
    const long = "x".repeat(500);
    const faults = [
      { unit: "Q [slim]|a1", suite: "Facts [slim]", id: "a1", errors: ["timeout"] },
      { unit: "Q [slim]|a1", suite: "Q [slim]", id: "a1", errors: ["timeout", "timeout"] },
      { unit: "Q [quality]|a1", suite: "Q [quality]", id: "a1", errors: ["500"] },
      { unit: "Order|a1", suite: "Order", id: "a1", errors: [long, "empty", "other"] },
    ];
    expect(faultReasons(faults)).toEqual([
      `3 case(s) errored: the target, a model or the task failed (Q [slim] 1, Q [quality] 1, Order 1): "timeout" ×3, "500" ×1, "${"x".repeat(200)}"… (500 characters) ×1, and 2 more error(s)`,
    ]);
    expect(faultReasons([])).toEqual([]);
  });
});

describe("the judge's trust and the run's cost in the verdict", () => {
  /** A triad suite whose Faithfulness, judged by the model, alternates 1, 0 over three trials of each case. */
  const flipping = (cases: number): Evalite.Exported.Output =>
    output([
      suite(
        "Answers: RAG triad [slim]",
        Array.from({ length: cases }, (_, i) =>
          [1, 0, 1].map((score) =>
            evalRow({
              input: { id: `a${i + 1}`, question: "How?" },
              output: { answer: "x" },
              scores: [
                {
                  id: 1,
                  name: "Faithfulness",
                  score,
                  metadata: { grader: "faithfulness", method: "llm-judge", status: "scored", cached: false },
                  createdAt: "2026-11-29 12:00:00",
                },
              ],
            }),
          ),
        ).flat(),
        { group: "Answers: RAG triad", name: "slim" },
      ),
    ]);

  it("a judged metric flipping on every case is unstable: the run fails, the report lists it with its flipping cases", () => {
    const judged = judgeRun(recordedRun(flipping(3)), emptyBaseline(), gateOptions()) as Judged;
    expect(judged.exitStatus).toBe(1);
    expect(judged.report.statusReasons.join("\n")).toMatch(
      /1 judged metric\(s\) unstable over trials, not a gate: Answers: RAG triad \[slim\] › Faithfulness \(llm-judge\) flips on 3 of 3 cases \(100 % > 10 %\)/,
    );
    expect(judged.report.variance?.judge?.metrics[0]).toMatchObject({
      method: "llm-judge",
      cases: 3,
      trials: 3,
      flipRate: 1,
      unstable: true,
    });
    expect(judged.report.variance?.judge?.metrics[0]?.flipped.map((f) => f.id)).toEqual(["a1", "a2", "a3"]);
    // A limit above the flip rate: measured, reported, not unstable.
    const lenient = judgeRun(recordedRun(flipping(3)), emptyBaseline(), gateOptions({ maxFlipRate: 1 })) as Judged;
    expect(lenient.report.statusReasons.join("\n")).not.toMatch(/unstable/);
    expect(lenient.report.variance?.judge?.metrics[0]?.unstable).toBe(false);
  });

  it("a budget stop fails the run saying so; usage and the judge lines are in the report", () => {
    const usage = {
      estimated: false,
      rows: [],
      total: {
        calls: 3,
        cacheHits: 1,
        refused: 2,
        inputTokens: 300,
        outputTokens: 60,
        cachedInputTokens: 0,
        unreported: 0,
        cost: 0.01,
        unknownCostModels: [],
      },
      prices: { source: "test", retrieved: "2026-12-01", override: null },
      budget: { maxCost: 0.01, spent: 0.0098, refused: 2, firstRefused: "judge mock/judge-1" },
    };
    const judged = judgeRun(recordedRun(search([1, 1]), { usage }), emptyBaseline(), gateOptions()) as Judged;
    expect(judged.exitStatus).toBe(1);
    expect(judged.report.statusReasons[0]).toBe(
      "--max-cost $0.01 reached: 2 model call(s) not made (the first: judge mock/judge-1); spent $0.0098; what was scored before is kept",
    );
    expect(judged.report.usage).toEqual(usage);
    const withJudge = judgeRun(recordedRun(flipping(1)), emptyBaseline(), {
      ...gateOptions({ maxFlipRate: 1 }),
      judge: {
        methods: [{ method: "llm-judge", model: "mock/judge-1", judgeConfig: "abc" }],
        calibration: null,
        calibrationPath: "evals/judge-calibration.json",
      },
    }) as Judged;
    expect(withJudge.report.judge.calibration).toEqual([
      "judge: llm-judge mock/judge-1 (prompts abc), κ never measured against human labels (pnpm eval:calibrate <labels>)",
    ]);
  });
});
