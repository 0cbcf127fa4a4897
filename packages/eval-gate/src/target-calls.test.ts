import { describe, expect, it } from "vitest";
import { evalRow, output, reportOf, suite } from "./test-data/gate.js";
import { reportProblems } from "./report-file.js";
import { targetCalls } from "./target-calls.js";
import { markdownSummary, targetCallsLine } from "./writers.js";

/** A retrieval row as helpers/retrieval-task.ts records it for another target. */
const ranked = (id: string, mode: string, fields: { clientMs: number | null; serverMs: number | null; unknownDocs?: string[] }) =>
  evalRow({
    input: { id, query: `query ${id}` },
    output: { mode, results: [], elapsedMs: fields.serverMs ?? fields.clientMs, target: "http flaky", unknownDocs: [], ...fields },
  });

describe("another target's ranking calls", () => {
  const run = output([
    suite("Search (BM25)", [
      ranked("q1", "search", { clientMs: 10, serverMs: 4 }),
      ranked("q2", "search", { clientMs: 30, serverMs: null, unknownDocs: ["gone.md", "moved.md"] }),
    ]),
    // The same balanced ranking of q1, read by two evals: one call.
    suite("Hybrid query (balanced)", [ranked("q1", "balanced", { clientMs: 20, serverMs: 8, unknownDocs: ["gone.md"] })]),
    suite("Cross-language recall", [ranked("q1", "balanced", { clientMs: 20, serverMs: 8, unknownDocs: ["gone.md"] })]),
    // An answer is not a ranking call.
    suite("Answers: facts", [evalRow({ input: { id: "a1", question: "?" }, output: { answer: "x", target: "http flaky" } })]),
  ]);

  it("count each call once, time it as the client saw it and as the target said, and count unjudged results", () => {
    expect(targetCalls(run)).toEqual({
      target: "http flaky",
      calls: 3,
      clientMs: { n: 3, p50Ms: 20, p95Ms: 30 },
      serverMs: { n: 2, p50Ms: 4, p95Ms: 8 },
      unjudged: { results: 3, calls: 2, documents: ["gone.md", "moved.md"] },
    });
  });

  it("are none for the in-process engine; a recorded run has no times", () => {
    const inProcess = output([
      suite("Search (BM25)", [evalRow({ input: { id: "q1" }, output: { mode: "search", elapsedMs: 3, unknownDocs: [] } })]),
    ]);
    expect(targetCalls(inProcess)).toBeNull();
    const recorded = output([
      suite("Search (BM25)", [
        evalRow({ input: { id: "q1" }, output: { mode: "search", target: "recorded r", clientMs: null, serverMs: null, unknownDocs: [] } }),
      ]),
    ]);
    expect(targetCalls(recorded)).toMatchObject({ calls: 1, clientMs: null, serverMs: null, unjudged: { results: 0, calls: 0 } });
  });

  it("are in the report (valid against the schema), its Markdown context and one terminal line", () => {
    const report = reportOf(run);
    expect(report.target).toEqual(targetCalls(run));
    expect(reportProblems(report)).toEqual([]);
    expect(reportOf(output([])).target).toBeNull();
    const line =
      "http flaky: 3 ranking calls; client p50 20 ms, p95 30 ms; target's own time p50 4.0 ms, p95 8.0 ms (2 of them); 3 result(s) in 2 call(s) name documents the dataset does not hold, scored as unjudged (not relevant): gone.md, moved.md";
    expect(targetCallsLine(report.target!)).toBe(line);
    expect(markdownSummary(report)).toContain(`| target calls | ${line} |`);
  });
});
