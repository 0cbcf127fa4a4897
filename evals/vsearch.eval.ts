// Vector ranking (`engine.vsearch`) with the configured embedder (offline: hashed character
// n-grams, which capture spelling similarity, not meaning).
import { evalite } from "evalite";
import { judgedCases, loadDataset } from "../helpers/dataset.js";
import { evalIndex } from "../helpers/eval-index.js";
import { RESULT_DEPTH, retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { mrr, ndcgAtK, recallAtK } from "../scorers/retrieval.js";

evalite("Vector search", {
  data: () => judgedCases(loadDataset().cases).map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => {
    const { engine, fingerprint } = await evalIndex();
    return runRetrieval(engine, "vsearch", input, fingerprint.corpusHash.slice(0, 12));
  },
  scorers: [recallAtK(5), recallAtK(10), ndcgAtK(10), mrr({ k: RESULT_DEPTH })],
  columns: retrievalColumns,
});
