/**
 * The agent eval's task: the target's agent turn for a case (computed once per run and shared,
 * helpers/run-cache.ts), each of its steps forwarded to Evalite as a trace entry (the tool, its
 * input, its output or error, how long it ran), and what the graders and columns read. A turn the
 * target cannot give (its call failed: `TargetError`) is no throw: the output carries the reason,
 * and the case fails with it while the run goes on (scorers/agent/turn-verdict.ts).
 */
import { reportTrace } from "evalite/traces";
import { OFFLINE_POLICY_LABEL, OFFLINE_POLICY_MODEL } from "@hybrid-search/engine/models";
import type { TurnResponse, TurnStep } from "@hybrid-search/target-contract/turn";
import type { Preset } from "@hybrid-search/target-contract/types";
import type { AgentTurnOutput } from "../scorers/agent/turn-verdict.js";
import type { TurnCase } from "../scorers/agent/turn-case.js";
import { evalTarget } from "./eval-index.js";
import { trialHeaders } from "./run-cache.js";
import { once } from "./run-cache.js";
import { providedTarget } from "./targets/eval-target.js";
import { observedTurn } from "./targets/observe.js";
import { type Target, TargetError } from "./targets/target.js";
import { inputView, outputView } from "./trace-view.js";

const OFFLINE_POLICY_ID = `offline/${OFFLINE_POLICY_MODEL}`;

/**
 * Who drove a turn, as people read it: `agent: offline policy` for the engine's offline policy,
 * else `agent: <what the turn names>` (a model id), with the target (`http:<name>`, `module:<name>`,
 * `run:<name>`) when it is not the engine on the suite's own index.
 */
export function agentLabel(turn: Pick<TurnResponse, "agent"> | null, target: Pick<Target, "label">, suiteIndex: boolean): string {
  const driver = turn?.agent === OFFLINE_POLICY_ID ? OFFLINE_POLICY_LABEL : (turn?.agent ?? "not reported");
  return `agent: ${driver}${suiteIndex ? "" : ` (${target.label})`}`;
}

/** One trace entry per tool call of each step, and one for a step's text (the answer); times from the trace. */
export function forwardTurnTrace(turn: TurnResponse): void {
  const now = performance.timeOrigin + performance.now();
  for (const entry of turnTraceEntries(turn, now)) reportTrace(entry);
}

/** The entries `forwardTurnTrace` reports, in order. A step without times (recorded elsewhere) is placed at `fallback`. */
export function turnTraceEntries(
  turn: TurnResponse,
  fallback: number,
): Array<{ input: unknown; output: unknown; start: number; end: number }> {
  const entries: Array<{ input: unknown; output: unknown; start: number; end: number }> = [];
  for (const step of turn.steps) {
    let at = step.start ?? fallback;
    for (const call of step.toolCalls) {
      const input = inputView(`step ${step.index}: ${call.name}`, {
        status: call.status,
        needsApproval: call.needsApproval,
        ms: call.durationMs,
        input: call.input,
      });
      const output =
        call.status === "done"
          ? outputView(call.output)
          : call.status === "error"
            ? `**error**: ${call.error ?? "(none given)"}`
            : "awaiting approval: not run";
      entries.push({ input, output, start: at, end: at + call.durationMs });
      at += call.durationMs;
    }
    if (step.text || step.toolCalls.length === 0) entries.push(textEntry(step, at));
  }
  return entries;
}

function textEntry(step: TurnStep, at: number): { input: unknown; output: unknown; start: number; end: number } {
  return {
    input: inputView(`step ${step.index}: ${step.toolCalls.length === 0 ? "answer" : "text"}`, {
      finishReason: step.finishReason ?? "not reported",
      ...(step.note ? { note: step.note } : {}),
    }),
    output: step.text || "(no text)",
    start: at,
    end: step.end ?? at,
  };
}

/** The tools a turn called, in order, for a column: `1 catalog → 2 search ✗ → 3 file_correction ⏸`. */
export function toolsInOrder(turn: TurnResponse | null): string {
  if (turn === null) return "(no turn)";
  const calls = turn.steps.flatMap((s) =>
    s.toolCalls.map((c) => `${s.index} ${c.name}${c.status === "error" ? " ✗" : c.status === "awaiting-approval" ? " ⏸" : ""}`),
  );
  return calls.length === 0 ? "(no tool called)" : calls.join(" → ");
}

/**
 * A case's turn on the run's target at `preset`: once per run for each (target, index, case,
 * preset, trial), its steps forwarded to Evalite's trace view.
 */
export async function agentTurn(suite: string, c: TurnCase, preset: Preset): Promise<AgentTurnOutput> {
  const { target, fingerprint } = await evalTarget();
  const request = {
    id: c.id,
    question: c.question,
    ...(c.tools === undefined ? {} : { tools: c.tools }),
    surface: c.surface,
    preset,
    ...(c.maxSteps === undefined ? {} : { maxSteps: c.maxSteps }),
    ...(c.tokenBudget === undefined ? {} : { tokenBudget: c.tokenBudget }),
    headers: trialHeaders(`${suite}:${preset}:${c.id}`),
  };
  const { suiteIndex } = providedTarget();
  if (!target.turn) {
    const error = `target ${target.name} does not answer agent turns`;
    return { turn: null, error, agent: agentLabel(null, target, suiteIndex), elapsedMs: null, timedBy: null };
  }
  let observed: Awaited<ReturnType<typeof observedTurn>>;
  try {
    observed = await once([target.label, fingerprint, "turn", request], async () => observedTurn(await target.turn!(request)));
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    return { turn: null, error: error.message, agent: agentLabel(null, target, suiteIndex), elapsedMs: null, timedBy: null };
  }
  forwardTurnTrace(observed.turn);
  return { ...observed, agent: agentLabel(observed.turn, target, suiteIndex) };
}
