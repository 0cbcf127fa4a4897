/**
 * Drafted cases in a run: a case whose input says `status: "draft"` (nobody has reviewed it yet;
 * the suite's `pnpm eval:draft`, `eval:harvest` and `eval:review` write and settle that field) is
 * measured like any other, but kept out of everything that gates: the floors and their means, the
 * latency ceilings, the recorded cases, the dataset's own thresholds, `--threshold`'s mean and
 * `--update-baseline`. `splitDrafts` takes them out of the run before the gate looks at it;
 * `draftsSummary` says how the system did on them, apart ("drafts: 40 cases, not gated").
 *
 * One thing a draft still does: a case the target or a model failed to answer (a fault,
 * score-status.ts) fails the run whether or not it is a draft — what failed is the system, not
 * the draft's expectation. Pure.
 */
import type { Evalite } from "evalite";
import type { Outcome } from "./aggregate.js";
import type { RunAnalysis } from "./analysis.js";
import { isObject } from "./evalite-output.js";

/** Whether a row's input is a drafted case. */
export function isDraftInput(input: unknown): boolean {
  return isObject(input) && input.status === "draft";
}

/**
 * The run without its drafted cases (`gated`: suites keep their order; a suite of drafts only is
 * left out), and the drafted cases as a run of their own (`drafts`), null when there are none.
 */
export function splitDrafts(output: Evalite.Exported.Output): {
  gated: Evalite.Exported.Output;
  drafts: Evalite.Exported.Output | null;
} {
  const gated: Evalite.Exported.Suite[] = [];
  const drafts: Evalite.Exported.Suite[] = [];
  for (const suite of output.suites) {
    const reviewed = suite.evals.filter((row) => !isDraftInput(row.input));
    const drafted = suite.evals.filter((row) => isDraftInput(row.input));
    if (reviewed.length > 0 || drafted.length === 0) gated.push(drafted.length === 0 ? suite : { ...suite, evals: reviewed });
    if (drafted.length > 0) drafts.push({ ...suite, evals: drafted });
  }
  return { gated: { ...output, suites: gated }, drafts: drafts.length === 0 ? null : { ...output, suites: drafts } };
}

/** Verdict units by outcome. */
export interface OutcomeCounts {
  units: number;
  passed: number;
  failed: number;
  errored: number;
}

/** How the system did on the drafted cases: reported, never gated. */
export interface DraftsSummary extends OutcomeCounts {
  /** Drafted cases measured (distinct case ids); each is one or more verdict units (one per suite that judges it). */
  cases: number;
  /** Per suite (an eval, or a variant of one): its units by outcome, and per category of case. */
  suites: Array<OutcomeCounts & { suite: string; eval: string; categories: Array<OutcomeCounts & { category: string }> }>;
  /** Every drafted unit: its outcome and why it did not pass. */
  verdicts: Array<{
    key: string;
    suite: string;
    id: string;
    label: string;
    language?: string;
    category?: string;
    outcome: Outcome;
    reasons: string[];
  }>;
}

function counts(outcomes: readonly Outcome[]): OutcomeCounts {
  return {
    units: outcomes.length,
    passed: outcomes.filter((o) => o === "pass").length,
    failed: outcomes.filter((o) => o === "fail").length,
    errored: outcomes.filter((o) => o === "error").length,
  };
}

/** The drafted run's units summed up, per suite and category (the analysis of `splitDrafts(…).drafts`). */
export function draftsSummary(analysis: Pick<RunAnalysis, "units">): DraftsSummary {
  const units = analysis.units;
  const suites = [...new Set(units.map((u) => u.suite))].map((suite) => {
    const mine = units.filter((u) => u.suite === suite);
    const categories = [...new Set(mine.map((u) => u.category ?? "(none)"))].sort().map((category) => ({
      category,
      ...counts(mine.filter((u) => (u.category ?? "(none)") === category).map((u) => u.outcome)),
    }));
    return { suite, eval: mine[0]!.eval, ...counts(mine.map((u) => u.outcome)), categories };
  });
  return {
    cases: new Set(units.map((u) => u.id)).size,
    ...counts(units.map((u) => u.outcome)),
    suites,
    verdicts: units.map((u) => ({
      key: u.key,
      suite: u.suite,
      id: u.id,
      label: u.label,
      ...(u.language ? { language: u.language } : {}),
      ...(u.category ? { category: u.category } : {}),
      outcome: u.outcome,
      reasons: u.reasons,
    })),
  };
}

/** The one line a run prints about its drafts, e.g. `drafts: 40 case(s), not gated: 52 of 80 verdict(s) pass, 28 fail, 0 error`. */
export function draftsLine(summary: DraftsSummary): string {
  return `drafts: ${summary.cases} case(s), not gated: ${summary.passed} of ${summary.units} verdict(s) pass, ${summary.failed} fail, ${summary.errored} error (scored apart; in no floor, mean or recorded case; pnpm eval:review settles them)`;
}

/** One line per suite: its drafted units' pass share, and per category. */
export function draftsSuiteLines(summary: DraftsSummary): string[] {
  return summary.suites.map(
    (s) =>
      `  ${s.suite}: ${s.passed}/${s.units} pass${s.categories.length > 1 || s.categories[0]?.category !== "(none)" ? ` (${s.categories.map((c) => `${c.category} ${c.passed}/${c.units}`).join(", ")})` : ""}`,
  );
}
