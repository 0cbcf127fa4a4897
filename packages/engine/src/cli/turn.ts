/**
 * `turn "<question>"`: one agent turn, its answer and what each step did; `turn --batch
 * <questions.jsonl>`: one turn trace per line, `{id, ...turn}`, as the eval suite reads recorded
 * turns (`turns.jsonl` in EVAL_RUN_DIR). A turn whose model failed is one line on stderr and exit
 * status 2; a batch writes every line first, failed turns with their error.
 */
import { writeFileSync } from "node:fs";
import { EngineError } from "../errors.js";
import type { AgentToolName, Preset, TurnOptions, TurnResult } from "../types.js";
import { readQuestionsJsonl } from "./ask.js";
import { checkWritable, type Command, onIndex, parseCount, UsageError } from "./command.js";
import { MAX_STEPS_LIMIT, TOKEN_BUDGET_LIMIT } from "../options/turn-options.js";

export const turnCommand: Command = {
  options: [
    "db",
    "preset",
    "tools",
    "max-steps",
    "token-budget",
    "collection",
    "language",
    "as-of",
    "include-superseded",
    "json",
    "batch",
    "out",
  ],
  arguments: (values) =>
    values.batch !== undefined
      ? { count: 0, mistake: `"turn --batch" takes no question argument` }
      : { count: 1, mistake: `"turn" takes exactly one argument (quote a question with spaces)` },
  check(values) {
    if (values.out !== undefined && values.batch === undefined) throw new UsageError(`--out applies to "turn --batch" only`);
    if (values.json && values.batch !== undefined) throw new UsageError(`--json does not apply to "turn --batch" (its output is JSONL)`);
  },
  run: onIndex(async (engine, { values, args, io, filters }) => {
    const options: TurnOptions = {
      ...(values.preset ? { preset: values.preset as Preset } : {}),
      ...(values.tools !== undefined ? { tools: values.tools.split(",").map((t) => t.trim()) as AgentToolName[] } : {}),
      ...(values["max-steps"] !== undefined ? { maxSteps: parseCount("--max-steps", values["max-steps"], 1, MAX_STEPS_LIMIT) } : {}),
      ...(values["token-budget"] !== undefined
        ? { tokenBudget: parseCount("--token-budget", values["token-budget"], 1, TOKEN_BUDGET_LIMIT) }
        : {}),
      ...filters,
    };
    if (values.batch !== undefined) {
      if (values.out) checkWritable(values.out);
      const lines: string[] = [];
      let failed = 0;
      for (const q of readQuestionsJsonl(values.batch)) {
        const t = await engine.turn(q.text, options);
        if (t.outcome === "error") failed++;
        lines.push(JSON.stringify({ id: q.id, ...t }));
      }
      const jsonl = `${lines.join("\n")}\n`;
      if (values.out) {
        writeFileSync(values.out, jsonl);
        io.stderr(`engine: wrote ${lines.length} turns to ${values.out}\n`);
      } else io.stdout(jsonl);
      if (failed > 0) throw new EngineError("PROVIDER_ERROR", `${failed} of ${lines.length} turns failed; their lines carry the error`);
      return 0;
    }
    const t = await engine.turn(args[0]!, options);
    if (t.error && !values.json) throw new EngineError("PROVIDER_ERROR", t.error);
    io.stdout(values.json ? `${JSON.stringify(t, null, 2)}\n` : formatTurn(t));
    if (t.error) io.stderr(`engine: ${t.error.split("\n")[0]}\n`);
    return t.error ? 2 : 0;
  }),
};

function formatTurn(t: TurnResult): string {
  const steps = t.steps.map((s) => {
    const calls = s.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.input)} → ${c.status}${c.error ? `: ${c.error}` : ""}`);
    return `  ${s.index}. ${calls.join("; ") || "(answer)"}${s.note ? `  [${s.note}]` : ""}`;
  });
  const proposal = t.proposal ? `\nproposal (awaiting approval): ${t.proposal.summary}\n` : "";
  const answer = t.answer ? `${t.answer}\n` : "";
  return `${answer}${proposal}\n${steps.join("\n")}\n(${t.agent}, ${t.outcome}, ${t.steps.length}/${t.limits.maxSteps} steps, ${t.usage.totalTokens}/${t.limits.tokenBudget} tokens${t.usage.counted === "estimate" ? " (estimated)" : ""}, ${t.elapsedMs.toFixed(0)} ms)\n`;
}
