import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_INFO, scratchFolder } from "./test-data/gate.js";
import { readRunInfo, readSkippedEvals, runInfoProblems, skipCovering, skippedEvalProblems, skippedName } from "./run-info.js";

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

describe("the evals the target could not run, as the eval files report them", () => {
  const vsearch = { eval: "Vector search", reason: "target flaky does not serve mode vsearch" };
  const fast = { eval: "Thoroughness", variant: "fast", reason: "target flaky does not serve mode fast" };

  it("are read back one per line, each eval (and variant) once; none without a file", () => {
    const lines = [vsearch, fast, vsearch].map((s) => JSON.stringify(s)).join("\n");
    expect(readSkippedEvals(file("skipped.jsonl", `${lines}\n\n`))).toEqual([vsearch, fast]);
    expect(readSkippedEvals(join(dir, "none.jsonl"))).toEqual([]);
    expect(skippedName(fast)).toBe("Thoroughness [fast]");
    expect(skippedName(vsearch)).toBe("Vector search");
  });

  it("a line that is not a skipped eval is one line naming the file and line", () => {
    expect(() => readSkippedEvals(file("bad.jsonl", `${JSON.stringify(vsearch)}\n{ eval`))).toThrow(
      /bad\.jsonl:2: not a skipped eval \(.*JSON.*\)$/,
    );
    expect(() => readSkippedEvals(file("reason.jsonl", JSON.stringify({ eval: "Vector search" })))).toThrow(
      'reason.jsonl:1: not a skipped eval (packages/eval-gate/report.schema.json): top level: missing required field "reason"',
    );
    expect(skippedEvalProblems({ ...vsearch, why: "x" })).toEqual(['top level: unknown field "why"']);
  });

  it("cover every slice of a skipped eval, and a skipped variant's slices only", () => {
    expect(skipCovering([vsearch], "Vector search", "all")).toBe(vsearch);
    expect(skipCovering([vsearch], "Vector search", "category=keyword")).toBe(vsearch);
    expect(skipCovering([vsearch], "Search (BM25)", "all")).toBeUndefined();
    expect(skipCovering([fast], "Thoroughness", "tier=fast")).toBe(fast);
    expect(skipCovering([fast], "Thoroughness", "tier=fast,language=de")).toBe(fast);
    expect(skipCovering([fast], "Thoroughness", "tier=balanced")).toBeUndefined();
    expect(skipCovering([fast], "Thoroughness", "tier=fastest")).toBeUndefined();
    expect(skipCovering([fast], "Thoroughness", "all")).toBeUndefined();
  });
});
