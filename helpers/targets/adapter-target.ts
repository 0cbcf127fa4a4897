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
 * No code runs from an adapter file: what needs code belongs in a target module. The file is read
 * in adapter-file.ts, requests are filled in adapter-request.ts, responses mapped in
 * adapter-response.ts; this module opens the target.
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import type { Adapter, AdapterRequest } from "@hybrid-search/target-contract/adapter";
import type { Document, ExpandResponse, Fingerprint, HealthResponse } from "@hybrid-search/target-contract/types";
import type { LoadedAdapter } from "./adapter-file.js";
import { adapterRequest, adapterSeedRequests } from "./adapter-request.js";
import { checked, mapAsk, Mapped, mapSearch } from "./adapter-response.js";
import { mapTurn } from "./adapter-turn.js";
import { HttpClient, type HttpRequest, type HttpTargetConfig, type RawResponse, statusChecked } from "./http-client.js";
import { askRequest, type HttpTarget, searchRequest, turnRequest } from "./http-target.js";
import { TargetError, type TargetTurn } from "./target.js";

/** What a template may read: the contract request's fields. */
type Fields = Record<string, unknown>;

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
export async function openAdapterTarget(
  config: HttpTargetConfig,
  loaded: LoadedAdapter,
  labelOf: (name: string) => string,
): Promise<HttpTarget> {
  const { adapter } = loaded;
  const client = new HttpClient(config, Object.values(loaded.env));
  const name = config.name ?? adapter.name;
  const label = labelOf(name);
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
    label,
    reach: "remote",
    health,
    origin: new URL(config.url).origin,
    // Agent turns when the adapter maps a turn endpoint (its trace in the service's own shape: adapter-turn.ts);
    // an adapter maps no given sources into its requests: the given-sources lane is skipped, saying so.
    capabilities: { ...health.capabilities, turn: adapter.turn !== undefined, givenSources: false },
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
    async search(request) {
      const entry = adapter.search?.[request.mode];
      if (!entry) throw new TargetError("unsupported", `${label} does not serve mode ${request.mode}`);
      return send(fill(entry.request, searchRequest(request, scope), `/search/${request.mode}/request`), (response, clientMs) => {
        const { body, serverMs } = mapSearch(response, adapter, request.mode);
        return { message: body, clientMs, serverMs };
      });
    },
    async ask(request) {
      if (!adapter.ask) throw new TargetError("unsupported", `${label} does not answer questions`);
      // Without a `refused` mapping the answer is free text (`answerFormat: "text"`): whether it
      // refused is the suite's to recognise, with the dataset's refusal markers (scorers/refusal.ts).
      return send(fill(adapter.ask.request, { ...askRequest(request, scope) }, "/ask/request"), (response, clientMs) => {
        const { body, serverMs } = mapAsk(response, adapter);
        return { message: body, clientMs, serverMs };
      });
    },
    ...(adapter.turn
      ? {
          turn: async (request: TargetTurn) =>
            send(
              fill(
                adapter.turn!.request,
                { ...turnRequest(request, scope), ...(request.surface === undefined ? {} : { surface: request.surface }) },
                "/turn/request",
              ),
              (response, clientMs) => {
                const { body, serverMs } = mapTurn(response, adapter);
                return { message: body, clientMs, serverMs };
              },
            ),
        }
      : {}),
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
              return checked<ExpandResponse>("ExpandResponse", {
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
