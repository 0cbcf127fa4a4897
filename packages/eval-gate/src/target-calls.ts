/**
 * What a run saw of a target other than the in-process engine, over its ranking calls: the time
 * of a call as the suite measured it (the client's round trip) and as the target reported it (its
 * own `elapsedMs` or `Server-Timing`, when it gives one), and the results naming documents the
 * dataset does not hold (unjudged: scored as not relevant, never dropped). Read from the task
 * outputs the retrieval evals record (helpers/retrieval-task.ts: `target`, `mode`, `clientMs`,
 * `serverMs`, `unknownDocs`); an output without `target` is the in-process engine's. Each
 * ranking is counted once, however many evals share it (one call per mode and case). Pure.
 */
import type { Evalite } from "evalite";
import { isObject } from "./evalite-output.js";
import { percentile } from "./stats.js";

export interface CallTimes {
  /** Calls that carry this time. */
  n: number;
  p50Ms: number;
  p95Ms: number;
}

export interface TargetCalls {
  /** The target as the outputs name it: `http flaky`, `recorded my-run`. */
  target: string;
  /** Distinct ranking calls (mode and case). */
  calls: number;
  /** Results over those calls. */
  results: number;
  /** The client's round trip; null when no call was timed by the client (recorded runs). */
  clientMs: CallTimes | null;
  /** The target's own time, over the calls that report one; null when none does. */
  serverMs: CallTimes | null;
  /** Results naming documents the dataset does not hold: how many, in how many calls, which (first `SHOWN_DOCUMENTS`). */
  unjudged: { results: number; calls: number; documents: string[] };
}

/** Unjudged document ids listed in the report; the counts cover all of them. */
export const SHOWN_DOCUMENTS = 20;

interface Call {
  target: string;
  clientMs: number | null;
  serverMs: number | null;
  unknownDocs: string[];
  results: number;
}

const finite = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** A row's ranking call, when its output is one of another target's (not an in-process ranking, not an answer). */
function callOf(row: Evalite.Exported.Eval): { key: string; call: Call } | null {
  const out = row.output;
  if (!isObject(out) || typeof out.target !== "string" || typeof out.mode !== "string" || !Array.isArray(out.unknownDocs)) return null;
  const id = isObject(row.input) && (typeof row.input.id === "string" || typeof row.input.id === "number") ? row.input.id : null;
  if (id === null) return null;
  return {
    key: `${out.mode}\u0000${id}`,
    call: {
      target: out.target,
      clientMs: finite(out.clientMs),
      serverMs: finite(out.serverMs),
      unknownDocs: out.unknownDocs.filter((d): d is string => typeof d === "string"),
      results: Array.isArray(out.results) ? out.results.length : 0,
    },
  };
}

function times(values: ReadonlyArray<number | null>): CallTimes | null {
  const xs = values.filter((x): x is number => x !== null);
  return xs.length === 0 ? null : { n: xs.length, p50Ms: percentile(xs, 50), p95Ms: percentile(xs, 95) };
}

/** The run's ranking calls to another target, summed up; null when the run measured the in-process engine only. */
export function targetCalls(output: Evalite.Exported.Output): TargetCalls | null {
  const calls = new Map<string, Call>();
  for (const suite of output.suites)
    for (const row of suite.evals) {
      const found = callOf(row);
      if (found && !calls.has(found.key)) calls.set(found.key, found.call);
    }
  const all = [...calls.values()];
  if (all.length === 0) return null;
  const unknown = all.filter((c) => c.unknownDocs.length > 0);
  return {
    target: all[0]!.target,
    calls: all.length,
    results: all.reduce((n, c) => n + c.results, 0),
    clientMs: times(all.map((c) => c.clientMs)),
    serverMs: times(all.map((c) => c.serverMs)),
    unjudged: {
      results: unknown.reduce((n, c) => n + c.unknownDocs.length, 0),
      calls: unknown.length,
      documents: [...new Set(unknown.flatMap((c) => c.unknownDocs))].slice(0, SHOWN_DOCUMENTS),
    },
  };
}

/** Results a run needs before their ids can be said not to match the dataset's. */
export const MISMATCH_MIN_RESULTS = 10;

/**
 * Why the target's ids and the dataset's do not match, or null: when more than half of at least
 * `MISMATCH_MIN_RESULTS` results name documents the dataset does not hold, every metric would
 * measure the mapping, not the system (0 of N above zero), so the run is an input error, not a
 * verdict. Three returned ids beside three of the dataset's show the two namings side by side.
 */
export function idMismatch(calls: TargetCalls | null, datasetIds: readonly string[]): string | null {
  if (calls === null || calls.results < MISMATCH_MIN_RESULTS || calls.unjudged.results * 2 <= calls.results) return null;
  const quote = (ids: readonly string[]): string =>
    ids
      .slice(0, 3)
      .map((id) => JSON.stringify(id))
      .join(", ");
  return (
    `${calls.target}: ${calls.unjudged.results} of ${calls.results} results name documents the dataset does not hold ` +
    `(returned: ${quote(calls.unjudged.documents)}; the dataset's: ${quote(datasetIds)}): the target names documents by other ids; ` +
    "map them (an adapter's docId pointer or a module's docId, docs/targets.md), or give the dataset the target's ids (pnpm eval:import keeps a source's ids)"
  );
}
