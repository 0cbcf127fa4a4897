/**
 * A turn case's verdict: it passes when every expectation it declares holds (index.ts checks each
 * by its kind's grader). A turn that could not be obtained (the target failed: its call threw) or
 * that ended in `error` (its model failed) is checked by no expectation: the case fails with the
 * reason, and its scores are `status: "failed"` — a fault, never a pass, and never a quality
 * measurement (packages/eval-gate/src/score-status.ts).
 *
 * Two Evalite scorers over it: **Turn verdict** (1 when the case passes, else 0; its metadata
 * carries the verdict the gate judges the case by, `verdict: { pass, failed }`, the failed facts
 * one a line) and **Expectations met** (the share of the case's expectations that hold).
 */
import { createScorer, type Evalite } from "evalite";
import type { TimedBy } from "../observed.js";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import { checkExpectation } from "./index.js";
import type { ExpectationKind, TurnCase } from "./turn-case.js";

/** What the agent eval's task returns: the turn, or why it could not be had, and what drove it. */
export interface AgentTurnOutput {
  /** The turn trace; null when it could not be obtained. */
  turn: TurnResponse | null;
  /** Why the turn could not be obtained (one line). */
  error?: string;
  /** What drove the loop, as people read it: `agent: offline policy`, `agent: google/gemini-2.5-flash`, `agent: http engine-serve`. */
  agent: string;
  /** The turn's time: the target's own, else the suite's around the call; null: unknown (a recording without it). */
  elapsedMs: number | null;
  /** Who measured `elapsedMs`; null when it is unknown. */
  timedBy: TimedBy | null;
}

export interface TurnVerdict {
  pass: boolean;
  /** The facts of the expectations that failed, or the reason no expectation could be checked. */
  failed: string[];
  /** Each expectation's check, in the case's order; empty when the turn failed. */
  checks: Array<{ kind: ExpectationKind; pass: boolean; fact: string }>;
  /** Set when the turn could not be obtained or ended in error: why. */
  fault?: string;
}

/** The verdict of one case on its turn. Pure. */
export function turnVerdict(c: TurnCase, output: AgentTurnOutput): TurnVerdict {
  const { turn } = output;
  const fault =
    turn === null
      ? `the turn could not be obtained: ${output.error ?? "no reason given"}`
      : turn.outcome === "error"
        ? `the turn failed: ${turn.error ?? "no reason given"}`
        : undefined;
  if (fault !== undefined) return { pass: false, failed: [fault], checks: [], fault };
  const checks = c.expect.map((e) => ({ kind: e.kind, ...checkExpectation(turn!, e) }));
  return { pass: checks.every((x) => x.pass), failed: checks.filter((x) => !x.pass).map((x) => x.fact), checks };
}

type AgentScorer = Evalite.Scorer<TurnCase, AgentTurnOutput, unknown>;

function metadata(c: TurnCase, output: AgentTurnOutput, verdict: TurnVerdict, definition: string): Record<string, unknown> {
  return {
    grader: "turn-verdict",
    method: "deterministic",
    status: verdict.fault ? "failed" : "scored",
    caseId: c.id,
    agent: output.agent,
    definition,
    ...(verdict.fault ? { error: verdict.fault } : {}),
    checks: verdict.checks,
  };
}

const VERDICT_DEFINITION = "1 when every expectation the case declares holds over its turn trace, else 0";
const MET_DEFINITION = "the share of the case's expectations that hold over its turn trace";

/** "Turn verdict": 1 when every expectation holds; the verdict the gate judges the case by. */
export const turnVerdictScorer = (): AgentScorer =>
  createScorer<TurnCase, AgentTurnOutput, unknown>({
    name: "Turn verdict",
    description: VERDICT_DEFINITION,
    scorer: ({ input, output }) => {
      const verdict = turnVerdict(input, output);
      return {
        score: verdict.pass ? 1 : 0,
        metadata: { ...metadata(input, output, verdict, VERDICT_DEFINITION), verdict: { pass: verdict.pass, failed: verdict.failed } },
      };
    },
  });

/** "Expectations met": the share of the case's expectations that hold (0, not scored, when the turn failed). */
export const expectationsMetScorer = (): AgentScorer =>
  createScorer<TurnCase, AgentTurnOutput, unknown>({
    name: "Expectations met",
    description: MET_DEFINITION,
    scorer: ({ input, output }) => {
      const verdict = turnVerdict(input, output);
      const held = verdict.checks.filter((x) => x.pass).length;
      return {
        score: verdict.fault ? 0 : held / Math.max(1, verdict.checks.length),
        metadata: { ...metadata(input, output, verdict, MET_DEFINITION), held, expectations: input.expect.length },
      };
    },
  });
