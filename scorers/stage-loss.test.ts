import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Engine, type TraceStage } from "@hybrid-search/engine";
import { rankedLists, relevantDocPaths, summarizeLosses } from "./stage-loss.js";

/** A ranked list whose ids are ranked in the order given; "-" leaves a rank filled by another doc. */
function stage(stage: TraceStage["stage"], ids: string[], name: string = stage): TraceStage {
  return { stage, input: { name }, output: ids.map((docId, i) => ({ docId, score: 1 / (i + 1), rank: i + 1 })), start: 0, end: 1 };
}
/** `n` filler ids, so a document can sit at a chosen rank. */
const fill = (n: number, tag: string): string[] => Array.from({ length: n }, (_, i) => `${tag}${i + 1}`);
const at = (rank: number, docId: string, tag: string): string[] => [...fill(rank - 1, tag), docId];
const K = 10;

function pathOf(trace: TraceStage[], results: string[], docId = "rel") {
  const [p] = relevantDocPaths(
    trace,
    results.map((d) => ({ docId: d })),
    { [docId]: 2 },
    K,
  );
  return p!;
}

describe("relevantDocPaths: the stage that removed a document from the final top k", () => {
  it("found: no loss", () => {
    const trace = [
      stage("bm25", at(3, "rel", "b")),
      stage("vector", fill(5, "v")),
      stage("fusion", at(2, "rel", "f")),
      stage("rerank", at(4, "rel", "r")),
    ];
    const p = pathOf(trace, at(4, "rel", "r"));
    expect([p.lostAt, p.why, p.final]).toEqual([null, null, 4]);
    expect(p.ranks).toEqual({ bm25: 3, vector: null, fusion: 2, rerank: 4 });
  });

  /** The balanced tier's lists with the document at the given ranks (null: not in that list of 30). */
  const hybrid = (bm25: number | null, fusion: number | null, rerank: number | null): TraceStage[] => [
    stage("bm25", bm25 === null ? fill(30, "b") : at(bm25, "rel", "b")),
    stage("vector", fill(50, "v")),
    stage("fusion", fusion === null ? fill(30, "f") : at(fusion, "rel", "f")),
    stage("rerank", rerank === null ? fill(30, "r") : at(rerank, "rel", "r")),
  ];
  it.each([
    {
      when: "in no first-stage list: not retrieved, naming each list's depth",
      ranks: [null, null, null],
      lost: "not retrieved: not in bm25 top 30, vector top 50",
    },
    {
      when: "24th after fusion and 24th after rerank: lost at fusion (never inside the cut-off)",
      ranks: [30, 24, 24],
      lost: "fusion: fusion rank 24 > 10",
    },
    {
      when: "within k after fusion, out of it after rerank: lost at rerank, with both ranks",
      ranks: [2, 8, 14],
      lost: "rerank: rerank moved it 8 → 14",
    },
    {
      when: "retrieved but beyond fusion's traced list (not a reranker candidate): lost at fusion",
      ranks: [28, null, null],
      lost: "fusion: not in fusion top 30",
    },
  ] as const)("$when", ({ ranks, lost }) => {
    const p = pathOf(hybrid(ranks[0], ranks[1], ranks[2]), fill(10, "r"));
    expect(`${p.lostAt}: ${p.why}`).toBe(lost);
  });

  it("a hybrid run without a reranker: fusion's cut-off", () => {
    const trace = [stage("bm25", at(5, "rel", "b")), stage("vector", fill(20, "v")), stage("fusion", at(12, "rel", "f"))];
    const p = pathOf(trace, fill(10, "f"));
    expect([p.lostAt, p.why]).toEqual(["fusion", "fusion rank 12 > 10"]);
  });

  it("a single-list mode (search, vsearch, fast): that list's cut-off, by name", () => {
    expect(pathOf([stage("bm25", at(14, "rel", "b"))], fill(10, "b")).why).toBe("bm25 rank 14 > 10");
    const v = pathOf([stage("vector", at(11, "rel", "v"))], fill(10, "v"));
    expect([v.lostAt, v.why]).toEqual(["vector", "vector rank 11 > 10"]);
  });

  it("a trace that had it within k everywhere but results without it: said so, not blamed on a stage", () => {
    const trace = [stage("bm25", at(1, "rel", "b")), stage("fusion", at(1, "rel", "f")), stage("rerank", at(1, "rel", "r"))];
    const p = pathOf(trace, fill(10, "x"));
    expect([p.lostAt, p.why]).toEqual(["final", "every stage had it within 10, not in the results"]);
  });

  it("orders documents by grade, skips non-relevant ones, and sums up losses in one line", () => {
    const trace = [
      stage("bm25", ["a", "b", "c"]),
      stage("vector", ["d", "a"]),
      stage("fusion", ["a", "d", "b", "c"]),
      stage("rerank", ["a", "d", "b"]),
    ];
    const paths = relevantDocPaths(trace, [{ docId: "a" }, { docId: "d" }], { a: 3, b: 2, c: 1, e: 2, z: 0 }, 2);
    expect(paths.map((p) => [p.docId, p.lostAt])).toEqual([
      ["a", null],
      ["b", "fusion"],
      ["e", "not retrieved"],
      ["c", "fusion"],
    ]);
    expect(summarizeLosses(paths)).toBe("b: fusion rank 3 > 2; e: not in bm25 top 3, vector top 2; c: fusion rank 4 > 2");
    expect(summarizeLosses(paths.slice(0, 1))).toBe("all found");
    expect(summarizeLosses([])).toBe("no relevant documents");
  });
});

describe("rankedLists: what relevantDocPaths reads of a trace, and nothing else", () => {
  it("gives every path of an engine ask()'s trace as the whole trace does, at a fraction of its size", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ranked-lists-"));
    const engine = Engine.open(join(dir, "index.db"), { create: true });
    try {
      const texts = [
        "Cancel a monthly plan: your paid plan stays active until the end of the current billing month.",
        "Two-factor authentication: download your recovery codes; each code works once.",
        "Family plan prices: the family plan costs 14.99 per month for up to six people.",
        "Shared folders: invite people by email; they can edit or only view.",
        "Storage quota: the free plan has 5 GB, paid plans more; old versions count too.",
        "Monthly billing: you are billed at the start of each month; a cancelled plan runs to its end.",
      ];
      await engine.indexDocuments(
        texts.map((text, i) => ({ id: `doc-${i}`, title: text.split(":")[0]!, text, language: "en" })),
        { collection: "docs", ids: "keys" },
      );
      const result = await engine.ask("How long does my paid plan stay active after I cancel the monthly plan?");
      const lists = rankedLists(result.trace);
      expect(lists.length).toBeGreaterThan(1);
      expect(lists.every((s) => Array.isArray(s.output))).toBe(true);
      expect(result.trace.some((s) => !Array.isArray(s.output))).toBe(true);
      // Every document, ranked or not, judged relevant at once: the same path through the slim lists.
      const judgments = Object.fromEntries(texts.map((_, i) => [`doc-${i}`, 1 + (i % 2)]));
      const results = result.sources.map((s) => ({ docId: s.docId }));
      for (const k of [1, 2, 10])
        expect(relevantDocPaths(lists, results, judgments, k)).toEqual(relevantDocPaths(result.trace, results, judgments, k));
      expect(JSON.stringify(lists).length).toBeLessThan(JSON.stringify(result.trace).length / 2);
    } finally {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps each list's name, and only a document's id, rank and score", () => {
    const fused: TraceStage = {
      stage: "fusion",
      input: { name: "fusion", k: 60, lists: ["bm25", "vector"] },
      output: [{ docId: "a", passageId: "a#2", score: 0.5, rank: 1, detail: { bm25: 1, vector: 3 } }],
      start: 1,
      end: 2,
      note: "two lists",
    };
    const generation: TraceStage = { stage: "generation", input: { model: "m" }, output: { answer: "x" }, start: 2, end: 3 };
    expect(rankedLists([stage("bm25", ["a", "b"], "bm25:expansion 1"), fused, generation])).toEqual([
      {
        stage: "bm25",
        input: { name: "bm25:expansion 1" },
        output: [
          { docId: "a", rank: 1, score: 1 },
          { docId: "b", rank: 2, score: 0.5 },
        ],
        start: 0,
        end: 1,
      },
      { stage: "fusion", input: { name: "fusion" }, output: [{ docId: "a", rank: 1, score: 0.5 }], start: 1, end: 2 },
    ]);
  });
});
