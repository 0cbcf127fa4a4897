/**
 * The engine's model seams are AI SDK interfaces, not class checks: a wrapped offline embedder or
 * reranker behaves exactly as the bare one, the index's statistics reach the reranker through the
 * AI SDK call, and one call policy (timeout, retries) bounds every model call — embeddings and
 * reranking included. Mock models only; nothing leaves the machine.
 */
import { join } from "node:path";
import { APICallError, type EmbeddingModelV3CallOptions, type RerankingModelV3CallOptions } from "@ai-sdk/provider";
import { wrapEmbeddingModel } from "ai";
import { MockEmbeddingModelV3, MockLanguageModelV3, MockRerankingModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine, HashedNgramEmbedder, HeuristicReranker, resolveParameters } from "../src/index.js";
import { ModelExpander } from "../src/models/index.js";
import type { EngineOptions, RerankingModel, TraceItem } from "../src/types.js";
import { SMALL_CORPUS, tempDir, writeFiles } from "./helpers.js";

const FAST = { timeoutMs: 200, maxRetries: 0 };
const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** A retryable provider failure that asks for an immediate retry (so tests do not wait for backoff). */
function overloaded(): APICallError {
  return new APICallError({
    message: "HTTP 503: overloaded",
    url: "http://127.0.0.1/v1",
    requestBodyValues: {},
    statusCode: 503,
    isRetryable: true,
    responseHeaders: { "retry-after-ms": "0" },
  });
}

type Behaviour = "ok" | "hang" | "fail once";

/** An embedding model over the offline embedder's vectors whose next calls can hang or fail. */
function controllableEmbedder(): { model: MockEmbeddingModelV3; set(b: Behaviour): void; calls(): number } {
  const inner = new HashedNgramEmbedder();
  let behaviour: Behaviour = "ok";
  let calls = 0;
  const model = new MockEmbeddingModelV3({
    provider: "mock",
    modelId: "embed",
    maxEmbeddingsPerCall: 4096,
    doEmbed: async (options: EmbeddingModelV3CallOptions) => {
      calls++;
      if (behaviour === "hang") return never();
      if (behaviour === "fail once") {
        behaviour = "ok";
        throw overloaded();
      }
      return inner.doEmbed(options);
    },
  });
  return { model, set: (b) => void (behaviour = b), calls: () => calls };
}

const dir = tempDir("engine-seams-");
const offlineDb = join(dir, "offline.db");
const mockDb = join(dir, "mock.db");
const embedder = controllableEmbedder();
const engines: Engine[] = [];
const open = (file: string, options: EngineOptions = {}): Engine => {
  const engine = Engine.open(file, options);
  engines.push(engine);
  return engine;
};

beforeAll(async () => {
  writeFiles(join(dir, "corpus"), SMALL_CORPUS);
  const offline = Engine.open(offlineDb, { create: true });
  await offline.index(join(dir, "corpus"));
  offline.close();
  const mock = Engine.open(mockDb, { create: true, embedder: embedder.model });
  await mock.index(join(dir, "corpus"));
  mock.close();
});
afterAll(() => {
  for (const e of engines) e.close();
});

const ranked = (r: { results: Array<{ docId: string; score: number }> }) => r.results.map((h) => [h.docId, h.score]);

describe("the offline embedder's fusion weight", () => {
  it("comes from the provider the embedder declares, so a wrapped offline embedder keeps it and ranks the same", async () => {
    const wrapped = wrapEmbeddingModel({ model: new HashedNgramEmbedder(), middleware: { specificationVersion: "v3" } });
    const bare = open(offlineDb);
    const viaWrapper = open(offlineDb, { embedder: wrapped });
    expect(bare.hybrid.vectorWeight).toBe(0.5);
    expect(viaWrapper.hybrid.vectorWeight).toBe(0.5);
    for (const tier of ["balanced", "thorough"] as const) {
      expect(ranked(await viaWrapper.query("cancel subscription", { tier }))).toEqual(
        ranked(await bare.query("cancel subscription", { tier })),
      );
    }
  });

  it("is 1 for a model embedder, and an explicit hybrid.vectorWeight wins over either default", () => {
    expect(resolveParameters({}, embedder.model).hybrid.vectorWeight).toBe(1);
    expect(resolveParameters({}).hybrid.vectorWeight).toBe(0.5);
    expect(resolveParameters({ hybrid: { vectorWeight: 0.8 } }).hybrid.vectorWeight).toBe(0.8);
    expect(resolveParameters({ hybrid: { vectorWeight: 0.8 } }, embedder.model).hybrid.vectorWeight).toBe(0.8);
  });
});

describe("the reranker seam", () => {
  it("gives the heuristic reranker the index's statistics through the AI SDK call: a wrapper reranks the same", async () => {
    const inner = new HeuristicReranker();
    const seen: RerankingModelV3CallOptions[] = [];
    const wrapper: RerankingModel = {
      specificationVersion: "v3",
      provider: inner.provider,
      modelId: inner.modelId,
      doRerank: (options) => {
        seen.push(options);
        return inner.doRerank(options);
      },
    };
    const bare = open(offlineDb);
    const wrapped = open(offlineDb, { reranker: wrapper });
    const question = "how long does the free plan keep deleted files";
    expect(ranked(await wrapped.query(question))).toEqual(ranked(await bare.query(question)));
    const stats = seen[0]!.providerOptions!.offline as { termIdf: Record<string, number>; languages: string[]; maxIdf: number };
    expect(stats.languages).toEqual(expect.arrayContaining(["de", "en", "fr"]));
    expect(stats.maxIdf).toBeGreaterThan(stats.termIdf.free!);
    expect(stats.termIdf.free).toBeGreaterThan(0);
  });

  it("uses a reranking model's scores, and fails with PROVIDER_ERROR when it fails", async () => {
    const model = new MockRerankingModelV3({
      provider: "mock",
      modelId: "rerank",
      doRerank: async ({ documents }) => ({
        ranking: documents.values.map((_, index) => ({ index, relevanceScore: index === 0 ? 1 : 0 })),
      }),
    });
    const r = await open(offlineDb, { reranker: model, modelLimits: FAST }).query("cancel subscription");
    const stage = r.trace.find((s) => s.stage === "rerank")!;
    expect(stage.input.reranker).toBe("mock/rerank");
    expect((stage.output as TraceItem[]).map((i) => i.detail!.rerank)).toContain(1);
    const failing = new MockRerankingModelV3({
      provider: "mock",
      modelId: "down",
      doRerank: async () => Promise.reject(new Error("HTTP 500")),
    });
    await expect(open(offlineDb, { reranker: failing, modelLimits: FAST }).query("cancel")).rejects.toMatchObject({
      code: "PROVIDER_ERROR",
      message: expect.stringMatching(/^reranking with mock\/down failed: HTTP 500/),
    });
  });
});

describe("one call policy for every model call", () => {
  it("gives up on an embedding call that hangs after modelLimits.timeoutMs, at query and at index time", async () => {
    const engine = open(mockDb, { embedder: embedder.model, modelLimits: FAST });
    embedder.set("hang");
    const started = Date.now();
    await expect(engine.vsearch("cancel subscription")).rejects.toMatchObject({
      code: "PROVIDER_ERROR",
      message: expect.stringMatching(/^embedding with mock\/embed failed: no answer within 200 ms/),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    writeFiles(join(dir, "more"), { "new.md": "# New\n\nA page that must be embedded." });
    const hungIndex = Engine.open(join(dir, "hung.db"), { create: true, embedder: embedder.model, modelLimits: FAST });
    engines.push(hungIndex);
    await expect(hungIndex.index(join(dir, "more"))).rejects.toMatchObject({ code: "PROVIDER_ERROR" });
    expect(hungIndex.stats().documents).toBe(0);
    embedder.set("ok");
  });

  it("retries a failed embedding call up to modelLimits.maxRetries", async () => {
    embedder.set("fail once");
    await expect(open(mockDb, { embedder: embedder.model, modelLimits: FAST }).vsearch("cancel")).rejects.toMatchObject({
      message: expect.stringMatching(/HTTP 503: overloaded/),
    });
    embedder.set("fail once");
    const before = embedder.calls();
    const r = await open(mockDb, { embedder: embedder.model, modelLimits: { timeoutMs: 5000, maxRetries: 1 } }).vsearch("cancel");
    expect(embedder.calls() - before).toBe(2);
    expect(r.results[0]!.docId).toBe("en/billing.md");
  });

  it("gives up on a reranking call that hangs, and retries one that fails", async () => {
    const hanging = new MockRerankingModelV3({ provider: "mock", modelId: "slow", doRerank: () => never() });
    await expect(open(offlineDb, { reranker: hanging, modelLimits: FAST }).query("cancel")).rejects.toMatchObject({
      code: "PROVIDER_ERROR",
      message: expect.stringMatching(/^reranking with mock\/slow failed: no answer within 200 ms/),
    });
    const inner = new HeuristicReranker();
    let calls = 0;
    const flaky = new MockRerankingModelV3({
      provider: "mock",
      modelId: "flaky",
      doRerank: async (options) => {
        if (calls++ === 0) throw overloaded();
        return inner.doRerank(options);
      },
    });
    const r = await open(offlineDb, { reranker: flaky, modelLimits: { timeoutMs: 5000, maxRetries: 1 } }).query("cancel subscription");
    expect(calls).toBe(2);
    expect(r.results[0]!.docId).toBe("en/billing.md");
  });

  it("bounds answer and expansion calls the same way", async () => {
    const hanging = new MockLanguageModelV3({ provider: "mock", modelId: "slow", doGenerate: () => never() });
    const r = await open(offlineDb, { languageModels: { balanced: hanging }, modelLimits: FAST }).ask("How do I cancel my subscription?");
    expect(r.error).toMatch(/^answer model mock\/slow failed: no answer within 200 ms/);
    const expansion = await new ModelExpander(hanging, FAST).expand("cancel");
    expect(expansion.fallback!.reason).toMatch(/^model call failed: no answer within 200 ms/);
  });

  it("rejects limits that are not positive integers", () => {
    expect(() => Engine.open(offlineDb, { modelLimits: { timeoutMs: 0, maxRetries: 2 } })).toThrow(
      /Expected "modelLimits.timeoutMs" to be a positive integer, got 0/,
    );
  });
});
