/**
 * What the agent graders grade against: a turn case (a record of `fixtures/turn-cases.json`) — a
 * question for one surface, the regression it guards, and the facts its turn must show, one
 * expectation each. Loading and linting the records is helpers/fixture-files's job; graders only read
 * them.
 */
import type { TurnOutcome } from "@hybrid-search/target-contract/turn";
import type { Language } from "../ask-case.js";

/** Every kind of expectation, in the order the graders are listed (index.ts) and their failures reported. */
export const EXPECTATION_KINDS = [
  "outcome",
  "calls-tool",
  "calls-any-tool",
  "never-calls",
  "stops-at-approval",
  "cites-only-surfaced",
  "cites",
  "no-citations",
  "answer-includes",
  "answer-excludes",
  "max-steps",
  "stops-within-budget",
] as const;
export type ExpectationKind = (typeof EXPECTATION_KINDS)[number];

/** The outcomes a case may expect: a turn whose outcome is `error` failed, whatever a case says. */
export type ExpectedOutcome = Exclude<TurnOutcome, "error">;

/** One fact the turn must show. */
export type Expectation =
  /** The turn ended this way. */
  | { kind: "outcome"; is: ExpectedOutcome }
  /** The turn called `tool` at least `atLeast` times (default 1), counting only calls that did not error. */
  | { kind: "calls-tool"; tool: string; atLeast?: number }
  /** The turn called some tool without an error. */
  | { kind: "calls-any-tool" }
  /** The turn never attempted `tool`: a call that errored or awaits approval counts. */
  | { kind: "never-calls"; tool: string }
  /** The turn stopped at a call awaiting approval (of `tool`, when named), which never ran. */
  | { kind: "stops-at-approval"; tool?: string }
  /** Every citation is surfaced: a tool's output in the turn returned the document (and the quote). */
  | { kind: "cites-only-surfaced" }
  /** The answer cites `doc`, and the citation is surfaced (a recalled citation does not count). */
  | { kind: "cites"; doc: string }
  /** The answer cites nothing. */
  | { kind: "no-citations" }
  /** The answer states `text` (scorers/text/contains-fact.ts). */
  | { kind: "answer-includes"; text: string }
  /** The answer does not state `text`. */
  | { kind: "answer-excludes"; text: string }
  /** The turn took at most `steps` steps. */
  | { kind: "max-steps"; steps: number }
  /** The turn ended on its own (not at the step cap or the budget, not in error) within `tokens` (default: the turn's own budget). */
  | { kind: "stops-within-budget"; tokens?: number };

export const TURN_CATEGORIES = ["where", "answer", "multi-hop", "injection", "correction", "off-corpus", "limits"] as const;
export type TurnCategory = (typeof TURN_CATEGORIES)[number];

export interface TurnCase {
  id: string;
  question: string;
  /** The demo's cases always state both; a user's dataset may leave them out (they only slice the floors). */
  language?: Language | string;
  category?: TurnCategory | string;
  /** The surface the turn runs on: a name of the file's `surfaces`. */
  surface: string;
  /**
   * The tools of that surface (filled in from the file's `surfaces` when loaded); absent when the
   * dataset does not list them (a golden-cases.json: its tool sets live in its tool's code), and
   * then the turn is asked without a tool list.
   */
  tools?: string[];
  /** Step cap and token budget of the turn, when the case sets its own. */
  maxSteps?: number;
  tokenBudget?: number;
  /** Which regression this case guards, in one sentence. */
  guards: string;
  expect: Expectation[];
}
