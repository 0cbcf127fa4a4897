/**
 * The retrieval task: a ranking whose expander failed is a fault, never its tier's score; and
 * "Lost at" reads the eval's own cut-off: a relevant document at rank 7 is lost from a Recall@5
 * eval's top 5 — never "all found" beside a Recall@5 of 0 — and found in a top-10 eval.
 */
import type { SearchResponse, TraceStage } from "@hybrid-search/target-contract/types";
import { reportTraceLocalStorage } from "evalite/traces";
import { describe, expect, it } from "vitest";
import type { RetrievalCase } from "./dataset.js";
import { expanderFailure, retrievalColumns, runRetrieval } from "./retrieval-task.js";
import type { SuiteFingerprint } from "./setup-db.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import type { Reply, Target, TargetSearch } from "./targets/target.js";
import { formatTierValue, tierComparison, tierMeans } from "./tier-comparison.js";

const expansionStage = (output: Record<string, unknown>): TraceStage => ({
  stage: "expansion",
  input: { query: "q" },
  output,
  start: 0,
  end: 1,
});
const FAILED = { lexicalQueries: ["q"], vectorQueries: ["q"], fallback: { reason: "expander failed: HTTP 500" } };
const REJECTED = { lexicalQueries: ["q"], vectorQueries: ["q"], fallback: { reason: "model output is not JSON: {", errors: [] } };
const EXPANDED = { lexicalQueries: ["q", "q2"], vectorQueries: ["q"] };

describe("expanderFailure: a ranking whose expander failed is not its tier's", () => {
  it("names the failure from the trace's expansion stage", () => {
    expect(expanderFailure({ trace: [expansionStage(FAILED)] })).toBe("expander failed: HTTP 500");
  });
  it("is null for an expansion, for output that failed validation (the model answered), and without a trace", () => {
    expect(expanderFailure({ trace: [expansionStage(EXPANDED)] })).toBeNull();
    expect(expanderFailure({ trace: [expansionStage(REJECTED)] })).toBeNull();
    expect(expanderFailure({ trace: null })).toBeNull();
  });
});

/** A target whose thorough tier's expander fails for the queries in `failing`; every tier ranks d1 first. */
function target(failing: ReadonlySet<string>): MeasuredTarget {
  const ranking = (request: TargetSearch): Reply<SearchResponse> => ({
    message: {
      results: [{ docId: "d1", score: 1 }],
      trace: request.mode === "thorough" ? [expansionStage(failing.has(request.query) ? FAILED : EXPANDED)] : [],
      elapsedMs: 1,
    },
    serverMs: null,
    clientMs: null,
  });
  const t: Target = {
    name: "stand-in",
    kind: "module",
    label: "module:stand-in",
    reach: "this-thread",
    capabilities: { modes: ["search", "vsearch", "fast", "balanced", "thorough"], ask: false, expand: false, trace: true, turn: false },
    search: async (request) => ranking(request),
    ask: async () => {
      throw new Error("not asked");
    },
  };
  return { target: t, fingerprint: { corpusHash: `stand-in-${[...failing].join()}` } as SuiteFingerprint };
}

const caseOf = (id: string): RetrievalCase => ({ id, query: id, judgments: { d1: 1 } });
const inEval = <T>(fn: () => Promise<T>): Promise<T> => reportTraceLocalStorage.run(() => {}, fn);

describe("the thorough tier with a failed expander", () => {
  it("fails the case's task, naming the failure, so every metric of it is a fault", async () => {
    await expect(inEval(() => runRetrieval(target(new Set(["a"])), "thorough", caseOf("a")))).rejects.toThrow(
      "the thorough ranking ran unexpanded because the expander failed: HTTP 500",
    );
    await expect(inEval(() => runRetrieval(target(new Set(["a"])), "thorough", caseOf("b")))).resolves.toMatchObject({
      results: [{ docId: "d1" }],
    });
  });

  it("leaves the tier without a value in the tier comparison and in the means over queries", async () => {
    const measured = target(new Set(["a"]));
    const failed = await tierComparison(caseOf("a"), measured);
    expect(failed["nDCG@10"]).toEqual({ fast: 1, balanced: 1, thorough: null });
    expect(failed["Recall@5"]).toEqual({ fast: 1, balanced: 1, thorough: null });
    expect((await tierComparison(caseOf("b"), measured))["nDCG@10"]).toEqual({ fast: 1, balanced: 1, thorough: 1 });
    const means = await tierMeans([caseOf("a"), caseOf("b")], measured);
    expect(means).toMatchObject({ queries: 2, "nDCG@10": { fast: 1, balanced: 1, thorough: null } });
    expect(formatTierValue(null)).toBe("not measured");
    expect(formatTierValue(0.5)).toBe("0.500");
  });
});

const ids = ["a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "rel.md", "h.md", "i.md", "j.md"];
const ranked = (stage: string) => ({
  stage,
  input: {},
  output: ids.map((docId, i) => ({ docId, score: 1 - i / 10, rank: i + 1 })),
  start: 1,
  end: 2,
});
const ranking: Reply<SearchResponse> = {
  message: {
    results: ids.map((docId, i) => ({ docId, score: 1 - i / 10 })),
    trace: [ranked("bm25"), ranked("vector"), ranked("fusion"), ranked("rerank")],
    elapsedMs: 3,
  },
  serverMs: null,
  clientMs: null,
};

function measured(name: string): MeasuredTarget {
  return {
    target: {
      name,
      kind: "in-process",
      label: `in-process engine, ${name} models`,
      reach: "this-thread",
      capabilities: { modes: ["balanced"], ask: false, expand: false, trace: true, turn: false },
      search: async () => ranking,
      ask: async () => {
        throw new Error("not asked");
      },
    },
    fingerprint: { corpusHash: name } as MeasuredTarget["fingerprint"],
  };
}

const c = { id: "q-1", query: "where is rel", judgments: { "rel.md": 3 } } as unknown as RetrievalCase;

async function run(name: string, cutoff?: number) {
  const traces: unknown[] = [];
  const output = await reportTraceLocalStorage.run(
    (t: unknown) => traces.push(t),
    () => runRetrieval(measured(name), "balanced", c, undefined, cutoff === undefined ? {} : { cutoff }),
  );
  const lost = retrievalColumns({ input: c, output }).find((col) => col.label.startsWith("Lost at"))!;
  return { output, lost, last: traces.at(-1) as { input: Record<string, unknown> } };
}

describe("lost at, at the eval's cut-off", () => {
  it("names the stage that lost a rank-7 document from a top 5", async () => {
    const { output, lost, last } = await run("top5", 5);
    expect(output.cutoff).toBe(5);
    expect(lost).toEqual({ label: "Lost at (top 5)", value: "rel.md: fusion rank 7 > 5" });
    expect(last.input).toMatchObject({ stage: "relevant documents", k: 5 });
  });

  it("finds it within a top 10, the default", async () => {
    const { lost } = await run("top10");
    expect(lost).toEqual({ label: "Lost at (top 10)", value: "all found" });
  });
});
