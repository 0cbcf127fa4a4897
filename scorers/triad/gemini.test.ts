/**
 * The judged metrics through Gemini's own provider (@ai-sdk/google), its HTTP replaced by a fetch
 * that answers as the Gemini API does (no network, no key): each step's JSON Schema must survive
 * the provider's conversion to Gemini's response schema, and the replies must come back as the
 * grade. The OpenAI-compatible path is the stub server's (test/stub-openai-server.ts).
 */
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { describe, expect, it } from "vitest";
import { askCase, askResult, CODES } from "../test-data/ask.js";
import { triadScore } from "./index.js";

interface GeminiRequest {
  generationConfig: { responseMimeType?: string; responseSchema?: { properties?: Record<string, unknown> }; temperature?: number };
  contents: Array<{ parts: Array<{ text?: string }> }>;
}

function gemini(answer: (request: GeminiRequest) => unknown) {
  const requests: GeminiRequest[] = [];
  const provider = createGoogleGenerativeAI({
    apiKey: "test-key-not-used",
    fetch: async (_url, init) => {
      const request = JSON.parse(String(init?.body)) as GeminiRequest;
      requests.push(request);
      const body = {
        candidates: [{ content: { role: "model", parts: [{ text: JSON.stringify(answer(request)) }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
      };
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  return { model: provider("gemini-2.5-pro"), requests };
}

describe("the judged metrics through Gemini's provider", () => {
  it("splits and verifies faithfulness in two calls, each with its schema as Gemini's JSON response schema", async () => {
    const { model, requests } = gemini((r) =>
      "verdicts" in (r.generationConfig.responseSchema?.properties ?? {})
        ? { verdicts: [{ statement: 1, reason: "[1] says so", verdict: "supported", refs: [1] }] }
        : { statements: ["Tessera creates 10 recovery codes."] },
    );
    const g = await triadScore("faithfulness", askCase(), askResult("Tessera creates 10 recovery codes [1].", [CODES]), { judge: model });
    expect(g.metadata).toMatchObject({ method: "llm-judge", judgeModel: "google.generative-ai/gemini-2.5-pro", claims: 1, supported: 1 });
    expect(g.score).toBe(1);
    expect(requests).toHaveLength(2);
    for (const r of requests) expect(r.generationConfig).toMatchObject({ responseMimeType: "application/json", temperature: 0 });
    expect(requests[1]!.generationConfig.responseSchema).toMatchObject({
      properties: { verdicts: { items: { properties: { verdict: { enum: ["supported", "contradicted", "not-found"] } } } } },
    });
  });

  it("grades answer correctness against the reference", async () => {
    const { model } = gemini(() => ({
      reasoning: "the figure matches",
      statements: [{ statement: "Tessera creates 10 recovery codes.", class: "in-reference" }],
      missing: [],
    }));
    const c = askCase({ referenceAnswer: "10 recovery codes." });
    const g = await triadScore("answer-correctness", c, askResult("Tessera creates 10 recovery codes [1].", [CODES]), { judge: model });
    expect(g.metadata).toMatchObject({ method: "llm-judge", tp: 1, fp: 0, fn: 0 });
    expect(g.score).toBe(1);
  });
});
