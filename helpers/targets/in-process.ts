/**
 * The default target: the in-repo engine, in this process, on the run's temp index. It calls the
 * engine exactly as the evals always have, so an in-process run scores as before.
 */
import type { Engine } from "@hybrid-search/engine";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import type { Target, TargetAsk, TargetCapabilities, TargetRanking, TargetSearch } from "./target.js";

/** The in-repo engine serves every mode, answers, expands and traces every stage. */
export const IN_PROCESS_CAPABILITIES: TargetCapabilities = { modes: CONTRACT_MODES, ask: true, expand: true, trace: true };

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
    ask: ({ question, preset, headers, asOf, includeSuperseded }: TargetAsk) =>
      engine.ask(question, {
        ...(preset ? { preset } : {}),
        ...(headers ? { headers } : {}),
        ...(asOf === undefined ? {} : { asOf }),
        ...(includeSuperseded === undefined ? {} : { includeSuperseded }),
      }),
    expand: (query, options) => engine.expand(query, options),
  };
}
