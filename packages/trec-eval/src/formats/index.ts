/**
 * File formats of the metric engine: TREC qrels and runs, BEIR dataset folders. Readers only:
 * whatever wrote a run (the engine's `formatTrecRun`, another system) is what is measured.
 */
export { readTrecQrels, type Qrels, type QrelsTopic, type QrelsReadOptions } from "./trec-qrels.js";
export { readTrecRun, type RunTopic, type RunReadOptions, type RunSummary } from "./trec-run.js";
export { readBeirDataset, readBeirQrels, splitNameProblem, type BeirDataset, type BeirReadOptions } from "./beir.js";
export { FormatError } from "./format-error.js";
export { otherUnicodeEncoding } from "./utf8-text.js";
export { MAX_GRADE, gradeValueProblem, parseGrade } from "./grade.js";
