/**
 * `turn`, an orchestration over the engine's core: one question answered by a tool loop — the AI
 * SDK's `generateText` with the turn's tools (tools.ts), a step cap and a token budget, always —
 * driven by the preset's language model, or, when the preset has none, by the offline policy
 * (offline-policy.ts), which drives the very same loop. What the loop did becomes the turn trace:
 * every step, each tool call with its input, output or error, duration and whether it needed
 * approval; the answer's citations, each surfaced or recalled (citations.ts); the outcome; and the
 * proposal when the turn stopped at a tool that needs approval, which it never runs.
 *
 * Never throws for a model failure: the outcome is then `error`, with what failed and the steps
 * made before it.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ContentPart, StepResult, ToolSet } from "ai";
import { aiSdk } from "../ai-sdk.js";
import { isRefusal } from "../answer/citations.js";
import { callWithPolicy } from "../call-policy.js";
import type { EngineCore } from "../core.js";
import { errorLine } from "../errors.js";
import { checkCollection } from "../options/call-options.js";
import { resolveTurnOptions } from "../options/turn-options.js";
import { now } from "../pipeline/trace.js";
import { AGENT_PROMPT_PATH, promptText } from "../prompts.js";
import type { TurnOptions, TurnResult, TurnStep, TurnToolCall } from "../types.js";
import { matchCitations } from "./citations.js";
import { CHARS_PER_TOKEN, OfflineAgentPolicy } from "./offline-policy.js";
import { agentTools, TOOL_INFO } from "./tools.js";

type Step = StepResult<ToolSet>;

/** A step's tokens as the model reported them, or estimated (CHARS_PER_TOKEN) when it reported none. */
function stepTokens(step: Step): { input: number; output: number; estimated: boolean } {
  const { inputTokens, outputTokens } = step.usage;
  if (inputTokens !== undefined && outputTokens !== undefined) return { input: inputTokens, output: outputTokens, estimated: false };
  const body = step.request.body;
  const sent = typeof body === "string" ? body.length : JSON.stringify(body ?? "").length;
  const received = step.text.length + JSON.stringify(step.toolCalls.map((c) => c.input)).length;
  return { input: Math.ceil(sent / CHARS_PER_TOKEN), output: Math.ceil(received / CHARS_PER_TOKEN), estimated: true };
}

function usageOf(steps: readonly Step[], estimate: boolean): TurnResult["usage"] {
  let inputTokens = 0;
  let outputTokens = 0;
  let estimated = estimate;
  for (const step of steps) {
    const t = stepTokens(step);
    inputTokens += t.input;
    outputTokens += t.output;
    estimated ||= t.estimated;
  }
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, counted: estimated ? "estimate" : "model" };
}

/** The calls of one step, in the order the model made them, each with what became of it. */
function toolCallsOf(step: Step, surface: ReadonlySet<string>, durations: ReadonlyMap<string, number>): TurnToolCall[] {
  const content = step.content as Array<ContentPart<ToolSet>>;
  const calls: TurnToolCall[] = [];
  for (const part of content) {
    if (part.type !== "tool-call") continue;
    const { toolCallId: id, toolName: name, input } = part;
    const needsApproval = surface.has(name) && (TOOL_INFO[name as keyof typeof TOOL_INFO]?.needsApproval ?? false);
    const durationMs = durations.get(id) ?? 0;
    const result = content.find((p) => p.type === "tool-result" && p.toolCallId === id);
    const failure = content.find((p) => p.type === "tool-error" && p.toolCallId === id);
    const approval = content.find((p) => p.type === "tool-approval-request" && p.toolCall.toolCallId === id);
    if (result?.type === "tool-result") calls.push({ id, name, input, output: result.output, status: "done", needsApproval, durationMs });
    else if (failure?.type === "tool-error")
      calls.push({ id, name, input, error: errorLine(failure.error), status: "error", needsApproval, durationMs });
    else if (approval) calls.push({ id, name, input, status: "awaiting-approval", needsApproval: true, durationMs: 0 });
    else calls.push({ id, name, input, error: "the loop ended before this call ran", status: "error", needsApproval, durationMs });
  }
  return calls;
}

const CORRECTION_SUMMARY = (input: { docId?: unknown; correction?: unknown }): string =>
  `file a correction to ${String(input.docId)}: ${String(input.correction)}`;

export async function turn(core: EngineCore, question: string, options: TurnOptions): Promise<TurnResult> {
  const started = now();
  const resolved = resolveTurnOptions(question, options, core.modelLimits);
  checkCollection(core.index.state().catalog, resolved.filters.collection);
  const model: LanguageModelV3 | undefined = core.agentModels[resolved.preset];
  const driver: LanguageModelV3 = model ?? new OfflineAgentPolicy(core);
  const agent = `${driver.provider}/${driver.modelId}`;
  const durations = new Map<string, number>();
  const tools = await agentTools({ core, options: resolved, durations });
  const surface = new Set<string>(resolved.tools);
  const { maxSteps, tokenBudget } = resolved;
  const ai = await aiSdk();

  const steps: Step[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const spent = (done: readonly Step[]) => usageOf(done, model === undefined).totalTokens;
  let error: string | undefined;
  try {
    await callWithPolicy(resolved.policy, (settings) =>
      ai.generateText({
        model: driver,
        system: promptText(AGENT_PROMPT_PATH),
        prompt: question,
        tools,
        temperature: 0,
        stopWhen: [ai.stepCountIs(maxSteps), ({ steps: done }) => spent(done) >= tokenBudget],
        prepareStep: ({ stepNumber }) => {
          starts[stepNumber] = now();
          return undefined;
        },
        onStepFinish: (step) => {
          steps.push(step);
          ends.push(now());
        },
        ...(resolved.headers ? { headers: resolved.headers } : {}),
        ...settings,
      }),
    );
  } catch (failure) {
    error = `agent ${agent} failed: ${errorLine(failure)}`;
  }

  const trace: TurnStep[] = steps.map((step, i) => ({
    index: i + 1,
    toolCalls: toolCallsOf(step, surface, durations),
    text: step.text,
    finishReason: step.finishReason,
    ...(step.reasoningText ? { note: step.reasoningText.slice(0, 500) } : {}),
    start: starts[i] ?? started,
    end: ends[i] ?? now(),
  }));
  const usage = usageOf(steps, model === undefined);
  const base = {
    question,
    agent,
    preset: model ? resolved.preset : null,
    tools: resolved.tools,
    steps: trace,
    usage,
    limits: { maxSteps, tokenBudget },
  };
  const finish = (fields: Pick<TurnResult, "outcome" | "answer"> & Partial<TurnResult>): TurnResult => ({
    ...base,
    citations: matchCitations(fields.answer, trace),
    ...fields,
    elapsedMs: now() - started,
  });

  const last = steps.at(-1);
  if (error !== undefined || last === undefined)
    return finish({ outcome: "error", answer: "", error: error ?? `agent ${agent} made no step` });
  const lastStep = trace.at(-1)!;
  const awaiting = lastStep.toolCalls.find((c) => c.status === "awaiting-approval");
  if (awaiting)
    return finish({
      outcome: "stopped-at-approval",
      answer: last.text.trim(),
      proposal: {
        tool: awaiting.name,
        input: awaiting.input,
        step: lastStep.index,
        summary:
          awaiting.name === "file_correction"
            ? CORRECTION_SUMMARY(awaiting.input as Record<string, unknown>)
            : `${awaiting.name} ${JSON.stringify(awaiting.input)}`,
      },
    });
  if (last.finishReason === "tool-calls") {
    // The loop wanted another step: a stop condition ended it.
    if (steps.length >= maxSteps) return finish({ outcome: "step-limit", answer: "" });
    if (usage.totalTokens >= tokenBudget) return finish({ outcome: "budget-exhausted", answer: "" });
    return finish({ outcome: "error", answer: "", error: `agent ${agent}: the loop ended with tool calls it did not run` });
  }
  const answer = last.text.trim();
  if (answer === "")
    return finish({ outcome: "error", answer: "", error: `agent ${agent} returned no text (finish reason: ${last.finishReason})` });
  return finish({ outcome: isRefusal(answer) ? "refused" : "answered", answer });
}
