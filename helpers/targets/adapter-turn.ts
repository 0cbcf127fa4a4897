/**
 * An adapter's agent turns: the contract's turn trace (`TurnResponse`) built from a service whose
 * trace has its own shape, as the adapter's `turn.response` maps it (docs/targets.md, "An
 * adapter"). What the mapping finds is then checked as the contract's message, like any target's.
 *
 * How the parts become a trace:
 * - tool calls, in the list's order: status `error` when the call has an error (a non-empty string,
 *   or `true`), `awaiting-approval` when it needs approval and returned nothing, else `done` (its
 *   output, `null` when it returned none); without `durationMs`, 0 (the service did not say);
 * - steps: by the calls' `step` numbers when mapped, else each call a step of its own; a non-empty
 *   answer is one more step after them, as a tool loop's last model call writes it;
 * - a citation marked surfaced names the first call that returned the document (its id among the
 *   strings of the call's output; with a quote, one that returned the quoted words too); when no call did, the mark is not backed and the citation is read
 *   as recalled, as the graders would read it (scorers/agent/expectation.ts);
 * - the outcome is the service's word, translated by `outcomes` when it is there; a word that is
 *   neither the contract's nor translated is one line naming where it was found.
 */
import type { Adapter, TurnMapping } from "@hybrid-search/target-contract/adapter";
import {
  TURN_OUTCOMES,
  type TurnCitation,
  type TurnOutcome,
  type TurnResponse,
  type TurnStep,
  type TurnToolCall,
} from "@hybrid-search/target-contract/turn";
import { atPointer, checked, Mapped } from "./adapter-response.js";
import { type RawResponse, serverTiming, statusChecked } from "./http-client.js";
import { TargetError } from "./target.js";

const AT = "/turn/response";

/** A number from a mapped value (a number, or a string holding one), else undefined. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** The items of a mapped list, or [] when the response has none there (a turn that called nothing). */
function itemsOf(mapped: Mapped, field: string, pointer: string): unknown[] {
  const items = atPointer(mapped.body(`${field}/list`), pointer);
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items))
    throw new TargetError("adapter", `the adapter's ${AT}/${field}/list (pointer ${JSON.stringify(pointer)}) found no list`);
  return items;
}

/** Every string of a value, at any depth: what a call returned, as the graders look for a document id in it. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) strings(v, out);
  return out;
}

function toolCallsOf(
  mapped: Mapped,
  mapping: NonNullable<TurnMapping["toolCalls"]>,
): Array<{ call: TurnToolCall; step: number | undefined }> {
  return itemsOf(mapped, "toolCalls", mapping.list).map((item, i) => {
    const at = (field: keyof typeof mapping) => (mapping[field] === undefined ? undefined : atPointer(item, mapping[field]!));
    const name = at("name");
    if (typeof name !== "string" || name === "")
      throw new TargetError(
        "adapter",
        `the adapter's ${AT}/toolCalls/name (pointer ${JSON.stringify(mapping.name)}) found no tool name in item ${i} of the list`,
      );
    const error = at("error");
    const failed = (typeof error === "string" && error !== "") || error === true;
    const needsApproval = at("needsApproval") === true || at("needsApproval") === "true";
    const output = at("output");
    const status: TurnToolCall["status"] = failed
      ? "error"
      : needsApproval && (output === undefined || output === null)
        ? "awaiting-approval"
        : "done";
    const call: TurnToolCall = {
      name,
      input: at("input") ?? null,
      status,
      needsApproval,
      durationMs: Math.max(0, numberOf(at("durationMs")) ?? 0),
      ...(status === "done" ? { output: output ?? null } : {}),
      ...(status === "error" ? { error: typeof error === "string" ? error : "the service marks the call failed" } : {}),
    };
    const step = numberOf(at("step"));
    return { call, step };
  });
}

/** Steps from the calls (grouped by their step numbers, or one each) and a last one for the answer. */
function stepsOf(calls: Array<{ call: TurnToolCall; step: number | undefined }>, answer: string): TurnStep[] {
  const steps: TurnStep[] = [];
  const byStep = calls.every((c) => c.step !== undefined);
  if (byStep) {
    const numbers = [...new Set(calls.map((c) => c.step!))].sort((a, b) => a - b);
    for (const n of numbers) steps.push({ index: steps.length + 1, toolCalls: calls.filter((c) => c.step === n).map((c) => c.call) });
  } else for (const { call } of calls) steps.push({ index: steps.length + 1, toolCalls: [call] });
  if (answer !== "" || steps.length === 0) steps.push({ index: steps.length + 1, toolCalls: [], text: answer });
  return steps;
}

/** Text compared loosely to pick a call: lower case, white space folded (the graders then check it exactly). */
const folded = (text: string): string => text.toLowerCase().replace(/\s+/g, " ");

function surfacedOf(value: unknown, i: number, pointer: string): boolean {
  if (value === true || value === "true" || value === "surfaced") return true;
  if (value === false || value === "false" || value === "recalled" || value === "unsurfaced") return false;
  throw new TargetError(
    "adapter",
    `the adapter's ${AT}/citations/surfaced (pointer ${JSON.stringify(pointer)}) found ${JSON.stringify(value) ?? "nothing"} in item ${i} of the list: expected true/"surfaced" or false/"recalled"`,
  );
}

function citationsOf(mapped: Mapped, mapping: NonNullable<TurnMapping["citations"]>, steps: readonly TurnStep[]): TurnCitation[] {
  return itemsOf(mapped, "citations", mapping.list).map((item, i) => {
    let docId = atPointer(item, mapping.docId);
    if (typeof docId === "number") docId = String(docId);
    if (typeof docId !== "string" || docId === "")
      throw new TargetError(
        "adapter",
        `the adapter's ${AT}/citations/docId (pointer ${JSON.stringify(mapping.docId)}) found no document id in item ${i} of the list`,
      );
    const quote = mapping.quote === undefined ? undefined : atPointer(item, mapping.quote);
    const marked = surfacedOf(atPointer(item, mapping.surfaced), i, mapping.surfaced);
    const base = { docId: docId as string, ...(typeof quote === "string" && quote !== "" ? { quote } : {}) };
    if (!marked) return { ...base, surfaced: false };
    // The call that returned the document — with a quote, preferably one that returned the quoted words too.
    const returned: Array<{ step: number; call: number; texts: string[] }> = [];
    for (const step of steps)
      for (const [j, call] of step.toolCalls.entries()) {
        const texts = call.status === "done" ? strings(call.output) : [];
        if (texts.includes(base.docId)) returned.push({ step: step.index, call: j + 1, texts });
      }
    const quoted = base.quote === undefined ? undefined : folded(base.quote);
    const match = (quoted === undefined ? undefined : returned.find((r) => r.texts.some((t) => folded(t).includes(quoted)))) ?? returned[0];
    return match ? { ...base, surfaced: true, match: { step: match.step, call: match.call } } : { ...base, surfaced: false };
  });
}

function outcomeOf(mapped: Mapped, mapping: TurnMapping): TurnOutcome {
  const found = mapped.value("outcome", mapping.outcome, true);
  const word = typeof found === "string" ? found : JSON.stringify(found);
  const translated = mapping.outcomes && Object.hasOwn(mapping.outcomes, word) ? mapping.outcomes[word]! : word;
  if ((TURN_OUTCOMES as readonly string[]).includes(translated)) return translated as TurnOutcome;
  throw new TargetError(
    "adapter",
    `the adapter's ${AT}/outcome found ${JSON.stringify(word.slice(0, 80))}, which is no outcome of the contract (${TURN_OUTCOMES.join(", ")})${mapping.outcomes ? " and not a word of /turn/response/outcomes" : ": translate it with /turn/response/outcomes"}`,
  );
}

/** The contract's `TurnResponse` that the turn mapping finds in `response`. */
export function mapTurn(response: RawResponse, adapter: Adapter): { body: TurnResponse; serverMs: number | null } {
  statusChecked(response);
  const mapping = adapter.turn!.response;
  const mapped = new Mapped(response, AT);
  const answerValue = mapped.value("answer", mapping.answer, false);
  const answer = answerValue === undefined || answerValue === null ? "" : String(answerValue);
  const outcome = outcomeOf(mapped, mapping);
  const calls = mapping.toolCalls ? toolCallsOf(mapped, mapping.toolCalls) : [];
  const steps = stepsOf(calls, answer);
  const citations = mapping.citations ? citationsOf(mapped, mapping.citations, steps) : [];
  let proposal: TurnResponse["proposal"];
  if (mapping.proposal) {
    const body = mapped.body("proposal");
    const tool = atPointer(body, mapping.proposal.tool);
    if (typeof tool === "string" && tool !== "") {
      const summary = mapping.proposal.summary === undefined ? undefined : atPointer(body, mapping.proposal.summary);
      const step = [...steps].reverse().find((s) => s.toolCalls.some((c) => c.name === tool))?.index ?? steps.length;
      proposal = {
        tool,
        input: (mapping.proposal.input === undefined ? undefined : atPointer(body, mapping.proposal.input)) ?? null,
        step,
        ...(typeof summary === "string" ? { summary } : {}),
      };
    }
  }
  let usage: TurnResponse["usage"];
  if (mapping.usage) {
    const body = mapped.body("usage");
    const [inputTokens, outputTokens, totalTokens] = (["inputTokens", "outputTokens", "totalTokens"] as const).map((f) =>
      numberOf(atPointer(body, mapping.usage![f])),
    );
    if (inputTokens !== undefined && outputTokens !== undefined && totalTokens !== undefined)
      usage = { inputTokens, outputTokens, totalTokens, counted: "model" };
  }
  const elapsed = mapping.elapsedMs ? numberOf(mapped.value("elapsedMs", mapping.elapsedMs, true)) : undefined;
  const body = checked<TurnResponse>("TurnResponse", {
    answer,
    outcome,
    steps,
    citations,
    ...(proposal ? { proposal } : {}),
    ...(usage ? { usage } : {}),
    ...(outcome === "error" ? { error: answer || "the service reports the turn failed" } : {}),
    ...(elapsed === undefined ? {} : { elapsedMs: elapsed }),
  });
  return { body, serverMs: serverTiming(response.serverTiming) };
}
