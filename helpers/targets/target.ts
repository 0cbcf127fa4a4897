/**
 * The seam every eval calls the system under test through: a `Target` ranks (each mode), answers
 * and, when it can, expands and answers agent turns, in the target contract's own messages
 * (`@hybrid-search/target-contract`): whatever the system is, what it says arrives as the contract
 * says it, with what it left out left out. Each kind of target is one module of
 * `helpers/targets/kinds/` (the in-process engine on the run's temp index, the default; a service
 * over HTTP speaking the contract or described by an adapter; a target module in this process;
 * recorded runs). What a reply says enters the suite through one normaliser per message
 * (helpers/targets/observe.ts), which holds the one rule for a value the target did not give.
 */
import type { AskResponse, ExpandResponse, Mode, Preset, SearchResponse } from "@hybrid-search/target-contract/types";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";

export type TargetMode = Mode;

export interface TargetCapabilities {
  modes: readonly TargetMode[];
  ask: boolean;
  expand: boolean;
  /** Whether the target returns the stage trace (then "lost at" can be diagnosed). */
  trace: boolean;
  /** Whether the target answers agent turns (`POST /turn`, a module's `turn`, recorded `turns.jsonl`). */
  turn: boolean;
}

/**
 * How the suite reaches a target, which decides how its calls are scheduled and timed:
 * - `this-thread`: the target runs in this process (the in-process engine in the suite's own
 *   thread, a target module in a worker thread of its own); its calls are timed one at a time,
 *   never asked ahead;
 * - `remote`: another process answers (a service): its calls overlap, up to its concurrency, and
 *   are asked for ahead of the cases that read them (helpers/rank-ahead.ts);
 * - `recorded`: nothing is called; the answers were written elsewhere, and carry only the times
 *   their recording holds.
 */
export type Reach = "this-thread" | "remote" | "recorded";

/** A ranking asked of a target: the contract's `SearchRequest`, and the case id recorded runs are looked up by. */
export interface TargetSearch {
  /** The case id: recorded runs are looked up by it. */
  id: string;
  query: string;
  mode: TargetMode;
  limit: number;
  collection?: string;
  language?: string;
  traceDepth?: number;
  /** The instant validity is evaluated at (the contract's `asOf`); a `Date` goes over the wire as its ISO string. */
  asOf?: string | Date;
  /** Also stale documents, marked `validity.stale`. */
  includeSuperseded?: boolean;
}

/** A question asked of a target: the contract's `AskRequest`, and the case id recorded answers are looked up by. */
export interface TargetAsk {
  id: string;
  question: string;
  preset?: Preset;
  /** Extra headers for a model call (in-process: makes trials distinct in Evalite's cache). */
  headers?: Record<string, string>;
  asOf?: string | Date;
  includeSuperseded?: boolean;
}

/** An agent turn asked of a target: the contract's `TurnRequest`, and the case id recorded turns are looked up by. */
export interface TargetTurn {
  id: string;
  question: string;
  /** The surface: the tools the turn may call. */
  tools: readonly string[];
  preset?: Preset;
  maxSteps?: number;
  tokenBudget?: number;
  /** Extra headers for model calls (in-process: makes trials distinct in Evalite's cache). */
  headers?: Record<string, string>;
}

/**
 * A target's reply to one call: the contract's message exactly as the target gave it (checked
 * against the contract's schema), and the times around it that the message does not carry.
 */
export interface Reply<M> {
  message: M;
  /** Time from request to reply, measured by the suite around the call (ms); null when the suite made no call (a recording). */
  clientMs: number | null;
  /** The target's own time when it says so outside the message (a `Server-Timing` header), in ms; null otherwise. */
  serverMs: number | null;
}

export interface Target {
  /** What floors and reports call this target: `offline` in-process, EVAL_TARGET_NAME, the run folder's name, /health's name. */
  readonly name: string;
  /** Which module of helpers/targets/kinds/ opened it. */
  readonly kind: string;
  /** Who produced a run's rankings and answers, as its header, suites and columns say it (`http:staging`, `in-process engine, offline models`). */
  readonly label: string;
  readonly reach: Reach;
  readonly capabilities: TargetCapabilities;
  search(request: TargetSearch): Promise<Reply<SearchResponse>>;
  /** Present when `capabilities.ask`. */
  ask(request: TargetAsk): Promise<Reply<AskResponse>>;
  /** Present when `capabilities.expand`. */
  expand?(query: string, options: { headers?: Record<string, string> }): Promise<ExpandResponse>;
  /** Present when `capabilities.turn`: the turn trace. */
  turn?(request: TargetTurn): Promise<Reply<TurnResponse>>;
}

/**
 * A call the target could not answer: the case fails with this one line (the run goes on), and it
 * never becomes a score. `reason` is a short label: `timeout`, `http 500`, `schema`, `connection`,
 * `not recorded`, `unsupported`.
 */
/** Each TargetError's reason, kept off the error itself (see the class). */
const reasons = new WeakMap<TargetError, string>();

export class TargetError extends Error {
  override readonly name = "TargetError";
  constructor(reason: string, message: string) {
    super(message);
    reasons.set(this, reason);
    // One line, the promise of docs/targets.md: where in the suite the call was made is no news to a
    // person, and a field of the error's own would be printed by the test runner as a second line.
    this.stack = `${this.name}: ${message}`;
  }

  /** What kind of failure: `timeout`, `http 500`, `schema`, `threw`, … */
  get reason(): string {
    return reasons.get(this) ?? "unknown";
  }
}

/** What an eval needs of the target: modes, answers, expansion, agent turns. */
export interface TargetNeeds {
  modes?: readonly TargetMode[];
  ask?: boolean;
  expand?: boolean;
  turn?: boolean;
}

/** Why an eval cannot run on `target` (a mode, ask, expand or turn it lacks), or null when it can. */
export function missingCapability(target: Pick<Target, "name" | "capabilities">, needs: TargetNeeds): string | null {
  const lacking = (needs.modes ?? []).filter((m) => !target.capabilities.modes.includes(m));
  if (lacking.length > 0) return `target ${target.name} does not serve mode ${lacking.join(", ")}`;
  if (needs.ask && !target.capabilities.ask) return `target ${target.name} does not answer questions`;
  if (needs.expand && !target.capabilities.expand) return `target ${target.name} does not expand queries`;
  if (needs.turn && !target.capabilities.turn) return `target ${target.name} does not answer agent turns`;
  return null;
}

/** `asOf` on the wire: a `Date` as its ISO string. */
export const wireInstant = (asOf: string | Date): string => (asOf instanceof Date ? asOf.toISOString() : asOf);

/** Milliseconds since the suite's clock began: what a call is timed with. */
export const now = (): number => performance.now();
