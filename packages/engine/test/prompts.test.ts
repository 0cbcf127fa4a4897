/** Prompts are read from disk once per process, not on every model call. */
import { join } from "node:path";
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, describe, expect, it, vi } from "vitest";
import { Engine } from "../src/index.js";
import { ModelExpander } from "../src/models/index.js";
import { SMALL_CORPUS, tempDir, writeFiles } from "./helpers.js";

const reads = vi.hoisted(() => new Map<string, number>());
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
    if (typeof path === "string" && path.endsWith(".md")) reads.set(path, (reads.get(path) ?? 0) + 1);
    return (fs.readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

const readsOf = (name: string): number => [...reads].filter(([path]) => path.endsWith(`/prompts/${name}`)).reduce((n, [, c]) => n + c, 0);

function model(text: string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "mock",
    modelId: "m",
    doGenerate: async () =>
      ({
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      }) as LanguageModelV3GenerateResult,
  });
}

describe("prompts", () => {
  const dir = tempDir("engine-prompts-");
  const engines: Engine[] = [];
  afterAll(() => {
    for (const e of engines) e.close();
  });

  it("reads prompts/ask.md and prompts/expand.md once, however many calls use them", async () => {
    writeFiles(join(dir, "corpus"), SMALL_CORPUS);
    const answering = model("You can cancel at any time in Settings [1].");
    const engine = Engine.open(join(dir, "index.db"), { create: true, languageModels: { balanced: answering } });
    engines.push(engine);
    await engine.index(join(dir, "corpus"));
    for (let i = 0; i < 3; i++) expect((await engine.ask("How do I cancel my subscription?")).error).toBeUndefined();
    expect(answering.doGenerateCalls).toHaveLength(3);
    expect(JSON.stringify(answering.doGenerateCalls[2]!.prompt)).toContain("untrusted");
    expect(readsOf("ask.md")).toBe(1);

    const expanding = model('{"lexicalQueries":["cancel"],"vectorQueries":["cancel"]}');
    const expander = new ModelExpander(expanding, { maxRetries: 0 });
    for (let i = 0; i < 3; i++) await expander.expand("cancel");
    expect(expanding.doGenerateCalls).toHaveLength(3);
    expect(readsOf("expand.md")).toBe(1);
  });
});
