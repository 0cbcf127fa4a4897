/**
 * The agent graders: one pure function per kind of expectation over a turn trace (the target
 * contract's `TurnResponse`), one file each, listed here in report order. Deterministic: no model
 * grades a model. Policies shared by all: expectation.ts; a case's verdict: turn-verdict.ts.
 *
 * | kind                  | passes when                                                                                   | fails as (the fact)                              |
 * | --------------------- | --------------------------------------------------------------------------------------------- | ------------------------------------------------ |
 * | `outcome`             | the turn ended as expected (`is`)                                                             | `outcome answered, expected refused`             |
 * | `calls-tool`          | `tool` was called ≥ `atLeast` (1) times, counting only calls that did not error               | `did not call catalog`                           |
 * | `calls-any-tool`      | some tool was called without an error                                                         | `called no tool`                                 |
 * | `never-calls`         | `tool` was never attempted (errored and proposed calls count)                                 | `called file_correction (step 3, awaiting approval)` |
 * | `stops-at-approval`   | the turn stopped at a call awaiting approval (of `tool`), and ran nothing that needs it        | `did not stop at approval (outcome answered)`    |
 * | `cites-only-surfaced` | every citation is surfaced: a tool's output returned the document (and the quote)              | `unsurfaced: en/a.md (recalled: …)`              |
 * | `cites`               | the answer cites `doc`, surfaced (a recalled citation does not count)                         | `not cited: en/a.md`                             |
 * | `no-citations`        | the answer cites nothing                                                                      | `cites: en/a.md`                                 |
 * | `answer-includes`     | the answer states `text` (grading form, numbers whole)                                        | `missing "14,99"`                                |
 * | `answer-excludes`     | the answer does not state `text`                                                              | `contains forbidden "every plan is free"`        |
 * | `max-steps`           | the turn took ≤ `steps` steps                                                                 | `took 7 steps, at most 5 expected`               |
 * | `stops-within-budget` | the turn ended on its own within `tokens` (default: its own budget)                           | `did not stop on its own (outcome step-limit)`   |
 *
 * A new kind: one file beside these (its `defineExpectation`, JSDoc with When to use / When NOT to
 * use, a test beside it), its shape in `Expectation` and its name in `EXPECTATION_KINDS`
 * (turn-case.ts), one entry below, and the fixture schema's `expectation` (fixtures/schemas/turn-cases.schema.json).
 */
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import { answerExcludes } from "./answer-excludes.js";
import { answerIncludes } from "./answer-includes.js";
import { callsAnyTool } from "./calls-any-tool.js";
import { callsTool } from "./calls-tool.js";
import { cites } from "./cites.js";
import { citesOnlySurfaced } from "./cites-only-surfaced.js";
import type { Check, ExpectationGrader } from "./expectation.js";
import { maxSteps } from "./max-steps.js";
import { neverCalls } from "./never-calls.js";
import { noCitations } from "./no-citations.js";
import { outcome } from "./outcome.js";
import { stopsAtApproval } from "./stops-at-approval.js";
import { stopsWithinBudget } from "./stops-within-budget.js";
import type { Expectation, ExpectationKind } from "./turn-case.js";

/** Every grader, by kind, in report order (EXPECTATION_KINDS). */
export const EXPECTATIONS: { readonly [K in ExpectationKind]: ExpectationGrader<K> } = {
  outcome,
  "calls-tool": callsTool,
  "calls-any-tool": callsAnyTool,
  "never-calls": neverCalls,
  "stops-at-approval": stopsAtApproval,
  "cites-only-surfaced": citesOnlySurfaced,
  cites,
  "no-citations": noCitations,
  "answer-includes": answerIncludes,
  "answer-excludes": answerExcludes,
  "max-steps": maxSteps,
  "stops-within-budget": stopsWithinBudget,
};

/** One expectation checked against a turn by its kind's grader. */
export function checkExpectation(turn: TurnResponse, expectation: Expectation): Check {
  const grader = EXPECTATIONS[expectation.kind] as ExpectationGrader;
  return grader.check(turn, expectation as never);
}

export { type Check, type ExpectationGrader, surfacedCitation } from "./expectation.js";
export {
  EXPECTATION_KINDS,
  type Expectation,
  type ExpectationKind,
  TURN_CATEGORIES,
  type TurnCase,
  type TurnCategory,
} from "./turn-case.js";
