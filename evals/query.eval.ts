// Hybrid query at the balanced tier: BM25 + vectors, fused (RRF) and reranked, within 2 s.
import { judgedCases } from "../helpers/dataset.js";
import { rankingReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset, evalTarget, knownDocIds } from "../helpers/eval-index.js";
import { rankAhead } from "../helpers/rank-ahead.js";
import { retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { latencyBudget } from "../scorers/latency.js";
import { ndcgAtK, recallAtK } from "../scorers/retrieval.js";

rankAhead(["balanced"], () => judgedCases(evalDataset().cases));

defineEval({ modes: ["balanced"], data: rankingReason(evalDataset()) })("Hybrid query (balanced)", {
  data: () => judgedCases(evalDataset().cases).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => runRetrieval(await evalTarget(), "balanced", input, knownDocIds, { cutoff: 5 }),
  scorers: [recallAtK(5), ndcgAtK(10), latencyBudget(2000)],
  columns: retrievalColumns,
});
