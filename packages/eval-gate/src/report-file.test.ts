import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { output, reportOf, row, scratchFolder, suite } from "./gate-test-data.js";
import { readReport } from "./report-file.js";

const { dir, file, remove } = scratchFolder("gate-report-file-");
afterAll(remove);

describe("reading a report back", () => {
  it("returns a report that fits the schema as it was written", () => {
    const report = reportOf(output([suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 0.8 }, elapsedMs: 3 })])]));
    expect(readReport(file("report.json", JSON.stringify(report)))).toEqual(report);
  });

  it("refuses anything else with one line naming the file and the first problem", () => {
    expect(() => readReport(join(dir, "none.json"))).toThrow(/none\.json: cannot read a report \(ENOENT/);
    expect(() => readReport(file("broken.json", '{ "schemaVersion": 1,'))).toThrow(/broken\.json: cannot read a report \(.*JSON.*\)$/);
    const notReport = () => readReport(file("package.json", JSON.stringify({ name: "x", version: "1.0.0" })));
    expect(notReport).toThrow(
      /^.*package\.json: not a pnpm eval report \(packages\/eval-gate\/report\.schema\.json\): top level: missing required field "schemaVersion" \(and \d+ more\)$/,
    );
  });
});
