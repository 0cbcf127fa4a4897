/**
 * What every agent grader shares. A grader is one pure function of a turn trace (the target
 * contract's `TurnResponse`) and one expectation of its kind, returning whether it holds and the
 * fact that shows it — on a failure the fact a person reads in the row, the report and JUnit
 * (`unsurfaced: en/billing/refunds.md`, `called file_correction (step 3, awaiting approval)`). No
 * model is involved: every check is deterministic over the recorded turn, one file per kind
 * beside this one, listed in index.ts.
 *
 * Policies, the same for every grader:
 * - **Only what the trace shows.** A citation counts as surfaced when the trace marks it so *and*
 *   the call its `match` names did not error and returned the document (its id in the output) —
 *   and, with a quote, the quoted words in one of its texts (grading form); a mark the trace does
 *   not back is not surfaced (`surfacedCitation`).
 * - **Answer text** is read without its citation markers (`[doc: <id>]` is not a fact; the words
 *   a marker quotes are kept), and with the graders' own normalizer (scorers/text/).
 * - **A turn that could not be obtained, or ended in `error`**, is graded by no expectation: the
 *   case fails with the reason (turn-verdict.ts).
 */
import type { TurnCitation, TurnResponse, TurnToolCall } from "@hybrid-search/target-contract/turn";
import { stripCitationMarkers } from "../text/citations.js";
import { gradingForm } from "../text/normalize.js";
import type { Expectation, ExpectationKind } from "./turn-case.js";

/** What a grader found: whether the expectation holds, and the fact that shows it. */
export interface Check {
  pass: boolean;
  /** On a failure, what failed (`unsurfaced: en/a.md`); on a pass, what held. */
  fact: string;
}

/** A grader: what its kind means, and its pure check. */
export interface ExpectationGrader<K extends ExpectationKind = ExpectationKind> {
  kind: K;
  /** What the expectation checks, in words: the docs' table and each score's metadata. */
  definition: string;
  check(turn: TurnResponse, expectation: Extract<Expectation, { kind: K }>): Check;
}

export function defineExpectation<K extends ExpectationKind>(
  kind: K,
  definition: string,
  check: (turn: TurnResponse, expectation: Extract<Expectation, { kind: K }>) => Check,
): ExpectationGrader<K> {
  return { kind, definition, check };
}

/** A call with where it was made: its step and its position in the step, both 1-based. */
export interface PlacedCall {
  step: number;
  call: number;
  toolCall: TurnToolCall;
}

/** Every call of the turn, in order. */
export function allCalls(turn: TurnResponse): PlacedCall[] {
  return turn.steps.flatMap((s) => s.toolCalls.map((toolCall, i) => ({ step: s.index, call: i + 1, toolCall })));
}

/** Where a call was made and what became of it: `step 3, awaiting approval`. */
export function placed({ step, toolCall }: PlacedCall): string {
  return `step ${step}, ${toolCall.status === "done" ? "done" : toolCall.status === "error" ? `error: ${toolCall.error ?? "?"}` : "awaiting approval"}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isRecord(value)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

/**
 * Whether a citation is surfaced as far as the trace shows: marked surfaced, and the call its
 * `match` names is `done` and returned the document's id — with a quote, also the quoted words in
 * one of its texts (grading form). Else the reason it is not.
 */
export function surfacedCitation(turn: TurnResponse, c: TurnCitation): { surfaced: true } | { surfaced: false; why: string } {
  if (!c.surfaced) return { surfaced: false, why: "recalled: no tool output in the turn returned it" };
  if (!c.match) return { surfaced: false, why: "marked surfaced without naming the call" };
  const toolCall = turn.steps.find((s) => s.index === c.match!.step)?.toolCalls[c.match.call - 1];
  const at = `step ${c.match.step} call ${c.match.call}`;
  if (!toolCall) return { surfaced: false, why: `marked surfaced by ${at}, which the trace does not have` };
  if (toolCall.status !== "done") return { surfaced: false, why: `marked surfaced by ${at}, which did not return (${toolCall.status})` };
  const texts = strings(toolCall.output);
  if (!texts.includes(c.docId)) return { surfaced: false, why: `marked surfaced by ${at}, whose output does not hold it` };
  if (c.quote !== undefined) {
    const quote = gradingForm(c.quote);
    if (!texts.some((t) => gradingForm(t).includes(quote))) return { surfaced: false, why: `${at} returned it, not the quoted words` };
  }
  return { surfaced: true };
}

/** A citation as a fact names it: `en/a.md`, or `en/a.md "quoted words"`. */
export const citationName = (c: TurnCitation): string => (c.quote === undefined ? c.docId : `${c.docId} ${JSON.stringify(c.quote)}`);

/** `[doc: <id>]` markers, with or without a quote: the document id is no part of what the answer states. */
const DOC_MARKER = /\[doc:\s*[^\]|"]+?\s*(?:\|\s*("[^"\]]*")\s*)?\]/g;

/** The answer as its facts are read: citation markers removed, the words a marker quotes kept. */
export function answerText(turn: TurnResponse): string {
  return stripCitationMarkers(turn.answer.replace(DOC_MARKER, (_m, quote: string | undefined) => ` ${quote ?? ""} `));
}

/** `1 time`, `3 times`. */
export const times = (n: number): string => `${n} time${n === 1 ? "" : "s"}`;
