/**
 * "Lost at" reads the eval's own cut-off: a relevant document at rank 7 is lost from a Recall@5
 * eval's top 5 — never "all found" beside a Recall@5 of 0 — and found in a top-10 eval.
 */
import { reportTraceLocalStorage } from "evalite/traces";
import { describe, expect, it } from "vitest";
import type { RetrievalCase } from "./dataset.js";
import { retrievalColumns, runRetrieval } from "./retrieval-task.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import type { TargetRanking } from "./targets/target.js";

const ids = ["a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "rel.md", "h.md", "i.md", "j.md"];
const ranked = (stage: string) => ({
  stage,
  input: {},
  output: ids.map((docId, i) => ({ docId, score: 1 - i / 10, rank: i + 1 })),
  start: 1,
  end: 2,
});
const ranking: TargetRanking = {
  results: ids.map((docId, i) => ({ docId, score: 1 - i / 10 })),
  trace: [ranked("bm25"), ranked("vector"), ranked("fusion"), ranked("rerank")],
  serverMs: 3,
  clientMs: null,
};

function measured(name: string): MeasuredTarget {
  return {
    target: {
      name,
      kind: "in-process",
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
