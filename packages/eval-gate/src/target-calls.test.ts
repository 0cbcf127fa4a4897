import { describe, expect, it } from "vitest";
import { evalRow, output, reportOf, suite } from "./test-data/gate.js";
import { reportProblems } from "./report-file.js";
import { idMismatch, targetCalls } from "./target-calls.js";
import { markdownSummary, targetCallsLine } from "./writers.js";

/** A retrieval row as helpers/retrieval-task.ts records it for another target. */
const ranked = (id: string, mode: string, fields: { clientMs: number | null; serverMs: number | null; unknownDocs?: string[] }) =>
  evalRow({
    input: { id, query: `query ${id}` },
    output: {
      mode,
      // One result the dataset holds, and the ones it does not.
      results: ["a.md", ...(fields.unknownDocs ?? [])].map((docId) => ({ docId })),
      elapsedMs: fields.serverMs ?? fields.clientMs,
      target: "http flaky",
      unknownDocs: [],
      ...fields,
    },
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
      results: 6,
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

describe("ids that do not match the dataset's", () => {
  const calls = (n: number, unknown: number) =>
    targetCalls(
      output([
        suite(
          "Search (BM25)",
          Array.from({ length: n }, (_, i) =>
            ranked(`q${i + 1}`, "search", { clientMs: 1, serverMs: null, unknownDocs: i < unknown ? [`doc-${i + 1}`] : [] }),
          ),
        ),
      ]),
    );

  it("refuse the run when more than half of at least ten results name documents the dataset does not hold, naming both namings", () => {
    // 6 calls, each one known result and one unknown: 6 of 12 is half, not more.
    expect(idMismatch(calls(6, 6), ["en/a.md"])).toBeNull();
    const only = targetCalls(
      output([
        suite(
          "S",
          Array.from({ length: 10 }, (_, i) =>
            ranked(`q${i}`, "search", { clientMs: 1, serverMs: null, unknownDocs: [`doc-${i}`, `x-${i}`] }),
          ),
        ),
      ]),
    );
    expect(only).toMatchObject({ results: 30, unjudged: { results: 20 } });
    expect(idMismatch(only, ["en/a.md", "en/b.md", "fr/c.md", "it/d.md"])).toBe(
      'http flaky: 20 of 30 results name documents the dataset does not hold (returned: "doc-0", "x-0", "doc-1"; the dataset\'s: "en/a.md", "en/b.md", "fr/c.md"): the target names documents by other ids; map them (an adapter\'s docId pointer or a module\'s docId, docs/targets.md), or give the dataset the target\'s ids (pnpm eval:import keeps a source\'s ids)',
    );
  });

  it("say nothing under ten results, for the in-process engine, or when most ids match", () => {
    const few = targetCalls(output([suite("S", [ranked("q1", "search", { clientMs: 1, serverMs: null, unknownDocs: ["a", "b", "c"] })])]));
    expect(few).toMatchObject({ results: 4, unjudged: { results: 3 } });
    expect(idMismatch(few, ["x"])).toBeNull();
    expect(idMismatch(null, ["x"])).toBeNull();
    expect(idMismatch(calls(20, 2), ["x"])).toBeNull();
  });
});
