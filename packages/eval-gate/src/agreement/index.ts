/**
 * How far a judge agrees with people, one statistic per file, each with its formula and
 * conventions in its header (as trec_eval keeps a measure per file): percent agreement, Cohen's κ,
 * quadratic-weighted κ, Spearman's ρ, AUC, the confusion matrix at a pass mark and the
 * best-agreeing pass mark. Bootstrap intervals over cases: `bootstrapCI` in ../stats.ts. Every function is pure;
 * an undefined statistic is NaN (or null), never a made-up 0 or 1.
 */
export { auc } from "./auc.js";
export { bestPassMark, type PassMarkFit } from "./best-pass-mark.js";
export { cohenKappa } from "./cohen-kappa.js";
export { type ConfusionMatrix, confusionMatrix } from "./confusion.js";
export { percentAgreement } from "./percent-agreement.js";
export { midRanks, spearmanRho } from "./spearman.js";
export { weightedKappa } from "./weighted-kappa.js";
