/**
 * A declarative HTTP adapter (schemas/adapter.schema.json): how the suite calls a service that does
 * not speak the target contract. Per capability, the request to make — a template over the
 * contract request's fields — and where each field of the contract's response is in the
 * service's response. Responses are then checked as the contract's messages, like any target's.
 * No code runs from an adapter file: what needs code belongs in a target module (define-target.ts).
 *
 * Values in a response are found with JSON Pointer (RFC 6901): one standard, no evaluation
 * semantics to learn or to get wrong, and a pointer that finds nothing can be named exactly. A
 * list is a pointer to an array plus, per item, pointers into the item.
 *
 * The types mirror the schema; the schema decides (`adapterProblems`).
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { Mode } from "./types.js";

/** A template string: `{{field}}` is a field of the contract's request, `{{env.NAME}}` an environment variable (a secret). */
export type Template = string;

export interface AdapterRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Below the base URL, from `/`; values put into it are percent-encoded. */
  path: Template;
  query?: Record<string, Template>;
  headers?: Record<string, Template>;
  /** A JSON body: any JSON value, its strings templates. */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded). */
  form?: Record<string, Template>;
}

/** Where one value of a response is. */
export type AdapterValue =
  | { pointer: string }
  | { header: string; delimiter?: string }
  | { body: "text" }
  | { body: "sse"; pointer?: string };

/** A list in the JSON body and where each field of an item is; or a list of document ids (`AdapterValue`). */
export type AdapterList =
  | {
      list: string;
      docId: string;
      score?: string;
      passageId?: string;
      snippet?: string;
      title?: string;
      ref?: string;
      text?: string;
    }
  | AdapterValue;

export interface SearchMapping {
  results: AdapterList;
  elapsedMs?: AdapterValue;
  trace?: AdapterValue;
}

export interface AskMapping {
  answer: AdapterValue;
  citations?: AdapterList;
  sources?: AdapterList;
  /** Without it, the dataset's refusal markers decide. */
  refused?: AdapterValue;
  elapsedMs?: AdapterValue;
  trace?: AdapterValue;
}

/**
 * An agent turn whose trace has the service's own shape: where the answer, the outcome, the tool
 * calls, the citations (surfaced or recalled), the proposal and the token usage are. Pointers of
 * `toolCalls` and `citations` are into each item of their list; those of `proposal` and `usage`
 * into the whole body. docs/targets.md ("An adapter", agent turns) says how each is read.
 */
export interface TurnMapping {
  answer: AdapterValue;
  /** The service's word for how the turn ended; `outcomes` translates its words into the contract's. */
  outcome: AdapterValue;
  outcomes?: Record<string, "answered" | "refused" | "stopped-at-approval" | "step-limit" | "budget-exhausted" | "error">;
  toolCalls?: {
    list: string;
    name: string;
    input?: string;
    output?: string;
    error?: string;
    needsApproval?: string;
    durationMs?: string;
    /** The step (model call) that made the call, a number; without it each call is a step of its own. */
    step?: string;
  };
  citations?: {
    list: string;
    docId: string;
    quote?: string;
    /** true / "surfaced" when the service matched it to what a tool returned; false / "recalled" otherwise. */
    surfaced: string;
  };
  proposal?: { tool: string; input?: string; summary?: string };
  usage?: { inputTokens: string; outputTokens: string; totalTokens: string };
  elapsedMs?: AdapterValue;
}

export interface Adapter {
  $schema?: string;
  name: string;
  version?: string;
  fingerprint?: string;
  headers?: Record<string, Template>;
  health?: { request: AdapterRequest; fingerprint?: AdapterValue };
  search?: Partial<Record<Mode, { request: AdapterRequest; response: SearchMapping }>>;
  ask?: { request: AdapterRequest; response: AskMapping };
  expand?: { request: AdapterRequest; response: { lexicalQueries: AdapterValue; vectorQueries: AdapterValue } };
  turn?: { request: AdapterRequest; response: TurnMapping };
  documents?: {
    seed: { each?: boolean; request: AdapterRequest; document?: unknown };
    delete?: { request: AdapterRequest };
  };
}

/** The adapter's JSON Schema (draft-07). */
export const ADAPTER_SCHEMA_FILE = fileURLToPath(new URL("../schemas/adapter.schema.json", import.meta.url));

const require = createRequire(import.meta.url);
let validate: ValidateFunction | undefined;

/**
 * What is wrong with `value` as an adapter, one problem per line, each at its JSON Pointer
 * (`/search/search/response/docid: unknown field "docid"`); empty when it is one. Ajv compiles the
 * schema on first use (only a run with an adapter needs it).
 */
export function adapterProblems(value: unknown): string[] {
  if (!validate) {
    const { Ajv } = require("ajv") as typeof import("ajv");
    validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
      JSON.parse(readFileSync(ADAPTER_SCHEMA_FILE, "utf8")),
    );
  }
  if (!validate(value)) return describe(validate.errors ?? []);
  return templateProblems(value as Adapter);
}

/** The fields of the contract's request each capability's templates may name (besides `env.NAME`). */
export const TEMPLATE_FIELDS = {
  search: ["query", "mode", "limit", "collection", "language", "traceDepth", "asOf", "includeSuperseded"],
  ask: ["question", "preset", "limit", "tier", "collection", "language", "asOf", "includeSuperseded"],
  expand: ["query"],
  turn: ["question", "surface", "tools", "preset", "maxSteps", "tokenBudget", "collection"],
  health: ["collection"],
  seedAll: ["collection", "ids", "documents"],
  seedEach: ["collection", "ids", ...documentFields()],
  seedDocument: documentFields(),
  delete: ["collection"],
  headers: [],
} as const satisfies Record<string, readonly string[]>;

function documentFields(): string[] {
  return ["id", "text", "title", "language", "format", "validFrom", "validUntil", "supersedes"].map((f) => `document.${f}`);
}

/** `{{ name }}` in a template; `name` is a field, `document.<field>` or `env.<NAME>`. */
export const TEMPLATE_VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
/** An environment variable's name as a template may name it. */
export const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/** Each template string of `value` (strings of a JSON template, at any depth), with its JSON Pointer below `at`. */
export function templateStrings(value: unknown, at: string): Array<{ at: string; text: string }> {
  if (typeof value === "string") return [{ at, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => templateStrings(v, `${at}/${i}`));
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([k, v]) => templateStrings(v, `${at}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  return [];
}

/** Names a template may not use where it is, an unclosed `{{`, a request with two bodies. */
function templateProblems(adapter: Adapter): string[] {
  const problems: string[] = [];
  const check = (value: unknown, at: string, fields: readonly string[]): void => {
    for (const { at: where, text } of templateStrings(value, at)) {
      for (const [, name] of text.matchAll(TEMPLATE_VARIABLE)) {
        const env = /^env\.(.*)$/.exec(name!);
        if (env) {
          if (!ENV_NAME.test(env[1]!))
            problems.push(`${where}: {{${name}}}: an environment variable's name is upper-case letters, digits and _`);
        } else if (!fields.includes(name!))
          problems.push(
            `${where}: {{${name}}} is not a field here (${fields.length > 0 ? `fields: ${fields.join(", ")}; ` : ""}secrets: {{env.NAME}})`,
          );
      }
      if (text.replace(TEMPLATE_VARIABLE, "").includes("{{")) problems.push(`${where}: an unclosed {{ (a field is {{name}})`);
    }
  };
  const request = (r: AdapterRequest | undefined, at: string, fields: readonly string[]): void => {
    if (!r) return;
    if (r.json !== undefined && r.form !== undefined) problems.push(`${at}: json and form are two bodies: give one`);
    const { method: _method, ...templates } = r;
    check(templates, at, fields);
  };
  check(adapter.headers ?? {}, "/headers", TEMPLATE_FIELDS.headers);
  request(adapter.health?.request, "/health/request", TEMPLATE_FIELDS.health);
  for (const [mode, entry] of Object.entries(adapter.search ?? {}))
    request(entry?.request, `/search/${mode}/request`, TEMPLATE_FIELDS.search);
  request(adapter.ask?.request, "/ask/request", TEMPLATE_FIELDS.ask);
  request(adapter.expand?.request, "/expand/request", TEMPLATE_FIELDS.expand);
  request(adapter.turn?.request, "/turn/request", TEMPLATE_FIELDS.turn);
  const seed = adapter.documents?.seed;
  if (seed) {
    request(seed.request, "/documents/seed/request", seed.each ? TEMPLATE_FIELDS.seedEach : TEMPLATE_FIELDS.seedAll);
    if (seed.document !== undefined) {
      if (seed.each)
        problems.push(
          "/documents/seed/document: shapes a document inside {{documents}}, which a request per document (each: true) does not have",
        );
      else check(seed.document, "/documents/seed/document", TEMPLATE_FIELDS.seedDocument);
    }
  }
  request(adapter.documents?.delete?.request, "/documents/delete/request", TEMPLATE_FIELDS.delete);
  return problems;
}

/**
 * Ajv's errors as one problem per place. A value that fits none of a `oneOf`'s shapes gets Ajv's
 * error for every shape: the one that says most is kept (an unknown field, then a missing one).
 */
function describe(errors: readonly ErrorObject[]): string[] {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPlace.get(e.instancePath) ?? [];
    list.push(e);
    byPlace.set(e.instancePath, list);
  }
  // A value that fits none of a oneOf's shapes has each shape's complaints at its own place (an
  // unknown field "body" from the pointer shape); a deeper problem says what is wrong more exactly.
  const places = [...byPlace.keys()].filter(
    (place) => !byPlace.get(place)!.some((e) => e.keyword === "oneOf") || ![...byPlace.keys()].some((p) => p.startsWith(`${place}/`)),
  );
  return places.map((place) => {
    const list = byPlace.get(place)!;
    const pick =
      list.find((e) => e.keyword === "additionalProperties") ??
      list.find((e) => e.keyword === "propertyNames") ??
      list.find((e) => e.keyword === "required" && list.every((o) => o.keyword !== "oneOf")) ??
      list.find((e) => e.keyword !== "oneOf" && e.keyword !== "if") ??
      list[0]!;
    return `${place || "(the file)"}: ${words(pick, list)}`;
  });
}

function words(e: ErrorObject, all: readonly ErrorObject[]): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "additionalProperties":
      return `unknown field "${p.additionalProperty}"`;
    case "propertyNames": {
      const name = all.find((o) => o.keyword === "enum")?.instancePath ?? "";
      return `unknown mode "${p.propertyName ?? name}" (modes: search, vsearch, fast, balanced, thorough)`;
    }
    case "required":
      return `missing required field "${p.missingProperty}"`;
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).join(", ")}`;
    case "not":
      return "json and form are two bodies: give one";
    case "pattern":
      if (e.instancePath.endsWith("/path")) return "must start with / (it is below the base URL)";
      if (p.pattern === "^(/.*)?$") return 'must be a JSON Pointer: "" (the whole value) or /member/0/…';
      return `must match ${p.pattern}`;
    case "const":
      return `must be ${all
        .filter((o) => o.keyword === "const")
        .map((o) => JSON.stringify((o.params as { allowedValue: unknown }).allowedValue))
        .join(" or ")}`;
    case "oneOf":
      return 'fits none of its shapes: a value is {pointer}, {header, delimiter?}, {body: "text"} or {body: "sse", pointer?}; a list also {list, docId, …}';
    default:
      return e.message ?? e.keyword;
  }
}
