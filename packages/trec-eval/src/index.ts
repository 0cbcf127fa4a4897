/**
 * @hybrid-search/trec-eval — NIST trec_eval 10.0's measures, exact, over plain data.
 *
 *   const judged = judgedRanking({ docIds: ["d3", "d1"] }, topicQrels(new Map([["d1", 2]])));
 *   averagePrecision(judged);                       // per-query, as trec_eval's `map` per topic
 *   trecEval({ qrelsFile, runFile, measures: [] }); // the CLI's output, byte for byte
 *
 * Subpaths: `/measures` (one pure function per measure family), `/formats` (TREC qrels and runs,
 * BEIR folders), `/cli` (`pnpm trec-eval`).
 */
export { trecEval, type TrecEvalOptions } from "./trec-eval.js";
export { judgedRanking, topicQrels, compareUtf8 } from "./judged-ranking.js";
export { MEASURES } from "./registry.js";
export type { JudgedRanking, TopicQrels } from "./types.js";
