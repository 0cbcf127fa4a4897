/**
 * The seam every eval calls the system under test through: a `Target` ranks (each mode), answers
 * and, when it can, expands. Four implement it (docs/targets.md): the in-process engine on the
 * run's temp index (the default), a service over HTTP (`EVAL_TARGET=<URL>`) speaking the target
 * contract or described by an adapter (`EVAL_TARGET_ADAPTER`), a target module in this process
 * (`EVAL_TARGET=<path>`), and recorded runs (`EVAL_RUN_DIR`).
 */
import type { AskResult, ExpansionResult, HitValidity, Preset, TraceStage } from "@hybrid-search/engine";
import type { Mode } from "@hybrid-search/target-contract/types";

export type TargetMode = Mode;
export type TargetKind = "in-process" | "http" | "module" | "recorded";

export interface TargetCapabilities {
  modes: readonly TargetMode[];
  ask: boolean;
  expand: boolean;
  /** Whether the target returns the engine's stage trace (then "lost at" can be diagnosed). */
  trace: boolean;
}

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

export interface TargetHit {
  docId: string;
  score: number;
  passageId?: string;
  snippet?: string;
  /** The hit's validity at the query's instant, when the target reports one (the contract's optional `validity`). */
  validity?: HitValidity;
}

export interface TargetRanking {
  results: TargetHit[];
  /** The stage trace, or null: "no trace from target". */
  trace: TraceStage[] | null;
  /** The target's own time for the call (ms), when it says; the engine's `elapsedMs` in-process. */
  serverMs: number | null;
  /** Time from request to parsed response (ms), measured by the suite; null for recorded runs. */
  clientMs: number | null;
}

export interface TargetAsk {
  id: string;
  question: string;
  preset?: Preset;
  /** Extra headers for a model call (in-process: makes trials distinct in Evalite's cache). */
  headers?: Record<string, string>;
  asOf?: string | Date;
  includeSuperseded?: boolean;
}

export interface Target {
  /** What floors and reports call this target: `offline` in-process, EVAL_TARGET_NAME, the run folder's name. */
  readonly name: string;
  readonly kind: TargetKind;
  readonly capabilities: TargetCapabilities;
  search(request: TargetSearch): Promise<TargetRanking>;
  ask(request: TargetAsk): Promise<AskResult>;
  /** Present when `capabilities.expand`. */
  expand?(query: string, options: { headers?: Record<string, string> }): Promise<ExpansionResult>;
}

/**
 * Who produced a run's rankings and answers, as the run's header, its suites and its columns say
 * it: `http:<name>`, `module:<name>`, `run:<name>`; the in-process engine is named by its model
 * configuration (`in-process engine, offline models`).
 */
export function targetLabel(target: Pick<Target, "kind" | "name">): string {
  if (target.kind === "in-process") return `in-process engine, ${target.name} models`;
  return `${target.kind === "recorded" ? "run" : target.kind}:${target.name}`;
}

/**
 * A call the target could not answer: the case fails with this one line (the run goes on), and it
 * never becomes a score. `reason` is a short label: `timeout`, `http 500`, `schema`, `connection`,
 * `not recorded`, `unsupported`.
 */
export class TargetError extends Error {
  override readonly name = "TargetError";
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** Why an eval cannot run on `target` (a mode, ask or expand it lacks), or null when it can. */
export function missingCapability(
  target: Pick<Target, "name" | "capabilities">,
  needs: { modes?: readonly TargetMode[]; ask?: boolean; expand?: boolean },
): string | null {
  const lacking = (needs.modes ?? []).filter((m) => !target.capabilities.modes.includes(m));
  if (lacking.length > 0) return `target ${target.name} does not serve mode ${lacking.join(", ")}`;
  if (needs.ask && !target.capabilities.ask) return `target ${target.name} does not answer questions`;
  if (needs.expand && !target.capabilities.expand) return `target ${target.name} does not expand queries`;
  return null;
}
