// Hybrid query at the balanced tier: BM25 + vectors, fused (RRF) and reranked, within 2 s.
import { evalite } from "evalite";
import { judgedCases, loadDataset } from "../helpers/dataset.js";
import { evalIndex } from "../helpers/eval-index.js";
import { retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { latencyBudget } from "../scorers/latency.js";
import { ndcgAtK, recallAtK } from "../scorers/retrieval.js";

evalite("Hybrid query (balanced)", {
  data: () => judgedCases(loadDataset().cases).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => {
    const { engine, fingerprint } = await evalIndex();
    return runRetrieval(engine, "balanced", input, fingerprint.corpusHash.slice(0, 12));
  },
  scorers: [recallAtK(5), ndcgAtK(10), latencyBudget(2000)],
  columns: retrievalColumns,
});
