/**
 * A corpus as the contract's documents (`PUT /documents`), read by the engine's own readers: ids
 * are exactly the ids `engine index` gives (a file's path relative to the folder, a record's
 * `_id`), and a target that indexes them as `engine serve` does ranks them as the engine ranks the
 * files. What the suite seeds a target with (helpers/targets/seed.ts).
 */
import type { Document, DocumentIds } from "@hybrid-search/target-contract/types";
import { documentsFromSource } from "../ingest/documents.js";
import { readSource } from "../ingest/source.js";

/** A `DocumentsRequest` without its collection: what seeding a target with a corpus sends. */
export interface ContractDocuments {
  ids: DocumentIds;
  documents: Document[];
}

/**
 * A folder of Markdown/text files or a JSONL corpus as the contract's documents. Throws
 * EngineError (one line naming the file) as `index` does.
 */
export function readContractDocuments(location: string): ContractDocuments {
  return documentsFromSource(readSource(location));
}
