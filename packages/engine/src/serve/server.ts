/**
 * `engine serve`: the engine as an HTTP server implementing the target contract
 * (@hybrid-search/target-contract, docs/targets.md), the reference implementation the suite's HTTP
 * target is tested against.
 *
 * Built on node's `http` module: the contract is seven routes of JSON, the contract's own validators
 * (Ajv) check every request, and a framework would add a dependency and a second schema layer for
 * routing that fits in one function. What a framework would otherwise give is
 * here and tested: a body-size limit, bounded concurrency, JSON errors, graceful close.
 *
 * Every error is the contract's `{"error": {"code", "message"}}` with one line of message: never a
 * stack trace, and never the bearer token (redacted wherever a message could quote it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import { errorResponse } from "@hybrid-search/target-contract/errors";
import { Busy, Limiter } from "@hybrid-search/target-contract/limiter";
import { CONTRACT_MODES, type ContractMessage, DEFAULT_DOCUMENTS_BYTES } from "@hybrid-search/target-contract/messages";
import { redactor } from "@hybrid-search/target-contract/redact";
import type { TurnRequest, TurnResponse } from "@hybrid-search/target-contract/turn";
import type { AskRequest, DocumentsRequest, ExpandRequest, HealthResponse, SearchRequest } from "@hybrid-search/target-contract/types";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import type { Engine } from "../engine.js";
import { EngineError, errorLine } from "../errors.js";
import { firstInvalidUtf8Offset } from "../formats/text-file.js";
import type { AgentToolName, IndexReport, SearchOptions, SearchResponse } from "../types.js";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export interface ServeOptions {
  /** @default "127.0.0.1": reachable from this machine only, unless asked otherwise */
  host?: string;
  /** 0 picks a free port. @default 8080 */
  port?: number;
  /** When set, every request but GET /health must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Largest request body accepted (bytes); more is 413. @default 1 MiB (PUT /documents: `maxDocumentsBytes`) */
  maxBodyBytes?: number;
  /** Largest PUT /documents body (bytes). @default 64 MiB (`DEFAULT_DOCUMENTS_BYTES`) */
  maxDocumentsBytes?: number;
  /** Requests handled at once. @default 4 */
  concurrency?: number;
  /** Requests waiting for a slot; beyond it, 503 BUSY. @default 64 */
  maxQueued?: number;
  /** The name /health reports. @default "hybrid-search-engine" */
  name?: string;
  /** Where a request's unexpected failure is logged (one line; the client gets `INTERNAL`). @default stderr */
  log?: (line: string) => void;
  /**
   * Lower-level notes, one line each: a client that disconnected before its answer was sent (mid-
   * body, or while the engine worked). A disconnect is the client's doing, never logged as an
   * internal error. @default dropped
   */
  debug?: (line: string) => void;
}

export interface EngineServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  port: number;
  /** Stops accepting connections, lets running requests finish, then resolves. The engine stays open. */
  close(): Promise<void>;
}

const VERSION = "0.1.0";

/** A failure with its HTTP status and contract error code; its message is sent as is. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The client's connection ended before its request body was complete: no one to answer, no bug. */
class ClientGone extends Error {}

/** HTTP status of an engine error code: the caller's mistake, the provider's, or ours. */
const ENGINE_STATUS: Partial<Record<string, number>> = {
  BAD_ARGUMENT: 400,
  MALFORMED_RECORD: 400,
  INVALID_VALIDITY: 400,
  PROVIDER_ERROR: 502,
  DB_LOCKED: 503,
};

export async function serveEngine(engine: Engine, options: ServeOptions = {}): Promise<EngineServer> {
  const host = options.host ?? "127.0.0.1";
  const limiter = new Limiter(options.concurrency ?? 4, options.maxQueued ?? 64);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const redact = redactor([options.token]);
  const debug = options.debug ?? (() => undefined);
  const token = options.token === undefined || options.token === "" ? null : Buffer.from(`Bearer ${options.token}`);
  const limits = { bodyBytes: options.maxBodyBytes ?? 2 ** 20, documentsBytes: options.maxDocumentsBytes ?? DEFAULT_DOCUMENTS_BYTES };
  const context: RouteContext = { engine, name: options.name ?? "hybrid-search-engine", limits };

  const inFlight = new Set<ServerResponse>();
  let closing = false;
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.on("close", () => {
      inFlight.delete(res);
      if (!res.writableFinished) debug(`engine serve: ${req.method} ${req.url}: the client disconnected before its answer was sent`);
    });
    // A request that arrives or finishes while the server closes is answered on a closing connection.
    if (closing) res.shouldKeepAlive = false;
    handle(req, res).catch((error: unknown) => {
      // Nobody is left to answer, and nothing went wrong here: the close handler above notes it.
      if (error instanceof ClientGone) return;
      send(res, ...toHttpError(error, log, redact));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = ROUTES[`${req.method} ${url.pathname}`];
    if (!route) {
      const known = Object.keys(ROUTES).filter((key) => key.endsWith(` ${url.pathname}`));
      if (known.length > 0)
        throw new HttpError(405, "METHOD_NOT_ALLOWED", `${url.pathname} answers ${known.map((k) => k.split(" ")[0]).join(", ")}`, {
          allow: known.map((k) => k.split(" ")[0]).join(", "),
        });
      throw new HttpError(404, "NOT_FOUND", `no route ${req.method} ${url.pathname}; see docs/targets.md`);
    }
    if (token && url.pathname !== "/health" && !authorized(req.headers.authorization, token))
      throw new HttpError(401, "UNAUTHORIZED", "missing or wrong bearer token (Authorization: Bearer <token>)", {
        "www-authenticate": "Bearer",
      });
    const limit = route.request === "DocumentsRequest" ? limits.documentsBytes : limits.bodyBytes;
    const body = route.request ? await readJson(req, limit) : undefined;
    if (route.request) {
      const problems = contractProblems(route.request, body);
      if (problems.length > 0) throw new HttpError(400, "BAD_REQUEST", `not a ${route.request}: ${problems.slice(0, 3).join("; ")}`);
    }
    let result: { body: unknown; elapsedMs?: number };
    try {
      result = await limiter.run(() => route.handle(context, body, url));
    } catch (error) {
      if (error instanceof Busy) throw new HttpError(503, "BUSY", `server busy: ${error.message}; retry later`, { "retry-after": "1" });
      throw error;
    }
    send(res, 200, result.body, result.elapsedMs === undefined ? {} : { "server-timing": `engine;dur=${result.elapsedMs.toFixed(3)}` });
  }

  // Longer than a client's idle keep-alive (undici: 4 s), so the client, not the server, closes an
  // idle connection: a server closing one as the client reuses it drops that request (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8080, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () => {
      closing = true;
      for (const res of inFlight) res.shouldKeepAlive = false;
      return closeGracefully(server);
    },
  };
}

interface RouteContext {
  engine: Engine;
  name: string;
  /** Told on /health, so a client can size a seed before sending it. */
  limits: { bodyBytes: number; documentsBytes: number };
}

interface Route {
  request?: ContractMessage;
  handle(context: RouteContext, body: unknown, url: URL): Promise<{ body: unknown; elapsedMs?: number }>;
}

const ROUTES: Record<string, Route> = {
  "GET /health": {
    handle: async ({ engine, name, limits }) => {
      const body: HealthResponse = {
        name,
        version: VERSION,
        fingerprint: engine.fingerprint(),
        capabilities: { modes: [...CONTRACT_MODES], ask: true, expand: true, documents: true, trace: true, turn: true, givenSources: true },
        limits,
      };
      return { body };
    },
  },
  "POST /search": {
    request: "SearchRequest",
    handle: async ({ engine }, body) => {
      const request = body as SearchRequest;
      const response = await rank(engine, request);
      return { body: response, elapsedMs: response.elapsedMs };
    },
  },
  "POST /ask": {
    request: "AskRequest",
    handle: async ({ engine }, body) => {
      const { question, ...rest } = body as AskRequest;
      const result = await engine.ask(question, rest);
      return { body: result, elapsedMs: result.elapsedMs };
    },
  },
  "POST /turn": {
    request: "TurnRequest",
    handle: async ({ engine }, body) => {
      const { question, tools, ...rest } = body as TurnRequest;
      const result = await engine.turn(question, { ...rest, ...(tools ? { tools: tools as AgentToolName[] } : {}) });
      // The engine's trace is the contract's TurnResponse: typed so, a field that drifts from the contract fails to compile.
      const response: TurnResponse = result;
      return { body: response, elapsedMs: result.elapsedMs };
    },
  },
  "POST /expand": {
    request: "ExpandRequest",
    handle: async ({ engine }, body) => {
      const started = performance.now();
      const result = await engine.expand((body as ExpandRequest).query);
      return { body: result, elapsedMs: performance.now() - started };
    },
  },
  "PUT /documents": {
    request: "DocumentsRequest",
    handle: async ({ engine }, body) => {
      const { collection, documents, ids } = body as DocumentsRequest;
      return documentsReply(engine, await engine.indexDocuments(documents, { collection, ...(ids ? { ids } : {}) }));
    },
  },
  "DELETE /documents": {
    handle: async ({ engine }, _body, url) => {
      const collection = url.searchParams.get("collection");
      if (!collection) throw new HttpError(400, "BAD_REQUEST", "DELETE /documents needs ?collection=<name>");
      // No documents: the collection holds none afterwards, removed in one transaction.
      return documentsReply(engine, await engine.indexDocuments([], { collection }));
    },
  },
};

/** The routes `engine serve` answers, `METHOD /path`: what docs/engine.md and docs/targets.md list. */
export const SERVED_ROUTES: readonly string[] = Object.keys(ROUTES);

/** A `DocumentsResponse`: the collection's documents afterwards and the index's new fingerprint. */
function documentsReply(engine: Engine, report: IndexReport): { body: unknown; elapsedMs: number } {
  return {
    body: { collection: report.collection, documents: report.documents.total, fingerprint: engine.fingerprint() },
    elapsedMs: report.elapsedMs,
  };
}

function rank(engine: Engine, request: SearchRequest): Promise<SearchResponse> | SearchResponse {
  const { query, mode, ...rest } = request;
  const options: SearchOptions = rest;
  if (mode === "search") return engine.search(query, options);
  if (mode === "vsearch") return engine.vsearch(query, options);
  return engine.query(query, { ...options, tier: mode });
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  // Constant time: the comparison must not tell an attacker how much of a guess was right.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The request body as JSON, refusing more than `limit` bytes as soon as they arrive. */
function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > limit) return;
      const body = Buffer.concat(chunks);
      let text: string;
      try {
        // Strictly: a lenient decode would turn an invalid byte into U+FFFD, and an id changed that
        // way would be stored and answered as another id.
        text = strictUtf8.decode(body);
      } catch {
        const at = firstInvalidUtf8Offset(body);
        const byte = (body[at] ?? 0).toString(16).toUpperCase().padStart(2, "0");
        reject(new HttpError(400, "BAD_JSON", `the body is not UTF-8 text: invalid byte 0x${byte} at offset ${at}`));
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(new HttpError(400, "BAD_JSON", `the body is not JSON: ${errorLine(error)}`));
      }
    });
    // The connection failed or closed mid-body (Node says "aborted", ECONNRESET): the client went away.
    req.on("error", () => reject(new ClientGone()));
    req.on("close", () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, "BODY_TOO_LARGE", `the body is larger than ${limit} bytes`, { connection: "close" });
}

function toHttpError(
  error: unknown,
  log: (line: string) => void,
  redact: (text: string) => string,
): [number, unknown, Record<string, string>] {
  const wire = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
    [status, errorResponse(code, redact(message)), headers] as [number, unknown, Record<string, string>];
  if (error instanceof HttpError) return wire(error.status, error.code, error.message, error.headers);
  if (error instanceof EngineError) return wire(ENGINE_STATUS[error.code] ?? 500, error.code, error.message);
  if (error instanceof TypeError || error instanceof RangeError) return wire(400, "BAD_ARGUMENT", error.message);
  // A bug: the client learns that it happened, the log learns what it was; no stack goes over the wire.
  log(redact(`engine serve: internal error: ${errorLine(error)}`));
  return wire(500, "INTERNAL", "internal error; the server's log has the details");
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Stop accepting, close idle keep-alive connections, wait for running requests to answer. */
function closeGracefully(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
