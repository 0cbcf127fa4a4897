// BM25 ranking (`engine.search`): does lexical retrieval put the judged documents on top?
import { judgedCases } from "../helpers/dataset.js";
import { rankingReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset, evalTarget, knownDocIds } from "../helpers/eval-index.js";
import { RESULT_DEPTH, retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { rankAhead } from "../helpers/rank-ahead.js";
import { mrr, ndcgAtK, recallAtK } from "../scorers/retrieval.js";

rankAhead(["search"], () => judgedCases(evalDataset().cases));

defineEval({ modes: ["search"], data: rankingReason(evalDataset()) })("Search (BM25)", {
  data: () => judgedCases(evalDataset().cases).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => runRetrieval(await evalTarget(), "search", input, knownDocIds, { cutoff: 5 }),
  scorers: [recallAtK(5), recallAtK(10), ndcgAtK(10), mrr({ k: RESULT_DEPTH })],
  columns: retrievalColumns,
});
