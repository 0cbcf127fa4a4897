// The temporal lane: documents that supersede others or have an end date (fixtures/temporal), and
// cases whose right answer depends on the date. Per case, at its instant (asOf, or now): whether
// every mode and tier kept the stale documents out of the top 10, whether the valid one ranks,
// whether includeSuperseded brings the stale ones back marked, and whether ask() states the value
// valid then and cites only then-valid sources. Slices: language, and category = kind of change.
import { laneIndex, laneTarget } from "../helpers/eval-index.js";
import { defineEval } from "../helpers/define-eval.js";
import { loadTemporalCases } from "../helpers/fixture-files.js";
import { forwardTrace, rank, type RetrievalMode } from "../helpers/retrieval-task.js";
import { recallAtK } from "../scorers/retrieval.js";
import { rankedLists } from "../scorers/stage-loss.js";
import { citesThenValid, staleHidden, staleMarked, statesThenValid, type TemporalRankings } from "../scorers/temporal.js";

const K = 10;
const MODES: RetrievalMode[] = ["search", "vsearch", "fast", "balanced", "thorough"];

const rows = () =>
  loadTemporalCases().map((c) => ({
    input: { id: c.id, query: c.query, language: c.language, category: c.change, asOf: c.asOf ?? "now" },
    expected: {
      valid: c.valid,
      stale: c.stale,
      expectedSubstrings: c.expectedSubstrings,
      forbiddenSubstrings: c.forbiddenSubstrings ?? [],
      judgments: Object.fromEntries(c.valid.map((d) => [d, 3])),
    },
  }));
const instant = (asOf: string) => (asOf === "now" ? {} : { asOf });

defineEval({ suiteIndex: true })("Temporal validity", {
  data: rows,
  task: async (input): Promise<TemporalRankings & { results: Array<{ docId: string; score: number }> }> => {
    const lane = await laneTarget("temporal");
    const byMode: Record<string, string[]> = {};
    let results: Array<{ docId: string; score: number }> = [];
    for (const mode of MODES) {
      const response = await rank(lane, mode, input, { limit: K, ...instant(input.asOf) });
      byMode[mode] = response.results.map((h) => h.docId);
      if (mode === "balanced") {
        forwardTrace(response.trace ?? []);
        results = response.results.map((h) => ({ docId: h.docId, score: h.score }));
      }
    }
    const included = await rank(lane, "balanced", input, { limit: K, includeSuperseded: true, ...instant(input.asOf) });
    return {
      byMode,
      included: included.results.map((h) => ({
        docId: h.docId,
        stale: h.validity?.stale === true,
        ...(h.validity?.reason ? { reason: h.validity.reason } : {}),
      })),
      k: K,
      results,
    };
  },
  scorers: [staleHidden(), recallAtK(5), staleMarked()],
  columns: ({ input, output }) => [
    { label: "Case", value: `${input.id} (${input.category}, as of ${input.asOf}): ${input.query}` },
    {
      label: "Top 3 (balanced)",
      value:
        output.results.length === 0
          ? "(none)"
          : output.results
              .slice(0, 3)
              .map((r, i) => `${i + 1}. ${r.docId}`)
              .join("\n"),
    },
    {
      label: "With includeSuperseded",
      value: output.included
        .slice(0, 3)
        .map((h) => `${h.docId}${h.stale ? ` [stale: ${h.reason}]` : ""}`)
        .join("\n"),
    },
  ],
});

defineEval({ suiteIndex: true })("Temporal answers", {
  data: rows,
  task: async (input) => {
    const { engine } = await laneIndex("temporal");
    const result = await engine.ask(input.query, instant(input.asOf));
    forwardTrace(result.trace);
    // Like every answer eval's output: the trace's ranked lists, the whole trace being the case's trace view.
    return { ...result, trace: rankedLists(result.trace) };
  },
  scorers: [statesThenValid(), citesThenValid()],
  columns: ({ input, output }) => [
    { label: "Case", value: `${input.id} (${input.category}, as of ${input.asOf}): ${input.query}` },
    { label: "Answer", value: output.error ? `ERROR: ${output.error}` : output.answer },
    { label: "Citations", value: output.citations.map((c) => `[${c.ref}] ${c.docId}`).join("\n") || "(none)" },
  ],
});
