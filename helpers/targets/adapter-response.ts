/**
 * An adapter's responses: where each field of the contract's response is in what the service
 * sent — a JSON Pointer (RFC 6901) into its JSON body, a header split at a delimiter, the whole
 * text body, or its server-sent events concatenated — found and checked as the contract's message.
 * A mapping that finds nothing is one line naming where in the adapter it is.
 */
import type { Adapter, AdapterList, AdapterValue } from "@hybrid-search/target-contract/adapter";
import type { ContractMessage } from "@hybrid-search/target-contract";
import type { AskResponse, Mode, SearchResponse } from "@hybrid-search/target-contract/types";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import { type RawResponse, serverTiming, statusChecked } from "./http-client.js";
import { TargetError } from "./target.js";

type Fields = Record<string, unknown>;

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
export class Mapped {
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
export function checked<T>(message: ContractMessage, value: unknown): T {
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
  return { body, serverMs: serverTiming(response.serverTiming) };
}

/**
 * The contract's `AskResponse` that the ask mapping finds in `response`. Without a `refused`
 * mapping the answer is free text (`answerFormat: "text"`, `refused: false`): whether it refused
 * is for the suite to recognise with the dataset's refusal markers, as it reads any free-text
 * answer (scorers/refusal.ts).
 */
export function mapAsk(response: RawResponse, adapter: Adapter): { body: AskResponse; serverMs: number | null } {
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
    ...(mapping.refused === undefined ? { answerFormat: "text" } : {}),
  });
  return { body, serverMs: serverTiming(response.serverTiming) };
}
