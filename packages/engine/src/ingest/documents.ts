/**
 * Documents as data: what `Engine.indexDocuments` and the target contract's `PUT /documents` take,
 * and what a source read from files becomes when it is sent that way. The two directions are
 * inverse: a folder or JSONL corpus read here (`documentsFromSource`) and indexed back
 * (`sourceFromDocuments`) gives the same passages, terms and vectors as indexing the files, so a
 * corpus seeded into `engine serve` ranks exactly as the same corpus indexed in-process.
 */
import { createHash } from "node:crypto";
import { EngineError } from "../errors.js";
import { detectLanguage } from "../text/language.js";
import type { DocumentIds, Document } from "../types.js";
import { idProblem, languageTagProblem } from "./input-rules.js";
import type { Source, SourceDocument } from "./source.js";
import { checkSupersessions, readValidity } from "./validity.js";

/** What a document is sent as: each field the engine's readers found, none left to be guessed again. */
export function documentsFromSource(source: Source): { ids: DocumentIds; documents: Document[] } {
  return {
    ids: source.kind === "folder" ? "paths" : "keys",
    documents: source.documents.map((d) => ({
      id: d.path,
      title: d.title,
      text: d.body,
      // Null, not absent: a document whose language the reader could not tell must not be detected
      // again from other text (the folder reader looks at the body only).
      language: d.language,
      format: d.markdown ? "markdown" : "text",
      ...(d.validity?.validFrom ? { validFrom: d.validity.validFrom } : {}),
      ...(d.validity?.validUntil ? { validUntil: d.validity.validUntil } : {}),
      ...(d.validity && d.validity.supersedes.length > 0 ? { supersedes: d.validity.supersedes } : {}),
    })),
  };
}

function malformed(where: string, problem: string): EngineError {
  return new EngineError("MALFORMED_RECORD", `${where}: ${problem}`);
}

function optionalString(doc: Record<string, unknown>, field: string, where: string): string | undefined {
  const value = doc[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw malformed(where, `"${field}" must be a string`);
  return value;
}

/**
 * A source of the given documents, checked as the file readers check theirs (ids unique and
 * non-empty, validity dates and supersessions); `location` names it in reports and errors.
 */
export function sourceFromDocuments(documents: readonly Document[], ids: DocumentIds, location: string): Source {
  if (!Array.isArray(documents)) throw new TypeError(`Expected the documents to be an array`);
  const seen = new Map<string, number>();
  const read = documents.map((input, i): SourceDocument => {
    const where = `${location}[${i}]`;
    if (input === null || typeof input !== "object" || Array.isArray(input)) throw malformed(where, "expected an object");
    const doc = input as unknown as Record<string, unknown>;
    const id = doc.id;
    if (typeof id !== "string" || id.trim() === "") throw malformed(where, `missing "id" (a non-empty string)`);
    const badId = idProblem(id);
    if (badId !== null) throw malformed(where, `"id" ${badId}`);
    const first = seen.get(id);
    if (first !== undefined) throw malformed(where, `id ${JSON.stringify(id)} repeats ${location}[${first}]`);
    seen.set(id, i);
    if (typeof doc.text !== "string") throw malformed(where, `missing "text" (a string)`);
    const text = doc.text;
    const title = optionalString(doc, "title", where) ?? "";
    const format = doc.format ?? "text";
    if (format !== "markdown" && format !== "text") throw malformed(where, `"format" must be "markdown" or "text"`);
    if (doc.language !== undefined && doc.language !== null && typeof doc.language !== "string")
      throw malformed(where, `"language" must be a string or null`);
    const badLanguage = typeof doc.language === "string" ? languageTagProblem(doc.language) : null;
    if (badLanguage !== null) throw malformed(where, `"language" ${badLanguage}`);
    const given = doc.language === null ? null : (doc.language as string | undefined)?.toLowerCase();
    const detected = given === undefined ? detectLanguage(`${title}\n${text}`) : undefined;
    const at = `${where} ${JSON.stringify(id)}`;
    const field = (name: string) => (doc[name] === undefined ? undefined : { value: doc[name], at });
    const validity = readValidity(
      id,
      { validFrom: field("validFrom"), validUntil: field("validUntil"), supersedes: field("supersedes") },
      at,
    );
    const language = given ?? detected ?? null;
    return {
      path: id,
      title,
      language,
      languageSource: typeof given === "string" ? "record" : detected ? "detected" : "unknown",
      body: text,
      markdown: format === "markdown",
      contentHash: createHash("sha256")
        // The id kind too: a document re-sent with path ids must get its path terms (never "unchanged").
        .update(JSON.stringify([title, text, language, format, ids, ...(validity ? [{ ...validity, at: undefined }] : [])]))
        .digest("hex"),
      ...(validity ? { validity } : {}),
    };
  });
  checkSupersessions(read);
  return { kind: ids === "paths" ? "folder" : "jsonl", location, defaultCollection: "", documents: read, skippedFiles: [] };
}
