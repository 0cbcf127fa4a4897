/**
 * For tests of code that calls a language model (the engine's own, and the suite's judges): a
 * scripted model built on the AI SDK's `MockLanguageModelV3`, which answers each call with the
 * next reply of its script. No network, no keys.
 */
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/** A model reply of plain text (no content at all for ""), with the given finish reason. */
export function textReply(text: string, finish: "stop" | "length" = "stop"): LanguageModelV3GenerateResult {
  return {
    content: text === "" ? [] : [{ type: "text", text }],
    finishReason: { unified: finish, raw: finish },
    usage: { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } },
    warnings: [],
  } as LanguageModelV3GenerateResult;
}

/** A model `mock/<modelId>` that answers each call with the next reply, or throws it (an Error); the last one repeats. */
export function scriptedModel(modelId: string, ...replies: Array<string | Error>): MockLanguageModelV3 {
  let i = 0;
  return new MockLanguageModelV3({
    provider: "mock",
    modelId,
    doGenerate: async () => {
      const next = replies[Math.min(i++, replies.length - 1)]!;
      if (next instanceof Error) throw next;
      return textReply(next);
    },
  });
}

/** One move of a scripted agent model: tool calls (one step), final text, or a failure. */
export type AgentMove = { calls: Array<{ tool: string; input: unknown }> } | { text: string } | Error;

/**
 * A model `mock/<modelId>` that drives an agent turn by script: each call of it is the next move
 * (the last one repeats): tool calls, with their ids `<modelId>-<step>-<n>`, or the final text.
 * `seen` receives every prompt it was given, to check what the loop handed it.
 */
export function scriptedAgentModel(modelId: string, moves: readonly AgentMove[], seen?: (prompt: unknown) => void): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    provider: "mock",
    modelId,
    doGenerate: async (options) => {
      seen?.(options.prompt);
      const move = moves[Math.min(step++, moves.length - 1)]!;
      if (move instanceof Error) throw move;
      if ("text" in move) return textReply(move.text);
      return {
        ...textReply(""),
        content: move.calls.map((c, n) => ({
          type: "tool-call" as const,
          toolCallId: `${modelId}-${step}-${n + 1}`,
          toolName: c.tool,
          input: JSON.stringify(c.input),
        })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
      } as LanguageModelV3GenerateResult;
    },
  });
}
