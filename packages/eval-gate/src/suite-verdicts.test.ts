import { describe, expect, it } from "vitest";
import { emptyBaseline } from "./baseline.js";
import { failedTests, output, reportOf, row, suite } from "./test-data/gate.js";
import { sliceCoversVariant, suiteVerdicts } from "./suite-verdicts.js";

describe("suiteVerdicts", () => {
  it("fails exactly the suites the gate failed: a floor or ceiling of their slices, a regressed case, a thrown or unscored case", () => {
    const baseline = emptyBaseline();
    baseline.floors.offline = {
      // Fell: mean 0.6.
      Search: { MRR: { all: 0.9 } },
      // Holds for fast (1.0); the thorough variant has no floor of its own.
      Thoroughness: { "nDCG@10": { "tier=fast": 0.9 } },
      // A low mean that holds its floor: the gate passes it, whatever the score.
      Lexical: { MRR: { all: 0.05 } },
      Known: { MRR: { all: 0.05 } },
    };
    baseline.ceilings.offline = { Thoroughness: { "tier=thorough": 50 } };
    baseline.cases.offline = { Lexical: { pass: ["l1"], fail: [] }, Known: { pass: [], fail: ["k1"] } };
    const out = output([
      suite("Search", [row({ id: "q1", scores: { MRR: 1 } }), row({ id: "q2", scores: { MRR: 0.2 } })]),
      suite("Thoroughness [fast]", [row({ id: "q1", scores: { "nDCG@10": 1 }, elapsedMs: 2 })], { group: "Thoroughness", name: "fast" }),
      suite("Thoroughness [thorough]", [row({ id: "q1", scores: { "nDCG@10": 1 }, elapsedMs: 400 })], {
        group: "Thoroughness",
        name: "thorough",
      }),
      suite("Lexical", [row({ id: "l1", scores: { MRR: 0.1 } }), row({ id: "l2", scores: { MRR: 1 } })]),
      suite("Known", [row({ id: "k1", scores: { MRR: 0.1 } })]),
      suite("Thrown", [row({ id: "t1", scores: {}, error: "boom" })]),
    ]);
    const report = reportOf(out, { baseline, evalite: failedTests(1) });
    expect(suiteVerdicts(report)).toEqual([
      { suite: "Search", status: "fail", reasons: ["MRR [all] 0.6000 < floor 0.9000"] },
      { suite: "Thoroughness [fast]", status: "pass", reasons: [] },
      { suite: "Thoroughness [thorough]", status: "fail", reasons: ["p95 latency [tier=thorough] 400.0 ms > ceiling 50 ms"] },
      { suite: "Lexical", status: "fail", reasons: ["case(s) regressed: l1"] },
      { suite: "Known", status: "pass", reasons: [] },
      { suite: "Thrown", status: "fail", reasons: ["a case threw (Evalite marks the suite failed)", "no case could be scored"] },
    ]);
  });

  it("passes every suite of a run the gate passes, and fails a suite whose floored metric went missing", () => {
    const out = output([suite("Search", [row({ id: "q1", scores: { MRR: 0.1 } })])]);
    expect(suiteVerdicts(reportOf(out))).toEqual([{ suite: "Search", status: "pass", reasons: [] }]);
    const baseline = emptyBaseline();
    baseline.floors.offline = { Search: { "nDCG@10": { all: 0.5 } } };
    expect(suiteVerdicts(reportOf(out, { baseline }))[0]).toMatchObject({
      status: "fail",
      reasons: ["nDCG@10 [all] not measured (floor 0.5000)"],
    });
  });
});

describe("sliceCoversVariant", () => {
  it("gives a variant's slices to its suite, and every slice of an eval without variants to its one suite", () => {
    const fast = { dimension: "tier" as const, value: "fast" };
    expect(sliceCoversVariant("tier=fast", fast)).toBe(true);
    expect(sliceCoversVariant("tier=fast,language=de", fast)).toBe(true);
    expect(sliceCoversVariant("tier=fastest", fast)).toBe(false);
    expect(sliceCoversVariant("tier=thorough", fast)).toBe(false);
    expect(sliceCoversVariant("all", null)).toBe(true);
    expect(sliceCoversVariant("language=de", null)).toBe(true);
  });
});
