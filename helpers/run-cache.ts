/**
 * Compute once, score many. Within one run, each distinct engine call — an index (by its whole
 * fingerprint), a method, its input and options — is executed once, and its response (results,
 * trace, timing) is shared by every eval that asks for it: `search.eval.ts` and the tier-order
 * evals read the same responses as the per-tier evals instead of asking the engine again.
 *
 * Shared within the process: evalite.config.ts runs every eval file in one worker process
 * (`isolate: false`, one worker), so one process sees every call of the run. The memo is
 * run-scoped: global setup hands out a new run id (`inject("evalRun")`) for every run and every
 * watch-mode rerun, and a new run starts with an empty memo — a rerun after an edit to the
 * engine, a prompt or a corpus document never reads a response of the run before.
 */
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** Identifies the current run (a new id for each watch-mode rerun); see helpers/global-setup.ts. */
    evalRun: string;
  }
}

/** Without global setup (an eval file run on its own), a "run" lasts as long as the process. */
const NO_GLOBAL_SETUP = "no global setup";

const currentRun = (): string => (inject("evalRun") as string | undefined) ?? NO_GLOBAL_SETUP;

/** A value made once per run (`runId()`, by default the run global setup names): made again when the run changes. */
export function perRun<T>(create: () => T, runId: () => string = currentRun): () => T {
  let run: string | undefined;
  let value: T;
  return () => {
    const id = runId();
    if (id !== run) {
      value = create();
      run = id;
    }
    return value;
  };
}

export type Once = <T>(key: readonly unknown[], compute: () => Promise<T>) => Promise<T>;

/**
 * A memo scoped to the run `runId()` names: `compute()` once per run for a key, its promise shared
 * by every caller. A key must name everything the result depends on (the index fingerprint, the
 * method, its arguments); it is compared as JSON. A rejection is shared too: the same call fails
 * the same way for every eval. When the run id changes, the memo starts empty.
 */
export function runScopedMemo(runId: () => string = currentRun): Once {
  const memo = perRun(() => new Map<string, Promise<unknown>>(), runId);
  return <T>(key: readonly unknown[], compute: () => Promise<T>): Promise<T> => {
    const calls = memo();
    const id = JSON.stringify(key);
    let result = calls.get(id) as Promise<T> | undefined;
    if (!result) {
      result = compute();
      calls.set(id, result);
    }
    return result;
  };
}

/** The run's memo: every engine call an eval shares goes through it. */
export const once: Once = runScopedMemo();

/**
 * Headers that make this call distinct per trial of a case: the n-th call for `caseKey` in this
 * run is trial n (a watch-mode rerun counts from 1 again, as a new run does, so it finds the
 * calls the run before it made). The model cache then stores each trial's answer instead of
 * replaying the first, and the run's memo (`once`) keeps the trials apart.
 */
export const trialHeaders: (caseKey: string) => Record<string, string> = trialCounter();

/** `trialHeaders` counting per run `runId()` names. */
export function trialCounter(runId: () => string = currentRun): (caseKey: string) => Record<string, string> {
  const trials = perRun(() => new Map<string, number>(), runId);
  return (caseKey) => {
    const counts = trials();
    const n = (counts.get(caseKey) ?? 0) + 1;
    counts.set(caseKey, n);
    return trialHeader(n);
  };
}

/** The header that makes trial `n` of a case a distinct call (`trialHeaders`). */
export function trialHeader(n: number): Record<string, string> {
  return { "x-eval-trial": String(n) };
}
