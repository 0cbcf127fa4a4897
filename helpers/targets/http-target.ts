/**
 * A service that speaks the target contract (`@hybrid-search/target-contract`, docs/targets.md):
 * `engine serve` or a team's own. `GET /health` first (a target that does not answer stops the run
 * with one line), then `POST /search`, `/ask`, `/expand`, `/turn` as its capabilities say, through
 * the contract's HTTP client (http-client.ts). Every reply is the contract's message as the
 * service sent it, checked against the contract's schema; with a seed (EVAL_TARGET_SEED) every
 * call is scoped to the seeded collection.
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import { DEFAULT_DOCUMENTS_BYTES } from "@hybrid-search/target-contract/messages";
import type { TurnResponse } from "@hybrid-search/target-contract/turn";
import type {
  AskRequest,
  AskResponse,
  DocumentsResponse,
  ExpandResponse,
  HealthResponse,
  SearchResponse,
} from "@hybrid-search/target-contract/types";
import { HttpClient, type HttpReply, type HttpTargetConfig } from "./http-client.js";
import type { SeedableTarget } from "./seed.js";
import { type Reply, type Target, type TargetAsk, TargetError, type TargetSearch, type TargetTurn, wireInstant } from "./target.js";

/** A target over HTTP: the calls every target has, and what seeding needs (helpers/targets/seed.ts). */
export type HttpTarget = Target & SeedableTarget;

/** A body size in words: KiB below a MiB, else MiB. */
const size = (bytes: number): string => (bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`);

/** A contract reply as the suite's `Reply`: the message, the client's time, the server's `Server-Timing`. */
export const replyOf = <M>(reply: HttpReply): Reply<M> => ({
  message: reply.body as M,
  clientMs: reply.clientMs,
  serverMs: reply.serverMs,
});

/** The contract's `SearchRequest` for a case's ranking, scoped to a seeded collection. */
export function searchRequest({ id: _id, asOf, ...request }: TargetSearch, scope: { collection?: string }) {
  return { ...request, ...scope, ...(asOf === undefined ? {} : { asOf: wireInstant(asOf) }) };
}

/** The contract's `AskRequest` for a case's question: the fields it sets, and `scope` (a seeded collection). */
export function askRequest(
  { question, preset, asOf, includeSuperseded, sources }: Pick<TargetAsk, "question" | "preset" | "asOf" | "includeSuperseded" | "sources">,
  scope: { collection?: string },
): AskRequest {
  return {
    question,
    ...(preset ? { preset } : {}),
    ...scope,
    ...(asOf === undefined ? {} : { asOf: wireInstant(asOf) }),
    ...(includeSuperseded === undefined ? {} : { includeSuperseded }),
    ...(sources === undefined ? {} : { sources }),
  };
}

/** The contract's `TurnRequest` for a turn case, scoped to a seeded collection. */
export function turnRequest({ question, tools, preset, maxSteps, tokenBudget }: TargetTurn, scope: { collection?: string }) {
  return {
    question,
    ...(tools === undefined ? {} : { tools: [...tools] }),
    ...(preset ? { preset } : {}),
    ...(maxSteps ? { maxSteps } : {}),
    ...(tokenBudget ? { tokenBudget } : {}),
    ...scope,
  };
}

/**
 * Asks the target's /health, then serves the contract through it. A target that does not answer
 * is a ConfigError. With `config.seed`, every search and ask is scoped to the seeded collection.
 * `label`: how the run names it.
 */
export async function openHttpTarget(config: HttpTargetConfig, label: (name: string) => string): Promise<HttpTarget> {
  const client = new HttpClient(config);
  const readHealth = async () => (await client.call("GET", "/health", undefined, "HealthResponse")).body as HealthResponse;
  let health: HealthResponse;
  try {
    health = await readHealth();
  } catch (error) {
    if (error instanceof TargetError) throw new ConfigError(`EVAL_TARGET ${config.url}: ${error.message}`);
    throw error;
  }
  const name = config.name ?? health.name;
  const scope = config.seed ? { collection: config.seed.collection } : {};
  const seedTimeout = config.seed?.timeoutMs ?? config.timeoutMs;
  const deletePath = (collection: string) => `/documents?collection=${encodeURIComponent(collection)}`;
  return {
    name,
    kind: "http",
    label: label(name),
    reach: "remote",
    health,
    origin: new URL(config.url).origin,
    capabilities: {
      ...health.capabilities,
      turn: health.capabilities.turn ?? false,
      givenSources: health.capabilities.givenSources ?? false,
    },
    async search(request) {
      return replyOf<SearchResponse>(await client.call("POST", "/search", searchRequest(request, scope), "SearchResponse"));
    },
    async ask(request) {
      return replyOf<AskResponse>(await client.call("POST", "/ask", askRequest(request, scope), "AskResponse"));
    },
    ...(health.capabilities.expand
      ? { expand: async (query: string) => (await client.call("POST", "/expand", { query }, "ExpandResponse")).body as ExpandResponse }
      : {}),
    ...(health.capabilities.turn
      ? {
          turn: async (request: TargetTurn) =>
            replyOf<TurnResponse>(await client.call("POST", "/turn", turnRequest(request, scope), "TurnResponse")),
        }
      : {}),
    readHealth,
    async putDocuments(collection, corpus) {
      const body = JSON.stringify({ collection, ids: corpus.ids, documents: corpus.documents });
      const bytes = Buffer.byteLength(body);
      const limit = health.limits?.documentsBytes ?? DEFAULT_DOCUMENTS_BYTES;
      if (bytes > limit)
        throw new TargetError(
          "too large",
          `PUT /documents: the ${corpus.documents.length} documents are ${size(bytes)} in one request, and the target takes at most ${size(limit)} (${health.limits?.documentsBytes ? "its /health limits.documentsBytes" : "the contract's default: its /health names no limits.documentsBytes"})`,
        );
      return (await client.call("PUT", "/documents", body, "DocumentsResponse", seedTimeout)).body as DocumentsResponse;
    },
    deleteDocuments(collection, options = {}) {
      if (options.sync)
        return client.callSync("DELETE", deletePath(collection), "DocumentsResponse", seedTimeout).body as DocumentsResponse;
      return client
        .call("DELETE", deletePath(collection), undefined, "DocumentsResponse", seedTimeout)
        .then((r) => r.body as DocumentsResponse);
    },
  };
}
