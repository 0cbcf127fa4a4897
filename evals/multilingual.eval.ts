// Cross-language retrieval: queries whose relevant documents are (also or only) in another
// language, at the balanced tier; plus the query-language × document-language recall matrix.
import { allDraftsReason, reviewedOnly } from "../helpers/dataset.js";
import { crossLanguage } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset, evalTarget, knownDocIds } from "../helpers/eval-index.js";
import { logSummary } from "../helpers/summary-line.js";
import { rankAhead } from "../helpers/rank-ahead.js";
import { rank, retrievalColumns, retrievalOptions, runRetrieval } from "../helpers/retrieval-task.js";
import { crossLanguageRecallAtK, formatLanguageMatrix, languageRecallMatrix } from "../scorers/language-matrix.js";
import { recallAtK } from "../scorers/retrieval.js";

// A document's language is the dataset's (the fixtures: its top folder), else told by an independent
// language identifier; a dataset whose queries state no language, or none with a relevant document
// in another language, is skipped, saying why.
const { cases, reason, languageOf: docLanguage } = await crossLanguage(evalDataset());
const define = defineEval({ modes: ["balanced"], data: reason });
if (reason === null) rankAhead(["balanced"], () => cases);

define("Cross-language recall", {
  data: () => cases.map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => runRetrieval(await evalTarget(), "balanced", input, knownDocIds, { cutoff: 5 }),
  scorers: [recallAtK(5), crossLanguageRecallAtK(5, docLanguage)],
  columns: retrievalColumns,
});

// The matrix is over reviewed queries only: a draft is measured per query above, and in no matrix.
const defineMatrix = defineEval({
  modes: ["balanced"],
  data: reason ?? allDraftsReason(cases, "cross-language query", evalDataset().name),
});

defineMatrix("Cross-language recall matrix", {
  data: [{ input: "query language × document language, Recall@5" }],
  task: async () => {
    const measured = await evalTarget();
    const rows = await Promise.all(
      reviewedOnly(cases).map(async (c) => {
        // The recall eval's own ranking of the case (computed once per run).
        const { results } = await rank(measured, "balanced", c, retrievalOptions(c));
        return { queryLanguage: c.language!, ranking: results.map((r) => r.docId), judgments: c.judgments };
      }),
    );
    const matrix = languageRecallMatrix(rows, docLanguage, 5);
    logSummary("Cross-language recall matrix", formatLanguageMatrix(matrix, 5));
    return matrix;
  },
  scorers: [
    {
      name: "Off-diagonal Recall@5",
      description: "micro-averaged recall@5 of relevant documents in another language than the query",
      scorer: ({ output }) => {
        let found = 0;
        let relevant = 0;
        for (const [q, cells] of Object.entries(output)) {
          for (const [d, cell] of Object.entries(cells)) {
            if (q === d) continue;
            found += cell.found;
            relevant += cell.relevant;
          }
        }
        return {
          score: relevant > 0 ? found / relevant : 0,
          metadata: { found, relevant, ...(relevant === 0 ? { noRelevant: true } : {}) },
        };
      },
    },
  ],
  columns: ({ output }) => [{ label: "Matrix", value: formatLanguageMatrix(output, 5) }],
});
