// The lexical regression matrix: identifiers however they are written, title over body, path over
// body, collection filters and malformed input, on the lexical lane's own index (BM25).
import { laneTarget } from "../helpers/eval-index.js";
import { defineEval } from "../helpers/define-eval.js";
import { loadLane } from "../helpers/lanes.js";
import { RESULT_DEPTH, retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { answerFirst } from "../scorers/lane.js";
import { mrr, recallAtK } from "../scorers/retrieval.js";

defineEval({ suiteIndex: true })("Lexical matrix", {
  data: () => loadLane("lexical").cases.map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input) => runRetrieval(await laneTarget("lexical"), "search", input),
  scorers: [answerFirst(), recallAtK(10), mrr({ k: RESULT_DEPTH })],
  columns: (row) => [
    { label: "Cell", value: `${row.input.category}${row.input.collection ? ` (in ${row.input.collection})` : ""}` },
    ...retrievalColumns(row),
  ],
});
