import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callCost, checkPrices, type ModelCall, mergePrices, type PriceTable, summarizeUsage, usageLines } from "./usage.js";

const PRICES: PriceTable = {
  currency: "USD",
  per: "1M tokens",
  source: "test",
  retrieved: "2026-12-01",
  models: { "judge-1": { input: 2, output: 10, cachedInput: 0.5 }, embed: { input: 0.1 } },
};

const call = (over: Partial<ModelCall>): ModelCall => ({
  role: "judge",
  model: "judge-1",
  inputTokens: 1000,
  outputTokens: 100,
  cachedInputTokens: 0,
  cacheHit: false,
  ...over,
});

describe("the cost of a call", () => {
  it("is (uncached · input + cached · cached input + output · output price) / 10⁶", () => {
    // (800 · 2 + 200 · 0.5 + 100 · 10) / 1e6 = (1600 + 100 + 1000) / 1e6
    expect(callCost(call({ cachedInputTokens: 200 }), PRICES.models["judge-1"])).toBeCloseTo(2700 / 1e6, 15);
    // Cached tokens without a cached price cost the input price.
    expect(callCost({ inputTokens: 1000, outputTokens: 0, cachedInputTokens: 500 }, { input: 1 })).toBeCloseTo(1000 / 1e6, 15);
  });

  it("is unknown without a price, without token counts, or with output tokens and no output price", () => {
    expect(callCost(call({}), undefined)).toBeNull();
    expect(callCost(call({ inputTokens: null, outputTokens: null }), PRICES.models["judge-1"])).toBeNull();
    expect(callCost(call({ model: "embed" }), PRICES.models.embed)).toBeNull();
    expect(callCost(call({ model: "embed", outputTokens: 0 }), PRICES.models.embed)).toBeCloseTo(100 / 1e6, 15);
  });
});

describe("a run's usage", () => {
  it("sums per role and model; one model without a price makes the total unknown, its tokens still counted", () => {
    const u = summarizeUsage(
      [
        call({}),
        call({ cacheHit: true }),
        call({ role: "answerer:slim", model: "local-llama", inputTokens: 500, outputTokens: 50 }),
        call({ role: "answerer:slim", model: "local-llama", inputTokens: 700, outputTokens: 70 }),
      ],
      PRICES,
    );
    expect(u.rows).toEqual([
      expect.objectContaining({
        role: "judge",
        model: "judge-1",
        calls: 1,
        cacheHits: 1,
        inputTokens: 1000,
        outputTokens: 100,
        cost: 3000 / 1e6,
      }),
      expect.objectContaining({
        role: "answerer:slim",
        model: "local-llama",
        calls: 2,
        cacheHits: 0,
        inputTokens: 1200,
        outputTokens: 120,
        cost: null,
      }),
    ]);
    expect(u.total).toMatchObject({
      calls: 3,
      cacheHits: 1,
      inputTokens: 2200,
      outputTokens: 220,
      cost: null,
      unknownCostModels: ["local-llama"],
    });
    const lines = usageLines(u);
    expect(lines[0]).toMatch(
      /^tokens: 3 call\(s\) made, 1 answered by the cache; 2,200 in \/ 220 out; cost unknown \(no price for local-llama; known part \$0\.0030\)/,
    );
    expect(lines).toContain("  answerer:slim local-llama: 2 call(s) made, 0 cache hit(s); 1,200 in / 120 out; cost unknown");
  });

  it("counts refused calls apart and states the budget; a dry run's are estimates", () => {
    const u = summarizeUsage([call({}), call({ refused: "budget" }), call({ refused: "budget" })], PRICES, { maxCost: 0.004 });
    expect(u.budget).toEqual({ maxCost: 0.004, spent: 3000 / 1e6, refused: 2, firstRefused: "judge judge-1" });
    expect(usageLines(u).at(-1)).toBe(
      "budget: STOPPED: --max-cost $0.0040 reached (spent $0.0030); 2 call(s) not made, the first: judge judge-1",
    );
    const dry = summarizeUsage([call({ dryRun: true })], PRICES);
    expect(dry.estimated).toBe(true);
    expect(usageLines(dry)[0]).toMatch(/^tokens \(dry run: estimates, no model called\): 1 call\(s\) would be made/);
    expect(usageLines(summarizeUsage([], PRICES))).toEqual(["tokens: no model calls (offline)"]);
  });
});

describe("price tables", () => {
  it("the shipped one fits its schema; an override replaces by model id; a bad file is one line naming the field", () => {
    const read = (path: string, shown = path) => checkPrices(JSON.parse(readFileSync(path, "utf8")), shown);
    const shipped = read(join(import.meta.dirname, "../../../evals/model-prices.json"));
    expect(shipped.models["gemini-2.5-flash"]).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
    const merged = mergePrices(shipped, { ...PRICES, models: { "gemini-2.5-flash": { input: 9, output: 9 } } });
    expect(merged.models["gemini-2.5-flash"]).toEqual({ input: 9, output: 9 });
    expect(merged.models["gemini-2.5-pro"]).toEqual(shipped.models["gemini-2.5-pro"]);
    const dir = mkdtempSync(join(tmpdir(), "prices-"));
    const bad = join(dir, "p.json");
    writeFileSync(bad, JSON.stringify({ ...PRICES, models: { x: { input: -1 } } }));
    expect(() => read(bad, "p.json")).toThrow(/^p\.json: \/models\/x\/input: must be >= 0$/);
  });
});
