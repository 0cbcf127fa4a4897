/**
 * File formats of the metric engine: TREC qrels and runs, BEIR dataset folders. The TREC run
 * WRITER is the engine's `formatTrecRun` (re-exported here so there is exactly one).
 */
export { readTrecQrels, type Qrels, type QrelsTopic, type QrelsReadOptions } from "./trec-qrels.js";
export { readTrecRun, type RunTopic, type RunReadOptions, type RunSummary } from "./trec-run.js";
export { readBeirDataset, readBeirQrels, type BeirDataset, type BeirReadOptions } from "./beir.js";
export { FormatError } from "./format-error.js";
export { formatTrecRun } from "@hybrid-search/engine/formats";
