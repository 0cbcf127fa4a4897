export { readCorpusJsonl, readQueriesJsonl, readJsonlObjects } from "./jsonl.js";
export type { CorpusRecord, QueryRecord, JsonlLine } from "./jsonl.js";
export { formatTrecRun } from "./trec-run.js";
export type { RankedDoc } from "./trec-run.js";
export { decodeUtf8File } from "./text-file.js";
export { parseInstant } from "../ingest/validity.js";
