/**
 * The default target: the in-repo engine, in this process, on the run's temp index of the dataset
 * (the run builds it: `suiteIndex`). Its replies are the engine's own results, which are the
 * contract's messages with everything the engine knows (`SearchResult`, `AskResult`,
 * `TurnResult`); its time is the engine's own measurement of each call. Its rankings run one at a
 * time in the process (`serially`), so that each is timed alone. Chosen when the environment names
 * no other target.
 */
import { AGENT_TOOLS, type AgentToolName, type AskResult, type Engine } from "@hybrid-search/engine";
import { OFFLINE_POLICY_LABEL } from "@hybrid-search/engine/models";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type { AskResponse, Preset, SearchResponse } from "@hybrid-search/target-contract/types";
import type { TargetKind } from "../kind.js";
import {
  type Reply,
  type Target,
  type TargetAsk,
  type TargetCapabilities,
  type TargetSearch,
  TargetError,
  type TargetTurn,
} from "../target.js";

/** The in-repo engine serves every mode, answers, expands, traces every stage and answers agent turns. */
export const IN_PROCESS_CAPABILITIES: TargetCapabilities = {
  modes: CONTRACT_MODES,
  ask: true,
  expand: true,
  trace: true,
  turn: true,
  givenSources: true,
};

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs the engine's ranking calls of this process one at a time (every eval file runs in one
 * worker process, evalite.config.ts). Evalite runs up to five cases at once; without this, a
 * call's time would include other cases' work interleaved at every `await`, and the latency column
 * would show the harness's queue instead of the engine.
 */
function serially<T>(fn: () => Promise<T> | T): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

/** A reply of the engine's: its result as the message (the engine's own `elapsedMs` in it), and the suite's time around the call. */
async function timed<M>(call: () => Promise<M> | M): Promise<Reply<M>> {
  const started = performance.now();
  const message = await call();
  return { message, clientMs: performance.now() - started, serverMs: null };
}

/** The engine on `engine`'s index as a target called `name` (floors keep the model configuration's name, `offline`, …, for it). */
export function inProcessTarget(engine: Engine, name: string): Target {
  return {
    name,
    kind: "in-process",
    label: inProcess.label(name, name),
    reach: "this-thread",
    capabilities: IN_PROCESS_CAPABILITIES,
    search: ({ query, mode, id: _id, ...options }: TargetSearch): Promise<Reply<SearchResponse>> =>
      serially(() =>
        timed(() =>
          mode === "search"
            ? engine.search(query, options)
            : mode === "vsearch"
              ? engine.vsearch(query, options)
              : engine.query(query, { ...options, tier: mode }),
        ),
      ),
    ask: engineAsk(engine),
    expand: (query, options) => engine.expand(query, options),
    turn: async ({ question, tools, preset, maxSteps, tokenBudget, headers }: TargetTurn): Promise<Reply<TurnResponse>> => {
      // A user's surface may name tools of their own service: the engine cannot run that case's turn.
      const foreign = (tools ?? []).filter((t) => !(AGENT_TOOLS as readonly string[]).includes(t));
      if (foreign.length > 0)
        throw new TargetError(
          "unsupported",
          `the in-repo engine has no tool ${foreign.join(", ")} (its tools: ${AGENT_TOOLS.join(", ")}); run this case against the service that has it (EVAL_TARGET)`,
        );
      return timed(() =>
        engine.turn(question, {
          ...(tools === undefined ? {} : { tools: tools as AgentToolName[] }),
          ...(preset ? { preset } : {}),
          ...(maxSteps === undefined ? {} : { maxSteps }),
          ...(tokenBudget === undefined ? {} : { tokenBudget }),
          ...(headers ? { headers } : {}),
        }),
      );
    },
  };
}

/**
 * A target's question as `ask()` of the engine, whether on this thread (`Engine`) or on one of its
 * own (`AskThread`, helpers/answer-ahead.ts).
 */
export function engineAsk(engine: Pick<Engine, "ask">): (request: TargetAsk) => Promise<Reply<AskResponse>> {
  return ({ question, preset, headers, asOf, includeSuperseded, sources }) =>
    timed<AskResult>(() =>
      engine.ask(question, {
        ...(preset ? { preset } : {}),
        ...(headers ? { headers } : {}),
        ...(asOf === undefined ? {} : { asOf }),
        ...(includeSuperseded === undefined ? {} : { includeSuperseded }),
        ...(sources === undefined ? {} : { sources }),
      }),
    );
}

/** One suite per preset with a model; offline, one answerer whatever the preset, named `offline`. */
const perPreset = (presets: readonly Preset[] | null, offline: string) =>
  presets === null ? [{ name: offline, input: "balanced" as const }] : presets.map((p) => ({ name: p, input: p }));

export const inProcess: TargetKind<Record<string, never>> = {
  name: "in-process",
  title: "the in-repo engine in this process",
  reach: "this-thread",
  suiteIndex: true,
  seedsInEveryProcess: false,
  knownCapabilities: IN_PROCESS_CAPABILITIES,
  settings: [],
  namedBy: null,
  claims: () => false,
  fromEnv: () => ({}),
  givenName: () => null,
  async open(_config, context) {
    const { engine, fingerprint } = await context.suiteIndex();
    return { target: inProcessTarget(engine, context.configuration), fingerprint, seed: null };
  },
  label: (_name, configuration) => `in-process engine, ${configuration} models`,
  floorsKey: (_name, configuration) => configuration,
  location: () => "in-process",
  async explain(_config, { query, question }) {
    const queryLine = query ? `query ${query.id} ${JSON.stringify(query.query)}` : "no query (the dataset has none)";
    const lines = [
      "target: the in-process engine, on the run's temporary index of the dataset (no request leaves this process)",
      `  ranking, for ${queryLine}:`,
      `    engine.search(query, {"limit":10,"traceDepth":50}); engine.vsearch(…); engine.query(…, { tier: fast | balanced | thorough })`,
    ];
    if (question)
      lines.push(
        `  answering, for question ${question.id} ${JSON.stringify(question.question)}:`,
        `    engine.ask(question, { preset: "balanced" })`,
      );
    return lines;
  },
  answerSuites: (_label, presets) => perPreset(presets, "offline extractive"),
  agentSuites: (_label, presets) => perPreset(presets, `agent: ${OFFLINE_POLICY_LABEL}`),
  modelsLine: (models) => models.description,
  runModels: (_label, _config, models, fingerprint) => ({ embedder: fingerprint.embedder, ...models.ids }),
};
