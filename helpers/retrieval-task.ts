/**
 * The task every retrieval eval runs: one engine call for a case, its stage trace forwarded to
 * Evalite (`reportTrace`, one entry per stage, then where each relevant document went), and an
 * output the retrieval scorers read; and `rank`, through which every ranking an eval asks for
 * goes: computed once per run (helpers/run-cache.ts) and queued behind the process's other
 * ranking calls (`rankSerially`), so that measured times are the engine's own.
 */
import { reportTrace } from "evalite/traces";
import type { Engine, SearchOptions, SearchResponse, Tier, TraceStage } from "@hybrid-search/engine";
import type { RetrievalRanking } from "../scorers/retrieval.js";
import { relevantDocPaths, summarizeLosses, type RelevantDocPath } from "../scorers/stage-loss.js";
import type { RetrievalCase } from "./dataset.js";
import { once } from "./run-cache.js";
import type { SuiteFingerprint } from "./setup-db.js";
import { inputView, relevantDocumentsTable, stageView } from "./trace-view.js";

export type RetrievalMode = "search" | "vsearch" | Tier;

/** What a retrieval eval's task returns: the ranking the scorers read, and what the columns show. */
export interface RetrievalTaskOutput extends RetrievalRanking {
  mode: RetrievalMode;
  results: Array<{ docId: string; score: number; passageId: string }>;
  elapsedMs: number;
  /** Each judged-relevant document's rank at every stage, and the stage that lost it. */
  relevantPaths: RelevantDocPath[];
  /** Corpus hash prefix of the index measured. */
  index: string;
}

/** Result depth asked of the engine: the deepest cut-off any retrieval scorer uses. */
export const RESULT_DEPTH = 10;
/** Trace depth: as deep as fusion's candidate lists, so "lost at" is exact. */
const TRACE_DEPTH = 50;

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs engine calls of this process one at a time — of the whole run, since every eval file runs
 * in one worker process (evalite.config.ts). Evalite runs up to five cases at once; without this,
 * a call's measured time would include other cases' work interleaved at every `await`, and the
 * latency column would show the harness's queue instead of the engine.
 */
function serially<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * One ranking call, queued behind this process's other ranking calls (`serially`): `search`,
 * `vsearch`, or `query` at a tier.
 */
function rankSerially(engine: Engine, mode: RetrievalMode, query: string, options: SearchOptions = {}): Promise<SearchResponse> {
  return serially(async () => {
    if (mode === "search") return engine.search(query, options);
    if (mode === "vsearch") return engine.vsearch(query, options);
    return engine.query(query, { ...options, tier: mode });
  });
}

/** An open index and what identifies it (helpers/eval-index.ts: `evalIndex()`, `laneIndex()`). */
export interface MeasuredIndex {
  engine: Engine;
  fingerprint: SuiteFingerprint;
}

/**
 * A ranking, computed once per run for each distinct (index fingerprint, mode, query, options)
 * and shared by every eval that asks for it. Every ranking an eval asks the engine for goes
 * through here. `search` and the `fast` tier are kept apart: they run the same BM25 stage today
 * (docs/evals.md), but nothing in the engine's contract says they must.
 */
export function rank(index: MeasuredIndex, mode: RetrievalMode, query: string, options: SearchOptions = {}): Promise<SearchResponse> {
  return once([index.fingerprint, mode, query, options], () => rankSerially(index.engine, mode, query, options));
}

/**
 * The options of a case's ranking: the depth the scorers read, a trace as deep as fusion's
 * candidate lists, the case's collection. Every eval ranks a case with these, so that the tier
 * evals, the tier-order evals and the summaries share one call per case and mode.
 */
export function retrievalOptions(c: RetrievalCase): SearchOptions {
  return { limit: RESULT_DEPTH, traceDepth: TRACE_DEPTH, ...(c.collection ? { collection: c.collection } : {}) };
}

export async function runRetrieval(index: MeasuredIndex, mode: RetrievalMode, c: RetrievalCase): Promise<RetrievalTaskOutput> {
  const response = await rank(index, mode, c.query, retrievalOptions(c));
  forwardTrace(response.trace);
  const relevantPaths = relevantDocPaths(response.trace, response.results, c.judgments, RESULT_DEPTH);
  // Not a stage of the engine: it takes no time, so it sits at the end of the last stage.
  const end = response.trace.at(-1)?.end ?? performance.timeOrigin + performance.now();
  reportTrace({
    input: inputView("relevant documents", { query: c.query, judged: relevantPaths.length, k: RESULT_DEPTH }),
    output: relevantDocumentsTable(relevantPaths),
    start: end,
    end,
  });
  return {
    mode,
    results: response.results.map((h) => ({ docId: h.docId, score: h.score, passageId: h.passageId })),
    elapsedMs: response.elapsedMs,
    relevantPaths,
    index: index.fingerprint.corpusHash.slice(0, 12),
  };
}

/** Each engine stage to Evalite's trace, shaped for its trace view (helpers/trace-view.ts). */
export function forwardTrace(trace: readonly TraceStage[]): void {
  for (const stage of trace) reportTrace({ ...stageView(stage), start: stage.start, end: stage.end });
}

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
    { label: "Time", value: `${output.elapsedMs.toFixed(1)} ms` },
    { label: "Lost at", value: summarizeLosses(output.relevantPaths) },
  ];
}
