/**
 * The query pipeline's seams: a stage added to a composed tier runs where the composition puts
 * it, is timed and traced by `stage()` like the engine's own, and a composition of synchronous
 * steps stays synchronous. The code under "the worked example" is docs/engine.md's ("A new stage
 * or tier"), word for word.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeEngineCore, type EngineCore, openEngineCore } from "../src/core.js";
import { compose, type SyncStep } from "../src/pipeline/compose.js";
import { type QueryContext, traceItems } from "../src/pipeline/context.js";
import { query, search } from "../src/pipeline/run.js";
import { COMPOSITIONS, type Compositions } from "../src/pipeline/tiers.js";
import { type StageReport, stage, type Traced, TraceRecorder } from "../src/pipeline/trace.js";
import type { DocCandidate } from "../src/retrieval/bm25.js";
import { smallCorpusEngine } from "./helpers.js";

// ---- the worked example ----

/** Keeps the candidates scoring at least `minScore`. */
const cutoff = stage("cutoff", (ctx: QueryContext, ranking: readonly DocCandidate[], minScore: number) => {
  const kept = ranking.filter((c) => c.score >= minScore);
  return {
    value: kept,
    input: { minScore, candidates: ranking.length },
    output: traceItems(ctx, kept),
    note: kept.length < ranking.length ? `${ranking.length - kept.length} below ${minScore} dropped` : undefined,
  };
});

/** The step a composition lists: the ranking so far, cut. */
const cutRanking =
  (minScore: number): SyncStep =>
  (ctx, flow) => ({ ...flow, ranking: cutoff(ctx, flow.ranking, minScore) });

const tiers: Compositions = {
  ...COMPOSITIONS,
  balanced: compose(COMPOSITIONS.balanced, cutRanking(0.5)),
  search: compose(COMPOSITIONS.search, cutRanking(0.5)),
};

// ---- end of the worked example ----

const setup = smallCorpusEngine();
let core: EngineCore;
beforeAll(() => {
  core = openEngineCore(join(setup.dir, "index.db"));
});
afterAll(() => {
  if (core) closeEngineCore(core);
});

const stages = (trace: { stage: string }[]): string[] => trace.map((s) => s.stage);

describe("a stage added to a composed tier", () => {
  it("runs after the tier's own stages and is traced like them", async () => {
    const plain = await query(core, "cancel subscription", { tier: "balanced" });
    const cut = await query(core, "cancel subscription", { tier: "balanced" }, tiers);
    expect(stages(plain.trace)).toEqual(["bm25", "vector", "fusion", "rerank"]);
    expect(stages(cut.trace)).toEqual(["bm25", "vector", "fusion", "rerank", "cutoff"]);
    const entry = cut.trace.at(-1)!;
    const candidates = plain.trace.at(-1)!.input.candidates as number;
    expect(entry.input).toEqual({ minScore: 0.5, candidates });
    expect(entry.end).toBeGreaterThanOrEqual(entry.start);
    expect(entry.start).toBeGreaterThanOrEqual(cut.trace.at(-2)!.end);
    // The cut is the plain ranking without what scores below 0.5: nothing else moved.
    const kept = plain.results.filter((h) => h.score >= 0.5);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(plain.results.length);
    expect(cut.results.map((h) => [h.docId, h.score])).toEqual(kept.map((h) => [h.docId, h.score]));
    expect(entry.note).toBe(`${candidates - kept.length} below 0.5 dropped`);
  });

  it("keeps a composition of synchronous steps synchronous, and leaves the other tiers alone", async () => {
    const cut = search(core, "cancel subscription", {}, tiers);
    expect(cut).not.toBeInstanceOf(Promise);
    expect(stages(cut.trace)).toEqual(["bm25", "cutoff"]);
    expect(cut.results.every((h) => h.score >= 0.5)).toBe(true);
    const fast = await query(core, "cancel subscription", { tier: "fast" }, tiers);
    expect(stages(fast.trace)).toEqual(["bm25"]);
  });

  it("the engine's own table is untouched", async () => {
    expect(stages(setup.engine.search("cancel subscription").trace)).toEqual(["bm25"]);
    expect(stages((await setup.engine.query("cancel subscription")).trace)).toEqual(["bm25", "vector", "fusion", "rerank"]);
  });
});

describe("docs/engine.md", () => {
  it("shows the worked example as this file runs it", () => {
    const docs = readFileSync(join(import.meta.dirname, "../../../docs/engine.md"), "utf8");
    const section = docs.slice(docs.indexOf("### A new stage or tier"));
    const shown = /```ts\n([\s\S]*?)\n```/.exec(section)?.[1];
    const source = readFileSync(import.meta.filename, "utf8");
    const run = /\/\/ ---- the worked example ----\n\n?([\s\S]*?)\n+\/\/ ---- end of the worked example ----/.exec(source)?.[1];
    expect(run).toBeDefined();
    expect(shown).toBe(run);
  });

  it("shows the engine's tiers as pipeline/tiers.ts declares them", () => {
    const docs = readFileSync(join(import.meta.dirname, "../../../docs/engine.md"), "utf8");
    const shown = /```ts\n(export const COMPOSITIONS = \{[\s\S]*?)\n```/.exec(docs)?.[1];
    const tiers = readFileSync(join(import.meta.dirname, "../src/pipeline/tiers.ts"), "utf8");
    const declared = /export const COMPOSITIONS = \{[\s\S]*?satisfies Compositions;/.exec(tiers)?.[0];
    expect(declared).toBeDefined();
    expect(shown).toBe(declared);
  });
});

describe("stage()", () => {
  it("records nothing for a stage that throws, and passes the error on", () => {
    const recorder = new TraceRecorder();
    const failing = stage("failing", (_ctx: Traced): StageReport<number> => {
      throw new RangeError("no");
    });
    const passing = stage("passing", async (_ctx: Traced) => ({ value: 1, input: {}, output: {} }));
    expect(() => failing({ trace: recorder })).toThrow(RangeError);
    expect(recorder.stages).toEqual([]);
    return passing({ trace: recorder }).then((value) => {
      expect(value).toBe(1);
      expect(recorder.stages.map((s) => s.stage)).toEqual(["passing"]);
      expect(recorder.stages[0]).not.toHaveProperty("note");
    });
  });
});
