/**
 * Latency budget: 1 when the task took at most `budgetMs`, falling linearly to 0 at twice the
 * budget (score = clamp(2 − elapsed / budget, 0, 1)). The elapsed time is the call's
 * (`output.elapsedMs`: the target's own measurement, else the suite's around the call; never
 * Evalite's overhead). A call whose time is unknown (a recording that holds none) is not scored,
 * with the reason every target's unknown time has (scorers/observed.ts, `NO_TIME`).
 *
 * **When to use:** guard a tier's speed next to its quality, so a change that buys nDCG with
 * seconds shows up.
 * **When NOT to use:** for benchmarking; one noisy sample per case says little (use `pnpm bench`).
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { NO_TIME, notGiven } from "./observed.js";

export interface TimedOutput {
  /** null when the call's time is unknown (a recording without it): the score is then not scored, never within budget. */
  readonly elapsedMs: number | null;
}

export interface LatencyScore {
  score: number;
  metadata: { elapsedMs: number | null; budgetMs: number; convention: string; status?: "unknown"; reason?: string };
}

const CONVENTION = "1 within budget, linear to 0 at 2× budget";

/** The score of a call whose time is unknown: not scored (the gate counts it as such), not a pass. */
export function unmeasuredLatency(budgetMs: number): LatencyScore {
  return notGiven(NO_TIME, { elapsedMs: null, budgetMs, convention: CONVENTION }) as LatencyScore;
}

export function latencyBudgetScore(elapsedMs: number, budgetMs: number): LatencyScore {
  if (!(budgetMs > 0)) throw new RangeError(`latency budget must be > 0 ms, got ${budgetMs}`);
  if (!Number.isFinite(elapsedMs) || elapsedMs < 0) throw new RangeError(`elapsed time must be a finite number ≥ 0 ms, got ${elapsedMs}`);
  const score = Math.min(1, Math.max(0, 2 - elapsedMs / budgetMs));
  return { score, metadata: { elapsedMs, budgetMs, convention: CONVENTION } };
}

/** `budgetMs` is a number, or a function of the output (e.g. per tier). */
export function latencyBudget<TInput, TOutput extends TimedOutput, TExpected>(
  budgetMs: number | ((output: TOutput) => number),
): Evalite.Scorer<TInput, TOutput, TExpected> {
  const budgetOf = typeof budgetMs === "number" ? () => budgetMs : budgetMs;
  if (typeof budgetMs === "number") latencyBudgetScore(0, budgetMs);
  return createScorer<TInput, TOutput, TExpected>({
    name: typeof budgetMs === "number" ? `Latency ≤ ${budgetMs / 1000} s` : "Latency budget",
    description: "1 within budget, linear to 0 at twice the budget",
    scorer: ({ output }) =>
      output.elapsedMs === null ? unmeasuredLatency(budgetOf(output)) : latencyBudgetScore(output.elapsedMs, budgetOf(output)),
  });
}
