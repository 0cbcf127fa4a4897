/**
 * What the graders read of a target's reply: the target contract's message as the target gave it
 * (`@hybrid-search/target-contract`), with the time of the call. Whatever the target (the
 * in-process engine, a service, a module, a recording), a reply enters the suite through one
 * normaliser per message (helpers/targets/observe.ts), under one rule for a value the target did
 * not give:
 *
 * - **It stays absent.** An optional field of the contract that the target left out is left out
 *   here too, never filled with a default that a grader could read as a measurement.
 * - **A metric that needs it is not scored,** with the reason (`notGiven`): never 0, never 1,
 *   never NaN. The gate counts it as not scored (status `unknown`) and the report names why.
 * - **What can be derived is derived, and says so.** The time of a call the target did not
 *   report is the suite's own measurement around the call (`timedBy: "client"`), and unknown for a
 *   recording that holds none; the `[n]` of an answer that names no source are counted from its
 *   text and sources.
 */
import type { AskResponse, Hit, Source, Trace } from "@hybrid-search/target-contract/types";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";

/** Who measured a call's time: the target itself (its `elapsedMs`, a `Server-Timing` header), or the suite around the call. */
export type TimedBy = "target" | "client";

/** A call's time, or why it is unknown. */
export interface Timing {
  /** Milliseconds; null: unknown (the target gave none and the suite made no call it could time). */
  elapsedMs: number | null;
  /** Who measured `elapsedMs`; null when it is unknown. */
  timedBy: TimedBy | null;
}

/** Why a time is unknown: the same words for every target whose reply carries none. */
export const NO_TIME =
  "no time for this call: the target reported none, and the suite made no call to time (a recording carries its time in elapsedMs)";

/** A ranking as the retrieval graders read it. */
export interface ObservedRanking extends Timing {
  results: Hit[];
  /** The stage trace; null: the target gave none ("lost at" cannot be diagnosed). */
  trace: Trace | null;
  /** The target's own time for the call, when it reported one. */
  serverMs: number | null;
  /** The suite's measurement around the call; null for a recording. */
  clientMs: number | null;
}

/** A source of an answer, numbered as the contract says: its `ref`, else its position in `sources`, from 1. */
export type ObservedSource = Source & { ref: number };

/** An answer as the answer graders read it: the contract's `AskResponse`, its question, and the time of the call. */
export interface ObservedAnswer extends Omit<AskResponse, "elapsedMs" | "question" | "answerer" | "invalidCitations" | "sources">, Timing {
  /** The question the case asked. */
  question: string;
  sources: ObservedSource[];
  /** Who wrote the answer: what the target says, else the target itself (`http:staging`). */
  answerer: string;
  /** The `[n]` the answer makes that name no source: the target's count, else counted from `answer` and `sources`. */
  invalidCitations: number[];
}

/** An agent turn as the agent graders read it: the contract's turn trace, and the time of the call. */
export interface ObservedTurn extends Timing {
  turn: TurnResponse;
}

/** The not-scored score of a metric whose input the target did not give (`status: "unknown"`, the gate's word for it). */
export interface NotGiven {
  score: 0;
  metadata: { status: "unknown"; reason: string; [key: string]: unknown };
}

/**
 * A metric that cannot be scored because the target did not give what it needs: 0 with
 * `status: "unknown"` and the reason, which the gate counts as not scored and the report quotes.
 */
export function notGiven(reason: string, metadata: Record<string, unknown> = {}): NotGiven {
  return { score: 0, metadata: { ...metadata, status: "unknown", reason } };
}

/** Why a source-text metric cannot be scored: no source of the answer carries text (it has none, or the target gave ids only). */
export const NO_SOURCE_TEXT = "no source text: no source of the answer carries its text, so what it was written from cannot be read";

/** Whether any of the answer's sources carries text to judge it against. */
export function hasSourceText(answer: Pick<ObservedAnswer, "sources">): boolean {
  return answer.sources.some((s) => typeof s.text === "string" && s.text !== "");
}
