/**
 * The model-call wrapper (helpers/model-calls.ts) with the AI SDK's mock models, offline: the cache
 * keyed by everything that decides a reply (a prompt edit, another temperature, schema or endpoint
 * must miss), a cached judge score saying so, a budget hit mid-run, a dry run that calls nothing,
 * and embeddings counted and cached.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { textReply } from "@hybrid-search/engine/testing";
import type { PriceTable } from "@hybrid-search/eval-gate/usage";
import { embedMany, generateText, jsonSchema, Output } from "ai";
import { MockEmbeddingModelV3, MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { askCase, askResult, CODES, PRICES as PRICE_SOURCE } from "../scorers/test-data/ask.js";
import { triadScore } from "../scorers/triad/index.js";
import { openModelCache } from "./model-cache.js";
import {
  BudgetExceededError,
  type CallSettings,
  instrumentEmbeddingModel,
  instrumentLanguageModel,
  placeholderFor,
  readUsageFile,
  recordedCalls,
} from "./model-calls.js";

const dir = mkdtempSync(join(tmpdir(), "model-calls-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PRICES: PriceTable = {
  currency: "USD",
  per: "1M tokens",
  source: "test",
  retrieved: "2026-12-01",
  models: { m: { input: 1000, output: 1000 } },
};

let n = 0;
function settings(over: Partial<CallSettings> = {}): CallSettings {
  n++;
  return {
    cache: openModelCache(join(dir, `cache-${n}.db`)),
    dryRun: false,
    maxCost: null,
    prices: PRICES,
    usageFile: join(dir, `usage-${n}.jsonl`),
    endpoint: "http://127.0.0.1:1/v1",
    ...over,
  };
}

function model(reply = "ok"): MockLanguageModelV3 {
  return new MockLanguageModelV3({ provider: "mock", modelId: "m", doGenerate: async () => textReply(reply) });
}

beforeEach(() => {
  recordedCalls.length = 0;
});

describe("the model cache", () => {
  it("replays an identical call and misses after a prompt edit, another temperature, schema, header or endpoint", async () => {
    const s = settings();
    const inner = model();
    const m = instrumentLanguageModel(inner, "judge", s);
    const ask = (over: Record<string, unknown> = {}) =>
      generateText({ model: m, system: "Grade it.", prompt: "the answer", temperature: 0, ...over });
    const first = await ask();
    const again = await ask();
    expect(first.providerMetadata?.evalCache).toEqual({ hit: false });
    expect(again.providerMetadata?.evalCache).toEqual({ hit: true });
    expect(again.text).toBe("ok");
    expect(inner.doGenerateCalls).toHaveLength(1);
    await ask({ system: "Grade it strictly." }); // the rubric edited
    await ask({ prompt: "the answer, edited" });
    await ask({ temperature: 0.7 });
    await ask({ headers: { "x-eval-trial": "2" } });
    await ask({
      output: Output.object({ schema: jsonSchema({ type: "object", properties: { score: { type: "integer" } }, required: ["score"] }) }),
    }).catch(() => {});
    expect(inner.doGenerateCalls).toHaveLength(6);
    // The same call to the same model id at another endpoint is another model's reply.
    const elsewhere = instrumentLanguageModel(inner, "judge", { ...s, endpoint: "http://127.0.0.1:2/v1" });
    await generateText({ model: elsewhere, system: "Grade it.", prompt: "the answer", temperature: 0 });
    expect(inner.doGenerateCalls).toHaveLength(7);
    expect(recordedCalls.filter((c) => c.cacheHit)).toHaveLength(1);
    expect(readUsageFile(s.usageFile!)).toHaveLength(recordedCalls.length);
  });

  it("is neither read nor written when off", async () => {
    const inner = model();
    const m = instrumentLanguageModel(inner, "judge", settings({ cache: null }));
    await generateText({ model: m, prompt: "x" });
    await generateText({ model: m, prompt: "x" });
    expect(inner.doGenerateCalls).toHaveLength(2);
  });

  it("a judge score from a cached call says so in its metadata", async () => {
    const reply = JSON.stringify({ reasoning: "fine", score: 3 });
    const inner = model(reply);
    const judge = instrumentLanguageModel(inner, "judge", settings());
    const c = askCase();
    const result = askResult("Tessera creates 10 recovery codes [1].", [CODES, PRICE_SOURCE]);
    const fresh = await triadScore("answer-relevance", c, result, { judge });
    const replayed = await triadScore("answer-relevance", c, result, { judge });
    expect(fresh.metadata).toMatchObject({ method: "llm-judge", cached: false });
    expect(replayed.metadata).toMatchObject({ method: "llm-judge", cached: true });
    expect(replayed.score).toBe(fresh.score);
    expect(inner.doGenerateCalls).toHaveLength(1);
  });
});

describe("--max-cost", () => {
  it("refuses the call that would pass the budget, mid-run, and every one after; the judge falls back without a retry", async () => {
    // Each call: ~3 tokens in (12 characters / 4) and 300 typical judge tokens out at $1000/M ≈ $0.30 estimated;
    // the mock reports 10 in / 5 out = $0.015 actual. A budget of $0.40 lets the first through (reserve 0.30),
    // then the second (0.015 spent + 0.30 ≤ 0.40), and so on while spent + estimate ≤ 0.40.
    const s = settings({ maxCost: 0.4 });
    const inner = model(JSON.stringify({ reasoning: "fine", score: 3 }));
    const m = instrumentLanguageModel(inner, "judge", s);
    const made: number[] = [];
    let refused: unknown;
    for (let i = 0; i < 20 && !refused; i++) {
      try {
        await generateText({ model: m, prompt: `question ${String(i).padStart(2, "0")}` });
        made.push(i);
      } catch (error) {
        refused = error;
      }
    }
    expect(made.length).toBeGreaterThan(1);
    expect(refused).toBeInstanceOf(BudgetExceededError);
    expect(String((refused as Error).message)).toMatch(
      /^--max-cost \$0\.40 reached: this judge call to mock\/m \(~\$0\.30\d*\) would pass the budget \(spent \$0\.\d+\); not made$/,
    );
    const calls = readUsageFile(s.usageFile!);
    expect(calls.filter((c) => c.refused === "budget")).toHaveLength(1);
    expect(calls.filter((c) => !c.refused)).toHaveLength(made.length);
    // A judge asked after the budget is spent: one refused call, no retry, the heuristic stands in, labelled.
    const before = inner.doGenerateCalls.length;
    const grade = await triadScore("answer-relevance", askCase(), askResult("10 codes [1].", [CODES]), { judge: m });
    expect(inner.doGenerateCalls.length).toBe(before);
    expect(grade.metadata).toMatchObject({ method: "heuristic", fallbackFrom: "llm-judge", attempts: 1 });
    expect(String(grade.metadata.judgeError)).toMatch(/--max-cost/);
  });
});

describe("--dry-run", () => {
  it("calls no model: counts each call with estimated tokens and answers with a placeholder valid for its schema", async () => {
    const s = settings({ dryRun: true });
    const inner = model();
    const answerer = instrumentLanguageModel(inner, "answerer:slim", s);
    const schema = {
      type: "object" as const,
      properties: {
        answer: { type: "string" as const },
        refused: { type: "boolean" as const },
        citations: { type: "array" as const, items: { type: "integer" as const } },
      },
      required: ["answer", "refused", "citations"],
    };
    const r = await generateText({ model: answerer, prompt: "x".repeat(400), output: Output.object({ schema: jsonSchema(schema) }) });
    expect(r.output).toEqual({ answer: "dry run", refused: false, citations: [] });
    expect(inner.doGenerateCalls).toHaveLength(0);
    const [counted] = readUsageFile(s.usageFile!);
    expect(counted).toMatchObject({ role: "answerer:slim", dryRun: true, outputTokens: 400 });
    expect(counted!.inputTokens).toBeGreaterThanOrEqual(100);
    // A judge is not given a placeholder judgment: it falls back to its heuristic at once, counted once.
    const judge = instrumentLanguageModel(inner, "judge", s);
    const grade = await triadScore("answer-relevance", askCase(), askResult("10 codes [1].", [CODES]), { judge });
    expect(grade.metadata).toMatchObject({ method: "heuristic", fallbackFrom: "llm-judge", attempts: 1 });
    expect(inner.doGenerateCalls).toHaveLength(0);
    expect(readUsageFile(s.usageFile!).filter((c) => c.role === "judge")).toHaveLength(1);
    expect(
      placeholderFor({
        type: "object",
        properties: {
          language: { type: "string", pattern: "^[A-Za-z]{2,3}$" },
          q: { type: "array", minItems: 1, items: { type: "string", pattern: "\\S" } },
        },
        required: ["language", "q"],
      }),
    ).toEqual({ language: "en", q: ["dry run"] });
  });
});

describe("embeddings", () => {
  it("are counted as the embedder's, cached, and estimated in a dry run", async () => {
    const inner = new MockEmbeddingModelV3({
      provider: "mock",
      modelId: "e",
      maxEmbeddingsPerCall: 10,
      doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0]), usage: { tokens: 7 }, warnings: [] }),
    }) as unknown as EmbeddingModelV3;
    const s = settings();
    const m = instrumentEmbeddingModel(inner, s);
    await embedMany({ model: m, values: ["a", "b"] });
    await embedMany({ model: m, values: ["a", "b"] });
    expect((inner as unknown as MockEmbeddingModelV3).doEmbedCalls).toHaveLength(1);
    expect(readUsageFile(s.usageFile!).map((c) => [c.role, c.cacheHit, c.inputTokens])).toEqual([
      ["embedder", false, 7],
      ["embedder", true, 7],
    ]);
    const dry = instrumentEmbeddingModel(inner, settings({ dryRun: true }));
    const { embeddings } = await embedMany({ model: dry, values: ["c"] });
    expect(embeddings[0]).toHaveLength(384);
    expect((inner as unknown as MockEmbeddingModelV3).doEmbedCalls).toHaveLength(1);
  });
});
