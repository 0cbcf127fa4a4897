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
      // The shape the suite reads to tell a failed expander (a fault) from a rejected expansion.
      expect(r.trace[0]!.output).toMatchObject({ fallback: { reason: "expander failed: model unavailable" } });
      expect((r.trace[0]!.output as { fallback: object }).fallback).not.toHaveProperty("errors");
      expect(r.results.length).toBeGreaterThan(0);
    } finally {
      e.close();
    }
  });

  it("thorough feeds back from the first pass only when its top documents are in the query's language", async () => {
    const feedbackOf = (r: { trace: Array<{ stage: string; note?: string; input: unknown }> }) =>
      r.trace.find((s) => s.stage === "feedback")!;
    const fusedLists = (r: { trace: Array<{ stage: string; input: unknown }> }) =>
      (r.trace.find((s) => s.stage === "fusion")!.input as { lists: Array<{ name: string }> }).lists.map((l) => l.name);

    // The small corpus mixes languages: its top documents for any query do too.
    const mixed = await setup.engine.query("How do I cancel my subscription?", { tier: "thorough" });
    expect(feedbackOf(mixed).note).toMatch(
      /^no feedback: \d+ of the first pass's \d+ top documents are not in the query's language \(en\)/,
    );
    expect(fusedLists(mixed)).not.toContain("bm25:feedback");
    const unknown = await setup.engine.query("subscription", { tier: "thorough" });
    expect(feedbackOf(unknown).note).toBe("no feedback: the query's language is unknown");

    const english = join(dir, "english");
    writeFiles(english, {
      "cancel.md": "# Cancel your subscription\n\nYou can cancel your subscription at any time; the renewal stops and your files are kept.",
      "renewal.md": "# Renewal\n\nA subscription renews every month until you cancel it in Settings.",
      "refund.md": "# Refunds\n\nWhen you cancel an annual subscription within 14 days, the payment is refunded.",
      "upload.md": "# Uploads\n\nUploads continue in the background and resume after a lost connection.",
    });
    const e = Engine.open(join(dir, "english.db"), { create: true, hybrid: { feedbackDocs: 3 } });
    try {
      await e.index(english);
      const r = await e.query("How do I cancel my subscription?", { tier: "thorough" });
      const feedback = feedbackOf(r);
      expect(feedback.note).toBeUndefined();
      expect(feedback.input).toMatchObject({
        queryLanguage: "en",
        firstPass: expect.arrayContaining([expect.objectContaining({ language: "en" })]),
      });
      expect(fusedLists(r)).toEqual(expect.arrayContaining(["bm25:feedback", "vector:feedback"]));
      expect(fusedLists(r)).not.toContain("bm25");
      const off = Engine.open(join(dir, "english.db"), { hybrid: { feedbackDocs: 3, feedbackVectorWeight: 0 } });
      try {
        const lists = fusedLists(await off.query("How do I cancel my subscription?", { tier: "thorough" }));
        expect(lists).toContain("bm25:feedback");
        expect(lists).toContain("vector");
      } finally {
        off.close();
      }
    } finally {
      e.close();
    }
  });

  it("rejects feedback parameters out of range", () => {
    expect(() => Engine.open(join(dir, "index.db"), { hybrid: { feedbackVectorWeight: -1 } })).toThrow(/feedbackVectorWeight/);
    expect(() => Engine.open(join(dir, "index.db"), { hybrid: { feedbackLanguageGate: "yes" as never } })).toThrow(/feedbackLanguageGate/);
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
