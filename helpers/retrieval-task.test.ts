import type { TraceStage } from "@hybrid-search/engine";
import { reportTraceLocalStorage } from "evalite/traces";
import { describe, expect, it } from "vitest";
import type { RetrievalCase } from "./dataset.js";
import { expanderFailure, runRetrieval } from "./retrieval-task.js";
import type { SuiteFingerprint } from "./setup-db.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import type { Target, TargetRanking, TargetSearch } from "./targets/target.js";
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
  const ranking = (request: TargetSearch): TargetRanking => ({
    results: [{ docId: "d1", score: 1 }],
    trace: request.mode === "thorough" ? [expansionStage(failing.has(request.query) ? FAILED : EXPANDED)] : [],
    serverMs: 1,
    clientMs: null,
  });
  const t: Target = {
    name: "stand-in",
    kind: "module",
    capabilities: { modes: ["search", "vsearch", "fast", "balanced", "thorough"], ask: false, expand: false, trace: true },
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
