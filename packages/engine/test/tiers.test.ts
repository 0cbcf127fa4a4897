import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Engine } from "../src/index.js";
import type { Expansion, QueryExpander, TraceItem } from "../src/index.js";
import { smallCorpusEngine, writeFiles } from "./helpers.js";

const setup = smallCorpusEngine();
const dir = setup.dir;

const stages = (trace: { stage: string }[]): string[] => trace.map((s) => s.stage);

describe("tiers do different work", () => {
  it("fast is BM25 only and equals search", async () => {
    const fast = await setup.engine.query("cancel subscription", { tier: "fast" });
    expect(stages(fast.trace)).toEqual(["bm25"]);
    expect(fast.results.map((h) => h.docId)).toEqual(setup.engine.search("cancel subscription").results.map((h) => h.docId));
  });

  it("balanced runs bm25, vector, fusion and rerank, with ranks and scores in the trace", async () => {
    const r = await setup.engine.query("cancel subscription", { tier: "balanced" });
    expect(stages(r.trace)).toEqual(["bm25", "vector", "fusion", "rerank"]);
    const fusion = r.trace[2]!;
    expect(fusion.input).toMatchObject({ method: "convex combination of min-max normalized scores" });
    const first = (fusion.output as TraceItem[])[0]!;
    expect(first.detail).toHaveProperty("bm25");
    const rerank = r.trace[3]!;
    expect((rerank.output as TraceItem[])[0]!.detail).toEqual(
      expect.objectContaining({ fused: expect.any(Number), rerank: expect.any(Number) }),
    );
    for (const s of r.trace) expect(s.end).toBeGreaterThanOrEqual(s.start);
  });

  it("thorough adds an expansion stage and runs the expanded queries", async () => {
    const r = await setup.engine.query("subscribtion cancelation", { tier: "thorough" });
    expect(stages(r.trace)[0]).toBe("expansion");
    const expansion = r.trace[0]!.output as unknown as Expansion;
    expect(expansion.lexicalQueries[0]).toBe("subscribtion cancelation");
    expect(expansion.lexicalQueries.length).toBeGreaterThan(1);
    expect(stages(r.trace).filter((s) => s === "bm25").length).toBeGreaterThan(1);
    expect(r.results[0]!.docId).toBe("en/billing.md");
  });

  it("thorough finds what fast misses for a misspelled query", async () => {
    const fast = await setup.engine.query("subscribtion", { tier: "fast" });
    const thorough = await setup.engine.query("subscribtion", { tier: "thorough" });
    expect(fast.results.map((h) => h.docId)).not.toContain("en/billing.md");
    expect(thorough.results[0]!.docId).toBe("en/billing.md");
  });

  it("a failing expander is recorded and the query runs unexpanded", async () => {
    const broken: QueryExpander = { id: "broken", expand: async () => Promise.reject(new Error("model unavailable")) };
    const e = Engine.open(join(dir, "index.db"), { expander: broken });
    try {
      const r = await e.query("cancel", { tier: "thorough" });
      expect(r.trace[0]!.note).toMatch(/ran unexpanded: expander failed: model unavailable/);
      expect(r.results.length).toBeGreaterThan(0);
    } finally {
      e.close();
    }
  });

  it("rejects an unknown tier", async () => {
    await expect(setup.engine.query("x", { tier: "medium" as never })).rejects.toThrow(/"tier" to be one of fast, balanced, thorough/);
  });
});

describe("deterministic order", () => {
  it("breaks equal scores by document id, descending (trec_eval's rule)", async () => {
    const twins = join(dir, "twins");
    writeFiles(twins, {
      "a.md": "# Same\n\nidentical text here",
      "c.md": "# Same\n\nidentical text here",
      "b.md": "# Same\n\nidentical text here",
    });
    const e = Engine.open(join(dir, "twins.db"), { create: true });
    try {
      await e.index(twins);
      const r = e.search("identical");
      expect(r.results.map((h) => h.docId)).toEqual(["c.md", "b.md", "a.md"]);
      expect(new Set(r.results.map((h) => h.score)).size).toBe(1);
      const v = await e.vsearch("identical text");
      expect(v.results.map((h) => h.docId)).toEqual(["c.md", "b.md", "a.md"]);
      const b = await e.query("identical", { tier: "balanced" });
      expect(b.results.map((h) => h.docId)).toEqual(["c.md", "b.md", "a.md"]);
    } finally {
      e.close();
    }
  });
});
