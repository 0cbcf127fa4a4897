// Vector ranking (`engine.vsearch`) with the configured embedder (offline: hashed character
// n-grams, which capture spelling similarity, not meaning).
import { judgedCases } from "../helpers/dataset.js";
import { rankingReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset, evalTarget, knownDocIds } from "../helpers/eval-index.js";
import { RESULT_DEPTH, retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { rankAhead } from "../helpers/rank-ahead.js";
import { mrr, ndcgAtK, recallAtK } from "../scorers/retrieval.js";

rankAhead(["vsearch"], () => judgedCases(evalDataset().cases));

defineEval({ modes: ["vsearch"], data: rankingReason(evalDataset()) })("Vector search", {
  data: () => judgedCases(evalDataset().cases).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => runRetrieval(await evalTarget(), "vsearch", input, knownDocIds, { cutoff: 5 }),
  scorers: [recallAtK(5), recallAtK(10), ndcgAtK(10), mrr({ k: RESULT_DEPTH })],
  columns: retrievalColumns,
});
