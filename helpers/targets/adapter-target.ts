/**
 * A service that does not speak the target contract, called as an adapter file describes it
 * (`EVAL_TARGET=<base URL>` with `EVAL_TARGET_ADAPTER=./adapter.json`; its schema is
 * `@hybrid-search/target-contract/schemas/adapter.schema.json`, docs/targets.md explains it).
 *
 * Per capability the adapter gives the request — method, path, query, headers and a JSON or form
 * body, each a template over the fields of the contract's request (`{{query}}`, `{{limit}}`) and
 * environment variables (`{{env.ES_API_KEY}}`: secrets, never in the file) — and where each field
 * of the contract's response is in the service's response: a JSON Pointer into its JSON body, a
 * header (split at a delimiter), its whole text body, or its server-sent events concatenated. What
 * the mapping finds is checked as the contract's message, like any target's response. The client
 * is the contract's (http-target.ts): the same concurrency, timeouts, retries, timing and
 * redaction; every environment variable the adapter names is redacted like the token and cookie.
 *
 * No code runs from an adapter file: what needs code belongs in a target module.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AskResult, ExpansionResult } from "@hybrid-search/engine";
import { ConfigError } from "@hybrid-search/eval-gate";
import {
  type Adapter,
  type AdapterList,
  type AdapterRequest,
  type AdapterValue,
  adapterProblems,
  ENV_NAME,
  TEMPLATE_VARIABLE,
  templateStrings,
} from "@hybrid-search/target-contract/adapter";
import type { ContractMessage } from "@hybrid-search/target-contract";
import type { AskResponse, Document, Fingerprint, HealthResponse, Mode, SearchResponse } from "@hybrid-search/target-contract/types";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import { jsonSyntaxProblem } from "../fixtures/json-syntax.js";
import { loadRefusalMarkers } from "../fixtures/refusal-markers.js";
import { refusalMarkerIn } from "../../scorers/refusal.js";
import { contractRanking, toAskResult, wireInstant } from "./ask-result.js";
import {
  HttpClient,
  type HttpRequest,
  type HttpTarget,
  type HttpTargetConfig,
  type RawResponse,
  serverTiming,
  statusChecked,
} from "./http-target.js";
import { TargetError, type TargetRanking, targetLabel } from "./target.js";

/** An adapter file, checked, with the values of the environment variables it names. */
export interface LoadedAdapter {
  /** The path as EVAL_TARGET_ADAPTER gave it. */
  given: string;
  adapter: Adapter;
  /** Each environment variable the adapter names, and its value: secrets, redacted everywhere. */
  env: Record<string, string>;
}

/**
 * Reads and checks the adapter file `given` names: not JSON, a field the schema does not know, a
 * template naming what its request does not have, or an environment variable that is not set is a
 * ConfigError naming the file and the JSON Pointer of the problem (one line, exit 2).
 */
export function loadAdapter(given: string, env: NodeJS.ProcessEnv = process.env): LoadedAdapter {
  const where = `EVAL_TARGET_ADAPTER ${given}`;
  let text: string;
  try {
    text = readFileSync(resolve(given), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`${where}: ${code === "ENOENT" ? "no such file" : `cannot be read (${code ?? (error as Error).message})`}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${where}: ${jsonSyntaxProblem(text)}`);
  }
  const problems = adapterProblems(value);
  if (problems.length > 0)
    throw new ConfigError(`${where}: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : ""}`);
  const adapter = value as Adapter;
  const values: Record<string, string> = {};
  for (const { at, text: template } of templateStrings(adapter, "")) {
    for (const [, name] of template.matchAll(TEMPLATE_VARIABLE)) {
      const variable = /^env\.(.*)$/.exec(name!)?.[1];
      if (variable === undefined || !ENV_NAME.test(variable)) continue;
      const set = env[variable];
      if (set === undefined || set === "")
        throw new ConfigError(`${where}: ${at}: {{env.${variable}}} names the environment variable ${variable}, which is not set`);
      values[variable] = set;
    }
  }
  return { given, adapter, env: values };
}

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

/** RFC 6901: the value at `pointer` in `document`, or undefined when there is none. */
export function atPointer(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let value = document;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) value = /^(0|[1-9]\d*)$/.test(key) ? value[Number(key)] : undefined;
    else if (typeof value === "object" && value !== null && Object.hasOwn(value, key)) value = (value as Fields)[key];
    else return undefined;
  }
  return value;
}

/** A response being mapped: its raw parts, its JSON body parsed once when a pointer needs it. */
class Mapped {
  private json: { value: unknown } | undefined;
  constructor(
    readonly response: RawResponse,
    /** Where the mapping is in the adapter, for messages: `/search/search/response`. */
    readonly at: string,
  ) {}

  body(field: string): unknown {
    if (!this.json) {
      try {
        this.json = { value: JSON.parse(this.response.text) };
      } catch {
        throw new TargetError(
          "adapter",
          `the response is not JSON (${this.response.text.length} bytes), and the adapter's ${this.at}/${field} reads it by pointer`,
        );
      }
    }
    return this.json.value;
  }

  /** The value `value` maps, or undefined when it is optional and absent; an error naming the mapping when required and absent. */
  value(field: string, value: AdapterValue, required: boolean): unknown {
    const where = `${this.at}/${field}`;
    if ("header" in value) {
      const header = this.response.headers[value.header.toLowerCase()];
      if (header === undefined) {
        if (!required) return undefined;
        throw new TargetError("adapter", `the response has no ${value.header} header, which the adapter's ${where} reads`);
      }
      return value.delimiter === undefined
        ? header
        : header
            .split(value.delimiter)
            .map((s) => s.trim())
            .filter((s) => s !== "");
    }
    if ("body" in value) return value.body === "text" ? this.response.text : sse(this.response.text, value.pointer, where);
    const found = atPointer(this.body(field), value.pointer);
    if (found === undefined && required)
      throw new TargetError("adapter", `the adapter's ${where} (pointer ${JSON.stringify(value.pointer)}) found nothing in the response`);
    return found;
  }

  /** A list: its items' fields by pointer, or document ids from a value (a header's list, an array of strings). */
  list(field: string, list: AdapterList, required: boolean): Array<Record<string, unknown>> | undefined {
    const where = `${this.at}/${field}`;
    if (!("list" in list)) {
      const found = this.value(field, list, required);
      if (found === undefined) return undefined;
      const ids = Array.isArray(found) ? found : [found];
      return ids.map((docId, i) => {
        if (typeof docId !== "string" && typeof docId !== "number")
          throw new TargetError("adapter", `the adapter's ${where} found a list whose item ${i} is not a document id`);
        return { docId: String(docId) };
      });
    }
    const items = atPointer(this.body(`${field}/list`), list.list);
    if (items === undefined) {
      if (!required) return undefined;
      throw new TargetError("adapter", `the adapter's ${where}/list (pointer ${JSON.stringify(list.list)}) found nothing in the response`);
    }
    if (!Array.isArray(items))
      throw new TargetError("adapter", `the adapter's ${where}/list (pointer ${JSON.stringify(list.list)}) found no list`);
    const { list: _list, ...fields } = list;
    return items.map((item, i) => {
      const out: Record<string, unknown> = {};
      for (const [name, pointer] of Object.entries(fields) as Array<[string, string]>) {
        let value = atPointer(item, pointer);
        if (value === undefined) {
          if (name === "docId")
            throw new TargetError(
              "adapter",
              `the adapter's ${where}/docId (pointer ${JSON.stringify(pointer)}) found nothing in item ${i} of the list`,
            );
          continue;
        }
        if (name === "docId" && typeof value === "number") value = String(value);
        if ((name === "score" || name === "ref") && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
          value = Number(value);
        out[name] = value;
      }
      return out;
    });
  }
}

/** Server-sent events' data, concatenated: each event's data as text, or the string at `pointer` of each JSON data (`[DONE]` ends). */
function sse(text: string, pointer: string | undefined, where: string): string {
  let out = "";
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""))
      .join("\n");
    if (data === "" || data === "[DONE]") continue;
    if (pointer === undefined) {
      out += data;
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw new TargetError("adapter", `an event's data is not JSON, and the adapter's ${where} reads it by pointer`);
    }
    const piece = atPointer(parsed, pointer);
    if (typeof piece === "string") out += piece;
  }
  return out;
}

/** A number from a mapped value (a number, or a string holding one), else undefined. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** A mapped value as the contract's message, or the TargetError saying why it is not. */
function checked<T>(message: ContractMessage, value: unknown): T {
  const problems = contractProblems(message, value);
  if (problems.length > 0) throw new TargetError("schema", `the mapped response is not a ${message}: ${problems.slice(0, 3).join("; ")}`);
  return value as T;
}

/** The trace a mapping names, when it does. */
function traceOf(mapped: Mapped, value: AdapterValue | undefined): unknown {
  return value ? mapped.value("trace", value, false) : undefined;
}

/** The contract's `SearchResponse` that a search mapping finds in `response`. */
export function mapSearch(response: RawResponse, adapter: Adapter, mode: Mode): { body: SearchResponse; serverMs: number | null } {
  statusChecked(response);
  const mapping = adapter.search![mode]!.response;
  const mapped = new Mapped(response, `/search/${mode}/response`);
  const items = mapped.list("results", mapping.results, true)!;
  const results = items.map(({ docId, score, passageId, snippet, title }, i) => ({
    docId,
    // Without a score mapping, results score by their rank: the order given is the ranking.
    score: "list" in mapping.results && mapping.results.score !== undefined ? score : items.length - i,
    ...(passageId === undefined ? {} : { passageId }),
    ...(snippet === undefined ? {} : { snippet }),
    ...(title === undefined ? {} : { title }),
  }));
  const elapsed = mapping.elapsedMs ? numberOf(mapped.value("elapsedMs", mapping.elapsedMs, true)) : undefined;
  const trace = traceOf(mapped, mapping.trace);
  const body = checked<SearchResponse>("SearchResponse", {
    results,
    ...(elapsed === undefined ? {} : { elapsedMs: elapsed }),
    ...(trace === undefined ? {} : { trace }),
  });
  return { body, serverMs: body.elapsedMs ?? serverTiming(response.serverTiming) };
}

/**
 * The contract's `AskResponse` that the ask mapping finds in `response`. Without a `refused`
 * mapping the answer is free text: whether it refused is for the dataset's refusal markers to say
 * (`textAnswer`), as the suite reads any free-text answer.
 */
export function mapAsk(response: RawResponse, adapter: Adapter): { body: AskResponse; textAnswer: boolean; serverMs: number | null } {
  statusChecked(response);
  const mapping = adapter.ask!.response;
  const mapped = new Mapped(response, "/ask/response");
  const answer = mapped.value("answer", mapping.answer, true);
  const refs = (items: Array<Record<string, unknown>> | undefined): Array<Record<string, unknown>> =>
    (items ?? []).map((item, i) => ({ ...item, ref: item.ref ?? i + 1 }));
  // What the adapter maps must be there: a missing header or member is the service's failure, never "no citations".
  const citations = refs(mapping.citations ? mapped.list("citations", mapping.citations, true) : []).map(({ ref, docId, passageId }) => ({
    ref,
    docId,
    ...(passageId === undefined ? {} : { passageId }),
  }));
  const sources = refs(mapping.sources ? mapped.list("sources", mapping.sources, true) : []);
  let refused: unknown = false;
  if (mapping.refused) {
    refused = mapped.value("refused", mapping.refused, true);
    if (refused === "true" || refused === "false") refused = refused === "true";
  }
  const elapsed = mapping.elapsedMs ? numberOf(mapped.value("elapsedMs", mapping.elapsedMs, true)) : undefined;
  const trace = traceOf(mapped, mapping.trace);
  const body = checked<AskResponse>("AskResponse", {
    answer,
    citations,
    refused,
    sources: sources.map(({ snippet: _snippet, ...s }) => s),
    ...(elapsed === undefined ? {} : { elapsedMs: elapsed }),
    ...(trace === undefined ? {} : { trace }),
  });
  return { body, textAnswer: mapping.refused === undefined, serverMs: body.elapsedMs ?? serverTiming(response.serverTiming) };
}

/** The capabilities an adapter describes, as a `/health` would say them. */
function capabilitiesOf(adapter: Adapter): HealthResponse["capabilities"] {
  const modes = (["search", "vsearch", "fast", "balanced", "thorough"] as const).filter((m) => adapter.search?.[m]);
  return {
    modes,
    ask: adapter.ask !== undefined,
    expand: adapter.expand !== undefined,
    documents: adapter.documents !== undefined,
    trace: Object.values(adapter.search ?? {}).some((s) => s?.response.trace !== undefined) || adapter.ask?.response.trace !== undefined,
  };
}

/** What a run's fingerprint says when the adapter reads none. */
const NO_FINGERPRINT = "not reported (the adapter reads no fingerprint)";

/**
 * An adapter's target: its health request first (when it has one; a failure is a ConfigError that
 * stops the run), then every call as the adapter describes it. The result has the HTTP target's
 * shape, so seeding (EVAL_TARGET_SEED) works on it as on any service.
 */
export async function openAdapterTarget(config: HttpTargetConfig, loaded: LoadedAdapter): Promise<HttpTarget> {
  const { adapter } = loaded;
  const client = new HttpClient(config, Object.values(loaded.env));
  const name = config.name ?? adapter.name;
  const label = targetLabel({ kind: "http", name });
  const send = <T>(request: HttpRequest, read: (response: RawResponse, clientMs: number) => T, timeoutMs?: number) =>
    client.send(request, (response, clientMs) => read(response, clientMs), timeoutMs);
  const fill = (request: AdapterRequest, fields: Fields, at: string): HttpRequest => {
    try {
      return adapterRequest(request, fields, loaded, at);
    } catch (error) {
      if (error instanceof TargetError)
        throw new TargetError(error.reason, client.redact(`${request.method} ${request.path}: ${error.message}`));
      throw error;
    }
  };

  const readFingerprint = async (): Promise<Fingerprint> => {
    if (!adapter.health) return adapter.fingerprint ?? NO_FINGERPRINT;
    const request = fill(adapter.health.request, config.seed ? { collection: config.seed.collection } : {}, "/health/request");
    return send(request, (response) => {
      statusChecked(response);
      if (!adapter.health?.fingerprint) return adapter.fingerprint ?? "not reported (the adapter's health request reads no fingerprint)";
      const found = new Mapped(response, "/health").value("fingerprint", adapter.health.fingerprint, true);
      return typeof found === "string" && found !== "" ? found : JSON.stringify(found);
    });
  };
  let fingerprint: Fingerprint;
  try {
    fingerprint = await readFingerprint();
  } catch (error) {
    if (error instanceof TargetError) throw new ConfigError(`EVAL_TARGET ${config.url} (adapter ${loaded.given}): ${error.message}`);
    throw error;
  }
  const health: HealthResponse = { name, version: adapter.version ?? "", fingerprint, capabilities: capabilitiesOf(adapter) };
  const scope = config.seed ? { collection: config.seed.collection } : {};
  const seedTimeout = config.seed?.timeoutMs ?? config.timeoutMs;
  let markers: ReturnType<typeof loadRefusalMarkers> | undefined;

  const seedRequests = (collection: string, documents: Document[], ids: string | undefined): HttpRequest[] => {
    try {
      return adapterSeedRequests(loaded, collection, documents, ids);
    } catch (error) {
      if (error instanceof TargetError) throw new TargetError(error.reason, client.redact(`seeding: ${error.message}`));
      throw error;
    }
  };
  const deleteRequest = (collection: string): HttpRequest => {
    const remove = adapter.documents?.delete;
    if (!remove) throw new TargetError("unsupported", `the adapter ${loaded.given} has no documents.delete request`);
    return fill(remove.request, { collection }, "/documents/delete/request");
  };

  return {
    name,
    kind: "http",
    health,
    origin: new URL(config.url).origin,
    capabilities: health.capabilities,
    noDocuments: `the adapter ${loaded.given} has no documents.seed request`,
    ...(adapter.documents && !adapter.documents.delete
      ? { cannotDelete: `the adapter ${loaded.given} has no documents.delete request` }
      : {}),
    ...(adapter.documents?.delete
      ? {
          removal: (collection: string) => {
            const request = deleteRequest(collection);
            return client.redact(`${request.method} ${config.url}${request.path}`);
          },
        }
      : {}),
    async search({ id: _id, asOf, ...request }): Promise<TargetRanking> {
      const entry = adapter.search?.[request.mode];
      if (!entry) throw new TargetError("unsupported", `${label} does not serve mode ${request.mode}`);
      const fields = { ...request, ...scope, ...(asOf === undefined ? {} : { asOf: wireInstant(asOf) }) };
      const { body, serverMs, clientMs } = await send(
        fill(entry.request, fields, `/search/${request.mode}/request`),
        (response, clientMs) => ({
          ...mapSearch(response, adapter, request.mode),
          clientMs,
        }),
      );
      return contractRanking(body, { serverMs, clientMs });
    },
    async ask({ question, preset, asOf, includeSuperseded }): Promise<AskResult> {
      if (!adapter.ask) throw new TargetError("unsupported", `${label} does not answer questions`);
      const fields = {
        question,
        ...(preset ? { preset } : {}),
        ...scope,
        ...(asOf === undefined ? {} : { asOf: wireInstant(asOf) }),
        ...(includeSuperseded === undefined ? {} : { includeSuperseded }),
      };
      const { body, textAnswer, serverMs, clientMs } = await send(
        fill(adapter.ask.request, fields, "/ask/request"),
        (response, clientMs) => ({
          ...mapAsk(response, adapter),
          clientMs,
        }),
      );
      const result = toAskResult(question, body, label);
      result.elapsedMs = serverMs ?? clientMs;
      if (!textAnswer) return result;
      // Free text: refused when the dataset's refusal markers say so; the suite reads it as such (answerFormat "text").
      markers ??= loadRefusalMarkers();
      const refused = refusalMarkerIn(result.answer, markers) !== null;
      return { ...result, refused, answerFormat: "text", ...(refused ? { refusal: "model" as const } : { refusal: undefined }) };
    },
    ...(adapter.expand
      ? {
          expand: async (query: string) =>
            send(fill(adapter.expand!.request, { query }, "/expand/request"), (response) => {
              statusChecked(response);
              const mapping = adapter.expand!.response;
              const mapped = new Mapped(response, "/expand/response");
              const lists = (field: "lexicalQueries" | "vectorQueries") => {
                const found = mapped.value(field, mapping[field], true);
                return Array.isArray(found) ? found : [found];
              };
              return checked<ExpansionResult>("ExpandResponse", {
                expansion: { lexicalQueries: lists("lexicalQueries"), vectorQueries: lists("vectorQueries") },
                expander: label,
              });
            }),
        }
      : {}),
    readHealth: async () => ({ ...health, fingerprint: await readFingerprint() }),
    async putDocuments(collection, corpus) {
      if (!adapter.documents) throw new TargetError("unsupported", `the adapter ${loaded.given} has no documents.seed request`);
      const requests = seedRequests(collection, corpus.documents, corpus.ids);
      await Promise.all(
        requests.map((request, i) =>
          send(request, statusChecked, seedTimeout).catch((error: unknown) => {
            if (!(error instanceof TargetError) || requests.length === 1) throw error;
            throw new TargetError(error.reason, `document ${corpus.documents[i]!.id}: ${error.message}`);
          }),
        ),
      );
      return { collection, documents: corpus.documents.length };
    },
    deleteDocuments(collection, options = {}) {
      const request = deleteRequest(collection);
      const read = (response: RawResponse) => {
        statusChecked(response);
        return { collection, documents: 0 };
      };
      if (options.sync) return client.sendSync(request, read, seedTimeout);
      return send(request, read, seedTimeout);
    },
  };
}
