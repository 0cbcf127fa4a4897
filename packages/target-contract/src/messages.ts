/**
 * The contract's messages by name, and the values its schema states in words, so that both sides
 * of a call read them from one place (schemas/target.schema.json decides; types.ts mirrors it).
 */

/** The messages of the HTTP target contract (schemas/target.schema.json), each a schema definition of that name. */
export const TARGET_MESSAGES = [
  "SearchRequest",
  "SearchResponse",
  "AskRequest",
  "AskResponse",
  "ExpandRequest",
  "ExpandResponse",
  "HealthResponse",
  "DocumentsRequest",
  "DocumentsResponse",
  "ErrorResponse",
] as const;

/** A message the contract defines: what `contractProblems` checks a value against. */
export type ContractMessage = (typeof TARGET_MESSAGES)[number];

/** The ranking modes of the contract, in the schema's order (its `Mode`). */
export const CONTRACT_MODES = ["search", "vsearch", "fast", "balanced", "thorough"] as const;

/** The largest `PUT /documents` body a target is assumed to take when its /health names no `limits.documentsBytes`: 64 MiB. */
export const DEFAULT_DOCUMENTS_BYTES = 64 * 2 ** 20;
