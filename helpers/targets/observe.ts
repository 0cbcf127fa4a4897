/**
 * Where a target's reply enters the suite: one normaliser per message of the contract (a ranking,
 * an answer, a turn, what a target holds after a seed), the same for every kind of target, under
 * the one rule for a value the target did not give (scorers/observed.ts): it stays absent, and
 * what the suite can derive it derives and labels — a call's time the target did not report is the
 * suite's measurement around the call, and unknown when the suite made no call (a recording).
 */
import { cutDeep } from "./depth.js";
import type { AskResponse, Fingerprint, SearchResponse } from "@hybrid-search/target-contract/types";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type { ObservedAnswer, ObservedRanking, ObservedSource, ObservedTurn, Timing } from "../../scorers/observed.js";
import type { Dataset } from "../dataset.js";
import type { SuiteFingerprint } from "../setup-db.js";
import type { Reply } from "./target.js";

/** The time of a call: the target's own (in its message, else beside it), else the suite's around the call, else unknown. */
export function timing(reported: number | undefined, reply: Pick<Reply<unknown>, "serverMs" | "clientMs">): Timing {
  const own = reported ?? reply.serverMs ?? null;
  if (own !== null) return { elapsedMs: own, timedBy: "target" };
  if (reply.clientMs !== null) return { elapsedMs: reply.clientMs, timedBy: "client" };
  return { elapsedMs: null, timedBy: null };
}

/** A ranking as the retrieval graders read it. */
export function observedRanking(reply: Reply<SearchResponse>): ObservedRanking {
  const { message } = reply;
  return {
    results: message.results,
    trace: message.trace ?? null,
    ...timing(message.elapsedMs, reply),
    serverMs: message.elapsedMs ?? reply.serverMs,
    clientMs: reply.clientMs,
  };
}

const MARKER = /\[(\d+)\]/g;

/**
 * An answer as the answer graders read it. `label` names the target, for an answer that does not
 * say who wrote it.
 */
export function observedAnswer(question: string, reply: Reply<AskResponse>, label: string): ObservedAnswer {
  const { elapsedMs, question: _echoed, answerer, invalidCitations, sources: given, ...message } = reply.message;
  // The contract's own meaning of a source without `ref`: its position in `sources`, from 1.
  const sources = given.map((s, i) => (s.ref === undefined ? { ...s, ref: i + 1 } : (s as ObservedSource)));
  return {
    ...message,
    sources,
    question,
    answerer: answerer ?? label,
    invalidCitations: invalidCitations ?? uncitable(message.answer, sources),
    ...timing(elapsedMs, reply),
  };
}

/** The `[n]` an answer makes that name none of its sources. */
function uncitable(answer: string, sources: readonly ObservedSource[]): number[] {
  const refs = new Set(sources.map((s) => s.ref));
  return [...new Set([...answer.matchAll(MARKER)].map((m) => Number(m[1])))].filter((n) => !refs.has(n));
}

/**
 * An agent turn as the agent graders read it: its tool calls' inputs and outputs (any JSON a target
 * sends) cut past `MAX_DEPTH` levels (depth.ts), so storing, reporting and viewing the turn never
 * overflows the stack, whatever the target sent.
 */
export function observedTurn(reply: Reply<TurnResponse>): ObservedTurn {
  return { turn: cutDeep(reply.message), ...timing(reply.message.elapsedMs, reply) };
}

const NOT_REPORTED = "(not reported by the target)";

/**
 * What a target reports it has indexed (its /health, a seed's reply), in the suite's shape; what
 * it does not report is said to be unreported. `collection`: where the target holds the dataset
 * (EVAL_TARGET_SEED), when not the dataset's own name.
 */
export function observedFingerprint(reported: Fingerprint | unknown, dataset: Dataset, collection = dataset.collection): SuiteFingerprint {
  const f = (typeof reported === "object" && reported !== null ? reported : { corpusHash: String(reported) }) as Partial<SuiteFingerprint>;
  return {
    schemaVersion: f.schemaVersion ?? 0,
    analyzer: f.analyzer ?? NOT_REPORTED,
    chunkers: f.chunkers ?? [],
    embedder: f.embedder ?? NOT_REPORTED,
    dimensions: f.dimensions ?? 0,
    corpusHash: f.corpusHash ?? NOT_REPORTED,
    documents: f.documents ?? 0,
    passages: f.passages ?? 0,
    dataset: dataset.name,
    collection,
  };
}
