import type { Evalite } from "evalite";
import { describe, expect, it } from "vitest";
import { emptyBaseline } from "./baseline.js";
import { draftsLine, splitDrafts } from "./drafts.js";
import { evalRow, gateOptions, output, recordedRun, row, suite } from "./test-data/gate.js";
import { judgeRun } from "./judge-run.js";
import { reportProblems } from "./report-file.js";
import { markdownSummary } from "./writers.js";

/** A search row marked as a draft (its input carries status "draft", as the suite's drafted cases do). */
function draft(id: string, ndcg: number, category = "number"): Evalite.Exported.Eval {
  const r = row({ id, scores: { "nDCG@10": ndcg }, category });
  return { ...r, input: { ...(r.input as object), status: "draft" } };
}

const reviewed = (values: readonly number[]) => values.map((v, i) => row({ id: `q${i + 1}`, scores: { "nDCG@10": v } }));

function judged(out: Evalite.Exported.Output, baseline = emptyBaseline(), update = false) {
  const j = judgeRun(recordedRun(out), baseline, gateOptions(update ? { updateBaseline: true, reason: "t" } : {}));
  if (j.kind !== "judged") throw new Error(j.kind);
  return j;
}

describe("drafted cases in a run", () => {
  it("splitDrafts takes drafts out of their suites, and leaves out a suite of drafts only", () => {
    const { gated, drafts } = splitDrafts(
      output([suite("Search", [...reviewed([0.9]), draft("d1", 0)]), suite("Answers", [draft("d2", 1)])]),
    );
    expect(gated.suites.map((s) => [s.name, s.evals.length])).toEqual([["Search", 1]]);
    expect(drafts!.suites.map((s) => [s.name, s.evals.length])).toEqual([
      ["Search", 1],
      ["Answers", 1],
    ]);
    expect(splitDrafts(output([suite("Search", reviewed([0.5]))])).drafts).toBeNull();
  });

  it("never enter the floors: failing drafts leave the means, the floor checks and the verdict as the reviewed cases set them", () => {
    const floors = judged(output([suite("Search", reviewed([0.9, 0.8, 0.9, 0.8]))]), emptyBaseline(), true).baseline;
    const withDrafts = judged(output([suite("Search", [...reviewed([0.9, 0.8, 0.9, 0.8]), draft("d1", 0), draft("d2", 0)])]), floors);
    expect(withDrafts.exitStatus).toBe(0);
    expect(withDrafts.report.gate.fell).toBe(0);
    const all = withDrafts.report.aggregates.find((a) => a.eval === "Search" && a.slice === "all")!;
    expect(all.n).toBe(4);
    expect(all.metrics[0]!.mean).toBeCloseTo(0.85, 6);
    expect(withDrafts.report.summary.cases).toBe(4);
    expect(withDrafts.report.cases.map((c) => c.id)).not.toContain("d1");
    // The same two cases without the draft mark do make the floor fall: the test can fail.
    const asReviewed = judged(output([suite("Search", reviewed([0.9, 0.8, 0.9, 0.8, 0, 0]))]), floors);
    expect(asReviewed.exitStatus).toBe(1);
  });

  it("are reported apart, per suite and category, and valid against the report schema", () => {
    const j = judged(output([suite("Search", [...reviewed([0.9]), draft("d1", 0, "date"), draft("d2", 1), draft("d3", 0.9)])]));
    const d = j.report.drafts!;
    expect([d.cases, d.units, d.passed, d.failed, d.errored]).toEqual([3, 3, 2, 1, 0]);
    expect(d.suites[0]!.categories).toEqual([
      { category: "date", units: 1, passed: 0, failed: 1, errored: 0 },
      { category: "number", units: 2, passed: 2, failed: 0, errored: 0 },
    ]);
    expect(draftsLine(d)).toMatch(/^drafts: 3 case\(s\), not gated: 2 of 3 verdict\(s\) pass, 1 fail, 0 error/);
    expect(reportProblems(j.report)).toEqual([]);
    expect(reportProblems({ ...j.report, drafts: { ...d, units: -1 } }).length).toBeGreaterThan(0);
    expect(markdownSummary(j.report)).toContain("## Drafts (3 case(s)): not gated");
    expect(judged(output([suite("Search", reviewed([0.9]))])).report.drafts).toBeNull();
  });

  it("are never recorded by --update-baseline, and raise no floor", () => {
    const j = judged(output([suite("Search", [...reviewed([0.9, 0.8]), draft("d1", 0.1)])]), emptyBaseline(), true);
    const recorded = Object.keys(j.baseline.cases?.[j.report.floorMode] ?? {});
    expect(recorded.some((key) => key.includes("d1"))).toBe(false);
    expect(recorded.length).toBeGreaterThan(0);
  });

  it("a run of drafts only is not gated and passes when they were measured; a fault on a draft still fails it", () => {
    const only = judged(output([suite("Search", [draft("d1", 0), draft("d2", 1)])]));
    expect(only.exitStatus).toBe(0);
    expect(only.report.summary.cases).toBe(0);
    expect(only.report.drafts!.units).toBe(2);
    const failing = evalRow({
      input: { id: "d3", question: "How?", status: "draft" },
      output: { error: "answer model stub failed: 500" },
      scores: [{ id: 1, name: "Answer includes", score: 0, metadata: { status: "failed", error: "stub 500" }, createdAt: "x" }],
    });
    const faulty = judged(output([suite("Search", reviewed([0.9])), suite("Answers", [failing])]));
    expect(faulty.exitStatus).toBe(1);
    expect(faulty.report.statusReasons.some((r) => r.startsWith("drafts: 1 case(s) errored"))).toBe(true);
  });
});
