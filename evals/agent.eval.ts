// Agent turns: the target's tool loop on the dataset's turn cases (the demo's fixtures/turn-cases.json), each turn's
// trace graded deterministically by one grader per kind of expectation (scorers/agent/). Offline
// the engine's turns are driven by its offline policy, and the suite says so ("agent: offline
// policy"); with a model configured, one suite per preset; on another target, one suite named by it. A case passes when every expectation
// holds; the row names the facts that failed, and each step of the turn is a trace entry.
import { evalite } from "evalite";
import type { Preset } from "@hybrid-search/target-contract/types";
import { agentTurn, toolsInOrder } from "../helpers/agent-task.js";
import { evalDataset } from "../helpers/eval-index.js";
import { evalModels } from "../helpers/models.js";
import { turnCasesReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { agentSuites } from "../helpers/targets/eval-target.js";
import { PRESET_ORDER } from "../scorers/tier-order.js";
import type { TurnCase } from "../scorers/agent/turn-case.js";
import { type AgentTurnOutput, expectationsMetScorer, turnVerdict, turnVerdictScorer } from "../scorers/agent/turn-verdict.js";

const offline = evalModels().selection.mode === "offline";
// Offline the engine's offline policy drives every turn; another target's agent answers for itself: one suite, named by the target.
const variants = agentSuites(offline ? null : PRESET_ORDER);
const dataset = evalDataset();
const cases = dataset.turns?.cases ?? [];
// A dataset without turn cases skips the eval, saying how to add them.
const define = defineEval({ turn: true, data: turnCasesReason(dataset) }, evalite.each(variants));

define("Agent turns", {
  data: cases.map((input) => ({ input })),
  task: (c: TurnCase, preset: Preset) => agentTurn("agent", c, preset),
  scorers: [turnVerdictScorer(), expectationsMetScorer()],
  columns: ({ input, output }: { input: TurnCase; output: AgentTurnOutput }) => {
    const verdict = turnVerdict(input, output);
    return [
      { label: "Case", value: `${input.id} (${input.category ? `${input.category}, ` : ""}${input.surface}): ${input.question}` },
      { label: "Agent", value: output.agent },
      { label: "Tools", value: toolsInOrder(output.turn) },
      { label: "Outcome", value: output.turn ? output.turn.outcome : `ERROR: ${output.error}` },
      { label: "Answer", value: output.turn?.answer || "(none)" },
      { label: "Failed", value: verdict.pass ? `all ${input.expect.length} hold` : verdict.failed.join("\n") },
    ];
  },
});
