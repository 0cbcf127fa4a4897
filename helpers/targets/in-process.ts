/**
 * The default target: the in-repo engine, in this process, on the run's temp index. It calls the
 * engine exactly as the evals always have, so an in-process run scores as before.
 */
import type { AgentToolName, AskResult, Engine } from "@hybrid-search/engine";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import type { Target, TargetAsk, TargetCapabilities, TargetRanking, TargetSearch, TargetTurn } from "./target.js";

/** The in-repo engine serves every mode, answers, expands, traces every stage and answers agent turns. */
export const IN_PROCESS_CAPABILITIES: TargetCapabilities = { modes: CONTRACT_MODES, ask: true, expand: true, trace: true, turn: true };

/** The in-process target's name: floors keep the model configuration's name (`offline`, …) for it. */
export function inProcessTarget(engine: Engine, name: string): Target {
  return {
    name,
    kind: "in-process",
    capabilities: IN_PROCESS_CAPABILITIES,
    async search({ query, mode, id: _id, ...options }: TargetSearch): Promise<TargetRanking> {
      const response =
        mode === "search"
          ? engine.search(query, options)
          : mode === "vsearch"
            ? await engine.vsearch(query, options)
            : await engine.query(query, { ...options, tier: mode });
      return { results: response.results, trace: response.trace, serverMs: response.elapsedMs, clientMs: null };
    },
    ask: inProcessAsk(engine),
    expand: (query, options) => engine.expand(query, options),
    turn: ({ question, tools, preset, maxSteps, tokenBudget, headers }: TargetTurn) =>
      engine.turn(question, {
        tools: tools as AgentToolName[],
        ...(preset ? { preset } : {}),
        ...(maxSteps === undefined ? {} : { maxSteps }),
        ...(tokenBudget === undefined ? {} : { tokenBudget }),
        ...(headers ? { headers } : {}),
      }),
  };
}

/**
 * The in-process target's `ask`: a target's question as `ask()` of the engine, whether on this
 * thread (`Engine`) or on one of its own (`AskThread`, helpers/answer-ahead.ts).
 */
export function inProcessAsk(engine: Pick<Engine, "ask">): (request: TargetAsk) => Promise<AskResult> {
  return ({ question, preset, headers, asOf, includeSuperseded }) =>
    engine.ask(question, {
      ...(preset ? { preset } : {}),
      ...(headers ? { headers } : {}),
      ...(asOf === undefined ? {} : { asOf }),
      ...(includeSuperseded === undefined ? {} : { includeSuperseded }),
    });
}
