/**
 * The target contract (`packages/engine/contract/target.schema.json`, draft-07): the messages a
 * search or question-answering service exchanges with the eval suite over HTTP (docs/targets.md).
 * One schema, checked with AJV on both sides: `engine serve` checks requests, the suite's HTTP
 * target checks responses. Loaded on first use.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { createAjv } from "../ajv.js";
import { documentsFromSource } from "../ingest/documents.js";
import { readSource } from "../ingest/source.js";
import type { DocumentIds, DocumentInput } from "../types.js";

/** Where the contract lives: its one home, which docs/targets.md links to. */
export const CONTRACT_SCHEMA_PATH = fileURLToPath(new URL("../../contract/target.schema.json", import.meta.url));

export type ContractMessage =
  | "SearchRequest"
  | "SearchResponse"
  | "AskRequest"
  | "AskResponse"
  | "ExpandRequest"
  | "ExpandResponse"
  | "HealthResponse"
  | "DocumentsRequest"
  | "DocumentsResponse"
  | "ErrorResponse";

/** The ranking modes of the contract, in the schema's order. */
export const CONTRACT_MODES = ["search", "vsearch", "fast", "balanced", "thorough"] as const;
export type ContractMode = (typeof CONTRACT_MODES)[number];

/** The largest `PUT /documents` body a target is assumed to take when its /health names no `limits.documentsBytes`: 64 MiB. */
export const DEFAULT_DOCUMENTS_BYTES = 64 * 2 ** 20;

/** A `DocumentsRequest` without its collection: what seeding a target with a corpus sends. */
export interface ContractDocuments {
  ids: DocumentIds;
  documents: DocumentInput[];
}

/**
 * A folder of Markdown/text files or a JSONL corpus as the contract's documents, read by the
 * engine's own readers: ids are exactly the ids `engine index` gives (a file's path relative to the
 * folder, a record's `_id`), and a target that indexes them as `engine serve` does ranks them as
 * the engine ranks the files. Throws EngineError (one line naming the file) as `index` does.
 */
export function readContractDocuments(location: string): ContractDocuments {
  return documentsFromSource(readSource(location));
}

let loaded: { ajv: Ajv; id: string; validators: Map<ContractMessage, ValidateFunction> } | undefined;

function contract(): NonNullable<typeof loaded> {
  if (!loaded) {
    const schema = JSON.parse(readFileSync(CONTRACT_SCHEMA_PATH, "utf8")) as { $id: string };
    loaded = {
      ajv: createAjv({ allErrors: true, strict: true, allowUnionTypes: true }).addSchema(schema),
      id: schema.$id,
      validators: new Map(),
    };
  }
  return loaded;
}

/** AJV's first errors in plain words, one per problem: `/limit must be <= 10000`. */
function describe(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => {
    const where = e.instancePath || "(the body)";
    if (e.keyword === "additionalProperties")
      return `${where}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    if (e.keyword === "required") return `${where}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
    if (e.keyword === "enum") return `${where}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`;
    return `${where}: ${e.message}`;
  });
}

/** Problems of `value` as the contract's `message`, in plain words; empty when it fits. */
export function contractProblems(message: ContractMessage, value: unknown): string[] {
  const c = contract();
  let validate = c.validators.get(message);
  if (!validate) {
    validate = c.ajv.compile({ $ref: `${c.id}#/definitions/${message}` });
    c.validators.set(message, validate);
  }
  return validate(value) ? [] : describe(validate.errors ?? []);
}
