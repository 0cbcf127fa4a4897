// The CJK lane: same-language queries in Simplified and Traditional Chinese, Japanese and Korean
// on the lane's own index (BM25), one suite per language, and the per-language summary with the
// zero-result rate.
import { laneTarget } from "../helpers/eval-index.js";
import { defineEval } from "../helpers/define-eval.js";
import { loadLane } from "../helpers/lanes.js";
import { RESULT_DEPTH, rank, retrievalColumns, retrievalOptions, runRetrieval } from "../helpers/retrieval-task.js";
import { CJK_LANGUAGES } from "../helpers/fixture-files.js";
import { logSummary } from "../helpers/summary-line.js";
import { formatLaneSummary, hasResults, laneSummary } from "../scorers/lane.js";
import { mrr, ndcgAtK, recallAtK } from "../scorers/retrieval.js";

const cases = (language: string) => loadLane("cjk").cases.filter((c) => c.language === language);

for (const language of CJK_LANGUAGES) {
  defineEval({ suiteIndex: true })(`CJK lane [${language}]`, {
    data: () => cases(language).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
    task: async (input) => runRetrieval(await laneTarget("cjk"), "search", input),
    scorers: [recallAtK(10), ndcgAtK(10), mrr({ k: RESULT_DEPTH }), hasResults()],
    columns: (row) => [{ label: "Category", value: row.input.category }, ...retrievalColumns(row)],
  });
}

defineEval({ suiteIndex: true })("CJK lane by language", {
  data: CJK_LANGUAGES.map((language) => ({ input: language })),
  task: async (language) => {
    const lane = await laneTarget("cjk");
    const rows = await Promise.all(
      cases(language).map(async (c) => {
        // The language suite's own ranking of the case (computed once per run).
        const { results } = await rank(lane, "search", c, retrievalOptions(c));
        return { ranking: results.map((r) => r.docId), judgments: c.judgments };
      }),
    );
    const summary = laneSummary(language, rows);
    logSummary("CJK lane by language", formatLaneSummary(summary));
    return summary;
  },
  scorers: [
    {
      name: "Recall@10 goal (0.8)",
      description: "1 when the language's mean Recall@10 is at least 0.8, the CJK lane's goal per language",
      scorer: ({ output }) => ({ score: output.recallAt10 >= 0.8 ? 1 : 0, metadata: { ...output } }),
    },
  ],
  columns: ({ output }) => [{ label: "Language", value: formatLaneSummary(output) }],
});
