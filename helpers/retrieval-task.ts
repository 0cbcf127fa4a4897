/**
 * The task every retrieval eval runs: one ranking call for a case, its stage trace forwarded to
 * Evalite (`reportTrace`, one entry per stage, then where each relevant document went), and an
 * output the retrieval scorers read; and `rank`, through which every ranking an eval asks for
 * goes: computed once per run (helpers/run-cache.ts), observed as every target's ranking is
 * (helpers/targets/observe.ts).
 */
import { reportTrace } from "evalite/traces";
import type { Tier, TraceStage } from "@hybrid-search/target-contract/types";
import type { ObservedRanking, TimedBy } from "../scorers/observed.js";
import type { RetrievalRanking } from "../scorers/retrieval.js";
import { relevantDocPaths, summarizeLosses, type RelevantDocPath } from "../scorers/stage-loss.js";
import type { RetrievalCase } from "./dataset.js";
import { once } from "./run-cache.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import { observedRanking } from "./targets/observe.js";
import type { Target, TargetSearch } from "./targets/target.js";
import { inputView, relevantDocumentsTable, stageView } from "./trace-view.js";

export type RetrievalMode = "search" | "vsearch" | Tier;

/** What a ranking call asks beyond the query and mode (the contract's `SearchRequest`). */
export type RankOptions = Omit<TargetSearch, "id" | "query" | "mode" | "limit"> & { limit?: number };

/** What a retrieval eval's task returns: the ranking the scorers read, and what the columns show. */
export interface RetrievalTaskOutput extends RetrievalRanking {
  mode: RetrievalMode;
  results: Array<{ docId: string; score: number; passageId?: string }>;
  /** The call's time: the target's own, else the suite's around the call; null: unknown (a recording without times). */
  elapsedMs: number | null;
  /** Who measured `elapsedMs`, or null when it is unknown. */
  timedBy: TimedBy | null;
  /** The suite's time around the call; null for a recording. */
  clientMs: number | null;
  /** The target's own time for the call, when it reports one (in-process: the engine's); null otherwise. */
  serverMs: number | null;
  /** Each judged-relevant document's rank at every stage, and the stage that lost it from the top `cutoff`; empty without a trace. */
  relevantPaths: RelevantDocPath[];
  /** The eval's own cut-off, which "lost at" reads: the smallest k of its metrics. */
  cutoff: number;
  /** Whether the target returned a stage trace ("lost at" needs one). */
  traced: boolean;
  /** Returned document ids the dataset does not hold: unjudged, counted and shown, scored as non-relevant. */
  unknownDocs: string[];
  /** Corpus hash prefix of the index measured. */
  index: string;
  /** The target measured: `in-process engine, offline models`, `http:<name>`, `module:<name>`, `run:<name>`. */
  target: string;
}

/** Result depth asked of the engine: the deepest cut-off any retrieval scorer uses. */
export const RESULT_DEPTH = 10;
/** Trace depth: as deep as fusion's candidate lists, so "lost at" is exact. */
const TRACE_DEPTH = 50;

/**
 * A ranking, computed once per run for each distinct (target, what it has indexed, mode, case,
 * options) and shared by every eval that asks for it. Every ranking an eval asks for goes through
 * here. The case id is part of the key because a recorded run is looked up by it. `search` and the
 * `fast` tier are kept apart: they run the same BM25 stage today (docs/evals.md), but nothing in
 * the engine's contract says they must.
 */
export function rank(
  { target, fingerprint }: MeasuredTarget,
  mode: RetrievalMode,
  c: Pick<RetrievalCase, "id" | "query">,
  options: RankOptions = {},
): Promise<ObservedRanking> {
  return once([target.label, fingerprint, mode, c.id, c.query, options], async () =>
    observedRanking(await target.search({ id: c.id, query: c.query, mode, limit: RESULT_DEPTH, ...options })),
  );
}

/**
 * The options of a case's ranking: the depth the scorers read, a trace as deep as fusion's
 * candidate lists, the case's collection. Every eval ranks a case with these, so that the tier
 * evals, the tier-order evals and the summaries share one call per case and mode.
 */
export function retrievalOptions(c: RetrievalCase): RankOptions {
  return { limit: RESULT_DEPTH, traceDepth: TRACE_DEPTH, ...(c.collection ? { collection: c.collection } : {}) };
}

/** Where a trace would have been: said in the UI, so that "no trace" is never read as "nothing lost". */
function reportNoTrace(target: Target): void {
  const now = performance.timeOrigin + performance.now();
  reportTrace({
    input: inputView("no trace from target", { target: target.name }),
    output: "the target returned rankings only",
    start: now,
    end: now,
  });
}

/**
 * A case's ranking on the measured target, its trace forwarded, the relevant documents followed
 * through it to the eval's own cut-off (`cutoff`: the smallest k its metrics read, so that a
 * Recall@5 row never says "all found" of a document at rank 7). Each returned id is checked
 * against `knownDocs` (the dataset's ids): one the dataset does not hold is unjudged.
 */
export async function runRetrieval(
  measured: MeasuredTarget,
  mode: RetrievalMode,
  c: RetrievalCase,
  knownDocs?: () => ReadonlySet<string>,
  { cutoff = RESULT_DEPTH }: { cutoff?: number } = {},
): Promise<RetrievalTaskOutput> {
  const { target, fingerprint } = measured;
  const response = await rank(measured, mode, c, retrievalOptions(c));
  let relevantPaths: RelevantDocPath[] = [];
  const failedExpander = expanderFailure(response);
  if (response.trace) {
    forwardTrace(response.trace);
    relevantPaths = relevantDocPaths(response.trace, response.results, c.judgments, cutoff);
    // Not a stage of the engine: it takes no time, so it sits at the end of the last stage.
    const end = response.trace.at(-1)?.end ?? performance.timeOrigin + performance.now();
    reportTrace({
      input: inputView("relevant documents", { query: c.query, judged: relevantPaths.length, k: cutoff }),
      output: relevantDocumentsTable(relevantPaths),
      start: end,
      end,
    });
  } else reportNoTrace(target);
  // The ranking is real but not the mode's: scoring it would measure the unexpanded query under
  // the thorough tier's name, and a model that failed would pass unseen. The task fails instead,
  // so every metric of the case is a fault (docs/gate.md).
  if (failedExpander !== null) throw new Error(`the ${mode} ranking ran unexpanded because the ${failedExpander}`);
  const known = knownDocs?.();
  return {
    mode,
    results: response.results.map((h) => ({
      docId: h.docId,
      score: h.score,
      ...(h.passageId === undefined ? {} : { passageId: h.passageId }),
    })),
    elapsedMs: response.elapsedMs,
    timedBy: response.timedBy,
    clientMs: response.clientMs,
    serverMs: response.serverMs,
    relevantPaths,
    cutoff,
    traced: response.trace !== null,
    unknownDocs: known ? response.results.map((h) => h.docId).filter((id) => !known.has(id)) : [],
    index: fingerprint.corpusHash.slice(0, 12),
    target: target.label,
  };
}

/**
 * Why the ranking's query expansion failed (`expander failed: …`), from its trace's expansion
 * stage; null when it did not fail, or the target gave no trace. An expander whose output failed
 * validation is not a failure here: it answered, badly, and the ranking it led to is the target's.
 */
export function expanderFailure(ranking: Pick<ObservedRanking, "trace">): string | null {
  for (const stage of ranking.trace ?? []) {
    if (stage.stage !== "expansion" || Array.isArray(stage.output)) continue;
    const fallback = stage.output.fallback as { reason?: unknown; errors?: unknown } | undefined;
    if (fallback !== undefined && fallback.errors === undefined)
      return typeof fallback.reason === "string" ? fallback.reason : "expander failed";
  }
  return null;
}

/** Each engine stage to Evalite's trace, shaped for its trace view (helpers/trace-view.ts). */
export function forwardTrace(trace: readonly TraceStage[]): void {
  for (const stage of trace) {
    let view = stageViews.get(stage);
    if (view === undefined) stageViews.set(stage, (view = stageView(stage)));
    reportTrace({ ...view, start: stage.start, end: stage.end });
  }
}

/**
 * Each stage's view, made once: a response computed once per run (helpers/run-cache.ts) is
 * forwarded by every eval that reads it (an answer by seven suites), and its stages never change.
 */
const stageViews = new WeakMap<TraceStage, ReturnType<typeof stageView>>();

/** The columns every retrieval eval shows: query, top 3, time, and what was lost where. */
export function retrievalColumns({
  input,
  output,
}: {
  input: RetrievalCase;
  output: RetrievalTaskOutput;
}): Array<{ label: string; value: unknown }> {
  return [
    { label: "Query", value: `${input.id}: ${input.query}` },
    {
      label: "Top 3",
      value:
        output.results
          .slice(0, 3)
          .map((r) => r.docId)
          .join("\n") || "(none)",
    },
    { label: "Time", value: timeColumn(output) },
    {
      label: `Lost at (top ${output.cutoff})`,
      value: output.traced ? summarizeLosses(output.relevantPaths) : "no trace from target",
    },
    { label: "Target", value: output.target },
    {
      label: "Unjudged",
      value: output.unknownDocs.length === 0 ? "none" : `${output.unknownDocs.length} not in the dataset: ${output.unknownDocs.join(", ")}`,
    },
  ];
}

/** A call's time for people: the target's, with the suite's beside it; the suite's alone, saying so; or why it is unknown. */
export function timeColumn(output: Pick<RetrievalTaskOutput, "elapsedMs" | "timedBy" | "clientMs">): string {
  if (output.elapsedMs === null) return "not reported (a recording without times)";
  if (output.timedBy === "client") return `${output.elapsedMs.toFixed(1)} ms (measured by the suite: the target reported none)`;
  const client = output.clientMs === null ? "" : ` (client ${output.clientMs.toFixed(1)} ms)`;
  return `${output.elapsedMs.toFixed(1)} ms${client}`;
}
