// The CJK lane: same-language queries in Simplified and Traditional Chinese, Japanese and Korean
// on the lane's own index (BM25), one suite per language, and the per-language summary with the
// zero-result rate.
import { evalite } from "evalite";
import { laneIndex } from "../helpers/eval-index.js";
import { loadLane } from "../helpers/lanes.js";
import { RESULT_DEPTH, rankSerially, retrievalColumns, runRetrieval, type RetrievalTaskOutput } from "../helpers/retrieval-task.js";
import { CJK_LANGUAGES } from "../helpers/fixtures.js";
import { formatLaneSummary, hasResults, laneSummary } from "../scorers/lane.js";
import { mrr, ndcgAtK, recallAtK } from "../scorers/retrieval.js";

const cases = (language: string) => loadLane("cjk").cases.filter((c) => c.language === language);
const outputs = new Map<string, Promise<RetrievalTaskOutput>>();

for (const language of CJK_LANGUAGES) {
  evalite(`CJK lane [${language}]`, {
    data: () => cases(language).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
    task: async (input) => {
      const { engine, fingerprint } = await laneIndex("cjk");
      const run = runRetrieval(engine, "search", input, fingerprint.corpusHash.slice(0, 12));
      outputs.set(input.id, run);
      return run;
    },
    scorers: [recallAtK(10), ndcgAtK(10), mrr({ k: RESULT_DEPTH }), hasResults()],
    columns: (row) => [{ label: "Category", value: row.input.category }, ...retrievalColumns(row)],
  });
}

evalite("CJK lane by language", {
  data: CJK_LANGUAGES.map((language) => ({ input: language })),
  task: async (language) => {
    const { engine } = await laneIndex("cjk");
    const rows = await Promise.all(
      cases(language).map(async (c) => {
        // Reuse the case's run from its language suite when it happened in this process.
        const ranking = outputs.has(c.id)
          ? (await outputs.get(c.id)!).results
          : (await rankSerially(engine, "search", c.query, { limit: RESULT_DEPTH })).results;
        return { ranking: ranking.map((r) => r.docId), judgments: c.judgments };
      }),
    );
    const summary = laneSummary(language, rows);
    console.log(formatLaneSummary(summary));
    return summary;
  },
  scorers: [
    {
      name: "Recall@10 goal (0.8)",
      description: "1 when the language's mean Recall@10 is at least 0.8 (issue 7's goal)",
      scorer: ({ output }) => ({ score: output.recallAt10 >= 0.8 ? 1 : 0, metadata: { ...output } }),
    },
  ],
  columns: ({ output }) => [{ label: "Language", value: formatLaneSummary(output) }],
});
