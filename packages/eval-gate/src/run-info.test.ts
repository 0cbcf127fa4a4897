import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_INFO, scratchFolder } from "./gate-test-data.js";
import { readRunInfo, runInfoProblems } from "./run-info.js";

const { dir, file, remove } = scratchFolder("gate-run-info-");
afterAll(remove);

describe("the run info global setup hands the gate", () => {
  it("is read back checked against the report schema's fields", () => {
    expect(readRunInfo(file("ok.json", JSON.stringify(RUN_INFO)))).toEqual(RUN_INFO);
    expect(runInfoProblems(RUN_INFO)).toEqual([]);
  });

  it("names what is wrong in one line: a missing file, bad JSON, a wrong or unknown field", () => {
    expect(() => readRunInfo(join(dir, "none.json"))).toThrow(
      /^global setup wrote no run info to .*none\.json \(helpers\/global-setup\.ts/,
    );
    expect(() => readRunInfo(file("bad.json", "{ mode"))).toThrow(/bad\.json: cannot read the run info \(.*JSON.*\)$/);
    const { corpusHash: _, ...fingerprint } = RUN_INFO.fingerprint;
    expect(() => readRunInfo(file("hash.json", JSON.stringify({ ...RUN_INFO, fingerprint })))).toThrow(
      'hash.json: not run info (packages/eval-gate/report.schema.json): /fingerprint: missing required field "corpusHash"',
    );
    expect(runInfoProblems({ ...RUN_INFO, mode: "" })).toEqual(["/mode: must NOT have fewer than 1 characters"]);
    expect(runInfoProblems({ ...RUN_INFO, models: { judge: 3 } })[0]).toMatch(/^\/models\/judge: must be string,null/);
    expect(runInfoProblems({ ...RUN_INFO, extra: 1 })).toEqual(['top level: unknown field "extra"']);
    expect(runInfoProblems([])[0]).toBe("top level: must be object");
  });
});
