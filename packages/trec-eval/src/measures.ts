/**
 * The per-query measure functions, `(judged, params) => number`, one family per file (see each
 * file's header for the formula, the tie rule and the policies). Averaging over queries is the
 * caller's (or `trecEval`'s) business.
 */
export { averagePrecision } from "./average-precision.js";
export { dcgAtCutoffs, gainFunction, type Gain } from "./ndcg-cut.js";
export { precision } from "./precision.js";
export { recall } from "./recall.js";
export { recipRank, recipRankCut } from "./recip-rank.js";
export { relevantAtCutoffs } from "./relevant-at-cutoffs.js";
