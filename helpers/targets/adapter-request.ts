/**
 * An adapter's requests: its templates filled from the fields of the contract's request
 * (`{{query}}`, `{{limit}}`, `{{document.id}}`) and its environment variables (`{{env.NAME}}`), as
 * the HTTP client sends them.
 */
import type { AdapterRequest } from "@hybrid-search/target-contract/adapter";
import { TEMPLATE_VARIABLE } from "@hybrid-search/target-contract/adapter";
import type { Document } from "@hybrid-search/target-contract/types";
import type { LoadedAdapter } from "./adapter-file.js";
import type { HttpRequest } from "./http-client.js";
import { TargetError } from "./target.js";

/** What a template may read: the contract request's fields, and the adapter's environment variables. */
type Fields = Record<string, unknown>;

/** The value `{{name}}` stands for, or undefined when the request has no such field. */
function lookup(name: string, fields: Fields, env: Record<string, string>): unknown {
  const variable = /^env\.(.*)$/.exec(name)?.[1];
  if (variable !== undefined) return env[variable];
  let value: unknown = fields;
  for (const part of name.split(".")) value = typeof value === "object" && value !== null ? (value as Fields)[part] : undefined;
  return value;
}

const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;

/**
 * A template filled in. A string that is only `{{field}}` becomes the field's value with its JSON
 * type (a number stays a number), and a member or item whose field is absent is left out; a field
 * inside a longer string is its text (`encode`d: a path's values are percent-encoded), and an
 * absent one there is an error naming where.
 */
function fillTemplate(template: unknown, fields: Fields, env: Record<string, string>, at: string, encode = (s: string) => s): unknown {
  if (typeof template === "string") {
    const whole = WHOLE.exec(template);
    if (whole) {
      const value = lookup(whole[1]!, fields, env);
      return typeof value === "string" ? encode(value) : value;
    }
    return template.replace(TEMPLATE_VARIABLE, (_, name: string) => {
      const value = lookup(name, fields, env);
      if (value === undefined)
        throw new TargetError("adapter", `the adapter's ${at} puts {{${name}}} into a text, and this call has no ${name}`);
      return encode(typeof value === "string" ? value : JSON.stringify(value));
    });
  }
  if (Array.isArray(template))
    return template.map((item, i) => fillTemplate(item, fields, env, `${at}/${i}`, encode)).filter((item) => item !== undefined);
  if (typeof template === "object" && template !== null) {
    const out: Fields = {};
    for (const [key, item] of Object.entries(template)) {
      const value = fillTemplate(item, fields, env, `${at}/${key}`, encode);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  return template;
}

/** An adapter's request for `fields`, as the client sends it. */
export function adapterRequest(
  request: AdapterRequest,
  fields: Fields,
  loaded: Pick<LoadedAdapter, "adapter" | "env">,
  at: string,
): HttpRequest {
  const { env } = loaded;
  const path = fillTemplate(request.path, fields, env, `${at}/path`, encodeURIComponent) as string;
  const query = new URLSearchParams();
  for (const [key, template] of Object.entries(request.query ?? {})) {
    const value = fillTemplate(template, fields, env, `${at}/query/${key}`);
    if (value !== undefined) query.append(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  const headers: Record<string, string> = {};
  for (const [key, template] of Object.entries({ ...loaded.adapter.headers, ...request.headers })) {
    const value = fillTemplate(template, fields, env, `${at}/headers/${key}`);
    if (value !== undefined) headers[key.toLowerCase()] = typeof value === "string" ? value : JSON.stringify(value);
  }
  let body: string | undefined;
  if (request.json !== undefined) body = JSON.stringify(fillTemplate(request.json, fields, env, `${at}/json`));
  else if (request.form !== undefined) {
    const form = new URLSearchParams();
    for (const [key, template] of Object.entries(request.form)) {
      const value = fillTemplate(template, fields, env, `${at}/form/${key}`);
      if (value !== undefined) form.append(key, typeof value === "string" ? value : JSON.stringify(value));
    }
    body = form.toString();
    headers["content-type"] ??= "application/x-www-form-urlencoded";
  }
  const search = query.toString();
  return { method: request.method, path: `${path}${search ? `?${search}` : ""}`, headers, ...(body === undefined ? {} : { body }) };
}

/**
 * The requests that seed `documents` into `collection`: one per document (`each`), or one for all,
 * each document shaped by the adapter's `document` template when it has one.
 */
export function adapterSeedRequests(
  loaded: Pick<LoadedAdapter, "adapter" | "env">,
  collection: string,
  documents: readonly Document[],
  ids: string | undefined,
): HttpRequest[] {
  const seed = loaded.adapter.documents!.seed;
  const at = "/documents/seed/request";
  if (seed.each) return documents.map((document) => adapterRequest(seed.request, { collection, ids, document }, loaded, at));
  const shaped =
    seed.document === undefined
      ? documents
      : documents.map((document, i) => fillTemplate(seed.document, { document }, loaded.env, `/documents/seed/document (document ${i})`));
  return [adapterRequest(seed.request, { collection, ids, documents: shaped }, loaded, at)];
}
