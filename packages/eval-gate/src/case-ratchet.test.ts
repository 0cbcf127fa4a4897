import { describe, expect, it } from "vitest";
import { emptyBaseline } from "./baseline.js";
import { acceptFailures, caseStatus, checkCases, recordCases } from "./case-ratchet.js";
import type { VerdictUnit } from "./verdicts.js";

const unit = (suite: string, id: string, outcome: VerdictUnit["outcome"]): VerdictUnit => ({
  key: `${suite}|${id}`,
  suite,
  eval: suite,
  file: "evals/x.eval.ts",
  id,
  label: id,
  variant: null,
  kind: "case",
  outcome,
  reasons: outcome === "pass" ? [] : ["nDCG@10 0.100 < 0.5"],
  covers: [],
  latencyMs: 1,
});

describe("the case ratchet", () => {
  it("names every standing: regression, known failure, fixed, new", () => {
    expect(caseStatus("pass", { outcome: "pass" })).toBe("pass");
    expect(caseStatus("pass", { outcome: "fail" })).toBe("regression");
    expect(caseStatus("pass", { outcome: "error" })).toBe("regression");
    expect(caseStatus("fail", { outcome: "fail" })).toBe("known-failure");
    expect(caseStatus("fail", { outcome: "pass" })).toBe("fixed");
    expect(caseStatus(null, { outcome: "fail" })).toBe("new-failure");
    expect(caseStatus(null, { outcome: "pass" })).toBe("new-pass");
  });

  it("checks a run against what was recorded; recorded cases a suite no longer measures are gone; suites that did not run are left alone", () => {
    const b = emptyBaseline();
    b.cases.offline = { S: { pass: ["q1", "q2", "q9"], fail: ["q3"] }, T: { pass: ["t1"], fail: [] } };
    const units = [unit("S", "q1", "pass"), unit("S", "q2", "fail"), unit("S", "q3", "pass"), unit("S", "q4", "fail")];
    expect(checkCases(b, "offline", units, new Set(["S"]))).toEqual({
      statuses: { "S|q1": "pass", "S|q2": "regression", "S|q3": "fixed", "S|q4": "new-failure" },
      gone: ["S|q9"],
      recorded: true,
    });
    expect(checkCases(b, "model", units, new Set(["S"])).recorded).toBe(false);
  });

  it("--update-baseline records fixes and new cases, drops gone ones, and never records a regression as a failure", () => {
    const b = emptyBaseline();
    b.cases.offline = { S: { pass: ["q1", "q2", "q9"], fail: ["q3"] }, T: { pass: ["t1"], fail: [] } };
    const units = [unit("S", "q1", "pass"), unit("S", "q2", "fail"), unit("S", "q3", "pass"), unit("S", "q4", "fail")];
    const changes = recordCases(b, "offline", units, new Set(["S"]));
    expect(changes).toEqual([
      { key: "S|q3", from: "fail", to: "pass" },
      { key: "S|q4", from: null, to: "fail" },
      { key: "S|q9", from: "pass", to: null },
    ]);
    expect(b.cases.offline).toEqual({ S: { pass: ["q1", "q2", "q3"], fail: ["q4"] }, T: { pass: ["t1"], fail: [] } });
    expect(checkCases(b, "offline", units, new Set(["S"])).statuses["S|q2"]).toBe("regression");
  });

  it("--accept-failure records matched failing cases as known failures, and refuses a pattern that matches nothing failing", () => {
    const b = emptyBaseline();
    b.cases.offline = { S: { pass: ["q1", "q2"], fail: [] } };
    const units = [unit("S", "q1", "fail"), unit("S", "q2", "pass")];
    expect(acceptFailures(b, "offline", ["S|*"], units)).toEqual([{ key: "S|q1", from: "pass", to: "fail" }]);
    expect(b.cases.offline.S).toEqual({ pass: ["q2"], fail: ["q1"] });
    expect(() => acceptFailures(b, "offline", ["S|q2"], units)).toThrow('--accept-failure "S|q2": every matched case passes in this run');
    expect(() => acceptFailures(b, "offline", ["Nope"], units)).toThrow(/--accept-failure "Nope": this run measured no such case/);
  });
});
