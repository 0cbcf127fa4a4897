/**
 * How an eval file defines an eval: by what it needs — of the target (modes, answers, expansion,
 * agent turns, or the in-repo engine on the suite's own index) and of the dataset (the reason it
 * cannot feed the eval, from helpers/datasets/needs.ts). An eval whose needs are not met is
 * skipped and reported with the reason (helpers/targets/skips.ts): never scored 0, never silently
 * absent, and never defined with no case, which Vitest counts as a failed test.
 */
import { evalite } from "evalite";
import { type EvalTargetNeeds, skipReason } from "./targets/eval-target.js";
import { reportSkip } from "./targets/skips.js";

export interface EvalNeeds extends EvalTargetNeeds {
  /** Why the dataset cannot feed the eval, or null (or absent) when it can. */
  data?: string | null;
}

/** How Evalite defines an eval: `evalite`, or `evalite.each(variants)`; each has its `skip`. */
type Define = (evalName: string, opts: never) => unknown;

/** `define` (`evalite` by default, or `evalite.each(variants)`), or its `skip` — reported with the reason — when a need is not met. */
export function defineEval(needs: EvalNeeds): typeof evalite.skip;
export function defineEval<D extends Define>(needs: EvalNeeds, define: D & { skip: D }): D;
export function defineEval(needs: EvalNeeds, define: Define & { skip: Define } = evalite): Define {
  const why = skipReason(needs) ?? needs.data ?? null;
  if (why === null) return define;
  return (evalName, opts) => {
    reportSkip({ eval: evalName, reason: why });
    return define.skip(evalName, opts);
  };
}
