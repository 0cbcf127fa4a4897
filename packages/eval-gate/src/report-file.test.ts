import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { output, reportOf, row, scratchFolder, suite } from "./test-data/gate.js";
import { readReport } from "./report-file.js";

const { dir, file, remove } = scratchFolder("gate-report-file-");
afterAll(remove);

describe("reading a report back", () => {
  it("returns a report that fits the schema as it was written", () => {
    const report = reportOf(output([suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 0.8 }, elapsedMs: 3 })])]));
    expect(readReport(file("report.json", JSON.stringify(report)))).toEqual(report);
  });

  it("refuses anything else with one line naming the file and its problems", () => {
    expect(() => readReport(join(dir, "none.json"))).toThrow(/none\.json: cannot read a report \(ENOENT/);
    expect(() => readReport(file("broken.json", '{ "schemaVersion": 1,'))).toThrow(/broken\.json: cannot read a report \(.*JSON.*\)$/);
    const notReport = () => readReport(file("package.json", JSON.stringify({ name: "x", version: "1.0.0" })));
    expect(notReport).toThrow(
      /^.*package\.json: not a pnpm eval report \(packages\/eval-gate\/report\.schema\.json\): top level: missing required fields "schemaVersion", "startedAt", "finishedAt", "durationMs", "status", "exitStatus", "statusReasons", "git" and 16 more; top level: unknown field "name"; top level: unknown field "version"$/,
    );
  });

  it("reads a version 1 report with its metrics under their current names (MRR is MRR@10), so a comparison pairs them", () => {
    const report = reportOf(output([suite("Search (BM25)", [row({ id: "q1", scores: { MRR: 0.5, "nDCG@10": 0.8 }, elapsedMs: 3 })])]));
    const { verdicts: _v, warnings: _w, filter: _f, ...rest } = report;
    const { passMarks: _p, ceilingTolerance: _c, ...thresholds } = report.thresholds;
    const { ceilings: _g, cases: _k, ...gate } = report.gate;
    const v1 = { ...rest, schemaVersion: 1, thresholds: { ...thresholds, casePassMark: 0.5 }, gate };
    const read = readReport(file("v1.json", JSON.stringify(v1)));
    expect(read.cases[0]!.metrics.map((m) => m.metric)).toEqual(["MRR@10", "nDCG@10"]);
    expect(read.aggregates[0]!.metrics.map((m) => m.metric)).toEqual(["MRR@10", "nDCG@10"]);
    // A version 2 report is read as written.
    expect(readReport(file("v2.json", JSON.stringify(report))).cases[0]!.metrics[0]!.metric).toBe("MRR");
  });

  it("names exactly the fields that are missing, not the first field of the schema", () => {
    const report = reportOf(output([suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 0.8 }, elapsedMs: 3 })])]));
    const { summary: _s, cases: _c, ...rest } = report;
    expect(() => readReport(file("two-missing.json", JSON.stringify(rest)))).toThrow(
      /two-missing\.json: not a pnpm eval report \(packages\/eval-gate\/report\.schema\.json\): top level: missing required fields "summary", "cases"$/,
    );
    const { fixtures: _f, ...noFixtures } = report;
    const broken = { ...noFixtures, gate: { ...report.gate, checked: "many" }, summary: { ...report.summary, cases: undefined } };
    expect(() => readReport(file("three.json", JSON.stringify(broken)))).toThrow(
      /three\.json: .*: top level: missing required field "fixtures"; \/gate\/checked: must be \w+; \/summary: missing required field "cases"$/,
    );
  });
});
