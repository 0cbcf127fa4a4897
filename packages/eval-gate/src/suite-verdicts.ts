/**
 * The gate's verdict per suite: what Evalite's UI can show of it. Evalite 1.0.0-beta.16 lets a run
 * set one mark, a suite's status: "fail" draws ⊗ beside the suite in the sidebar, on its page and on
 * its cases' pages, and on the summary when any suite has it; any other status draws a chevron for
 * the score's trend against the suite's previous run (up, down, same or first), which says nothing
 * of a verdict. Evalite itself sets "fail" only when a case threw; `pnpm eval` also writes it for
 * every suite this module fails, so ⊗ means the gate failed the suite.
 *
 * A suite fails when a case threw, when none of its cases could be scored, when a case of it could
 * not be measured because the target or a model failed (score-status.ts, faults), when a floor or a
 * latency ceiling of its eval's slices fell (a variant slice, `tier=fast,…`, belongs to that
 * variant's suite; `all`, `language=…` and `category=…` to the eval's one suite), or when one of
 * its cases regressed (a case recorded as passing fails now). A case that fails as recorded (a
 * known failure) fails no suite: the gate passes it. Pure.
 */
import { scoringBySuite } from "./analysis.js";
import type { CeilingCheck } from "./ceilings.js";
import type { Variant } from "./evalite-output.js";
import type { FloorCheck } from "./floors.js";
import type { Report } from "./report.js";
import { isFault } from "./score-status.js";

export interface SuiteVerdict {
  suite: string;
  status: "pass" | "fail";
  /** Why the gate failed it, one line each (empty when it passed). */
  reasons: string[];
}

/** Whether `slice` (an aggregate's slice key: `all`, `tier=fast`, `tier=fast,language=de`, …) covers the suite of `variant`. */
export function sliceCoversVariant(slice: string, variant: Variant | null): boolean {
  if (variant === null) return true;
  const base = `${variant.dimension}=${variant.value}`;
  return slice === base || slice.startsWith(`${base},`);
}

const floorReason = (c: FloorCheck): string =>
  c.value === null
    ? `${c.metric} [${c.slice}] not measured (floor ${c.floor.toFixed(4)})`
    : `${c.metric} [${c.slice}] ${c.value.toFixed(4)} < floor ${c.floor.toFixed(4)}`;

const ceilingReason = (c: CeilingCheck): string =>
  c.p95Ms === null
    ? `p95 latency [${c.slice}] not measured (ceiling ${c.ceilingMs} ms)`
    : `p95 latency [${c.slice}] ${c.p95Ms.toFixed(1)} ms > ceiling ${c.ceilingMs} ms`;

/** One verdict per suite of the report, in the report's order. */
export function suiteVerdicts(report: Pick<Report, "evals" | "gate" | "verdicts" | "evalite" | "cases">): SuiteVerdict[] {
  const threw = new Set(report.evalite.failedSuites);
  const scoring = scoringBySuite(report.cases);
  // A thrown task is named as such above; the other faults are scores that say the target or a model failed.
  const faulted = new Map<string, number>();
  for (const c of report.cases)
    if (c.metrics.some((m) => Object.keys(m.notScored ?? {}).some((reason) => reason !== "errored" && isFault(reason))))
      faulted.set(c.suite, (faulted.get(c.suite) ?? 0) + 1);
  const regressedIn = new Map<string, string[]>();
  for (const v of report.verdicts.filter((v) => v.status === "regression"))
    regressedIn.set(v.suite, [...(regressedIn.get(v.suite) ?? []), v.id]);
  return report.evals.flatMap(({ eval: evalKey, suites }) =>
    suites.map(({ name, variant }) => {
      const covers = (c: { eval: string; slice: string }) => c.eval === evalKey && sliceCoversVariant(c.slice, variant);
      const reasons = [
        ...(threw.has(name) ? ["a case threw (Evalite marks the suite failed)"] : []),
        ...(scoring.get(name)?.scored === 0 ? ["no case could be scored"] : []),
        ...(faulted.has(name) ? [`${faulted.get(name)} case(s) errored: the target or a model failed`] : []),
        ...report.gate.failures.filter(covers).map(floorReason),
        ...report.gate.ceilings.failures.filter(covers).map(ceilingReason),
        ...(regressedIn.has(name) ? [`case(s) regressed: ${regressedIn.get(name)!.join(", ")}`] : []),
      ];
      return { suite: name, status: reasons.length > 0 ? "fail" : "pass", reasons };
    }),
  );
}
