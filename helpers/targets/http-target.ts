/**
 * A target over HTTP: any service that speaks the target contract
 * (`@hybrid-search/target-contract`, docs/targets.md), `engine serve` or a team's own.
 *
 *   EVAL_TARGET=http://host:port        the base URL
 *   EVAL_TARGET_NAME=staging            what floors and reports call it (default: /health's name)
 *   EVAL_TARGET_TOKEN / EVAL_TARGET_COOKIE
 *                                       sent as `Authorization: Bearer …` / `Cookie: …`, nowhere else:
 *                                       never printed, never in an error, a report or the run info
 *   EVAL_TARGET_TIMEOUT_MS (10000), EVAL_TARGET_RETRIES (2), EVAL_TARGET_CONCURRENCY (4)
 *   EVAL_TARGET_SEED=<collection>       seed the dataset's corpus into that collection first, scope
 *                                       every search and ask to it, delete it after the run
 *                                       (helpers/targets/seed.ts); EVAL_TARGET_KEEP_SEED=1 keeps it,
 *                                       EVAL_TARGET_SEED_TIMEOUT_MS (600000) bounds the PUT and DELETE
 *
 * Each call: at most `concurrency` in flight; a timeout, a dropped connection, a 429 or a 5xx is
 * retried up to `retries` times with exponential backoff (honouring `Retry-After`, at most 5 s);
 * a response that does not fit the contract is a failure, never a ranking. A call that still fails
 * throws `TargetError` with one line: the case fails with it and the run goes on.
 */
import { spawnSync } from "node:child_process";
import type { AskResult, ExpansionResult } from "@hybrid-search/engine";
import { ConfigError } from "@hybrid-search/eval-gate";
import { errorOf } from "@hybrid-search/target-contract/errors";
import { Limiter } from "@hybrid-search/target-contract/limiter";
import { type ContractMessage, DEFAULT_DOCUMENTS_BYTES } from "@hybrid-search/target-contract/messages";
import { redactor } from "@hybrid-search/target-contract/redact";
import type { DocumentsRequest, DocumentsResponse, HealthResponse, SearchResponse } from "@hybrid-search/target-contract/types";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import { askRequest, type ContractAnswer, contractRanking, toAskResult, wireInstant } from "./ask-result.js";
import { type Target, TargetError, type TargetRanking } from "./target.js";

export interface HttpTargetConfig {
  url: string;
  name?: string;
  token?: string;
  cookie?: string;
  timeoutMs: number;
  retries: number;
  concurrency: number;
  /** Backoff before retry n (1-based) is `backoffMs × 2^(n−1)`. @default 200 */
  backoffMs?: number;
  /** EVAL_TARGET_SEED: the collection the run seeds the dataset's corpus into, and scopes every call to. */
  seed?: SeedConfig;
}

export interface SeedConfig {
  collection: string;
  /** EVAL_TARGET_KEEP_SEED=1: leave the seeded collection on the target after the run. */
  keep: boolean;
  /** Per PUT or DELETE /documents: a target indexes a corpus in one request, which takes longer than a search. */
  timeoutMs: number;
}

const COLLECTION = /^[A-Za-z0-9._-]{1,200}$/;

/** EVAL_TARGET_SEED and its companions, or undefined when it is unset. */
export function seedConfig(env: NodeJS.ProcessEnv): SeedConfig | undefined {
  const collection = env.EVAL_TARGET_SEED?.trim();
  const keep = env.EVAL_TARGET_KEEP_SEED?.trim();
  if (keep && keep !== "0" && keep !== "1")
    throw new ConfigError(`EVAL_TARGET_KEEP_SEED must be 1 or 0, got ${JSON.stringify(keep.slice(0, 50))}`);
  if (!collection) {
    if (keep) throw new ConfigError("EVAL_TARGET_KEEP_SEED keeps what EVAL_TARGET_SEED seeds; EVAL_TARGET_SEED is not set");
    return undefined;
  }
  if (!COLLECTION.test(collection))
    throw new ConfigError(
      `EVAL_TARGET_SEED must name a collection of 1–200 letters, digits, ".", "_" or "-", got ${JSON.stringify(collection.slice(0, 80))}`,
    );
  return { collection, keep: keep === "1", timeoutMs: positiveInt(env, "EVAL_TARGET_SEED_TIMEOUT_MS", 600_000, 1) };
}

export function positiveInt(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number): number {
  const raw = env[key]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new ConfigError(`${key} must be an integer ≥ ${min}, got ${JSON.stringify(raw.slice(0, 50))}`);
  return Number(raw);
}

/** The HTTP target's configuration from the environment, or null when EVAL_TARGET is unset. */
export function httpTargetConfig(env: NodeJS.ProcessEnv = process.env): HttpTargetConfig | null {
  const url = env.EVAL_TARGET?.trim();
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`EVAL_TARGET must be an http(s) URL such as http://127.0.0.1:8080, got ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new ConfigError(`EVAL_TARGET must be an http(s) URL, got the scheme ${parsed.protocol}`);
  if (parsed.username || parsed.password)
    throw new ConfigError("EVAL_TARGET must not carry credentials; set EVAL_TARGET_TOKEN or EVAL_TARGET_COOKIE instead");
  const name = env.EVAL_TARGET_NAME?.trim();
  if (name !== undefined && name !== "" && !/^[A-Za-z0-9._-]{1,64}$/.test(name))
    throw new ConfigError(
      `EVAL_TARGET_NAME must be 1–64 letters, digits, ".", "_" or "-" (it keys the floors), got ${JSON.stringify(name.slice(0, 80))}`,
    );
  const seed = seedConfig(env);
  return {
    url: parsed.href.replace(/\/+$/, ""),
    ...(name ? { name } : {}),
    ...(env.EVAL_TARGET_TOKEN ? { token: env.EVAL_TARGET_TOKEN } : {}),
    ...(env.EVAL_TARGET_COOKIE ? { cookie: env.EVAL_TARGET_COOKIE } : {}),
    timeoutMs: positiveInt(env, "EVAL_TARGET_TIMEOUT_MS", 10_000, 1),
    retries: positiveInt(env, "EVAL_TARGET_RETRIES", 2, 0),
    concurrency: positiveInt(env, "EVAL_TARGET_CONCURRENCY", 4, 1),
    ...(seed ? { seed } : {}),
  };
}

interface Reply {
  body: unknown;
  clientMs: number;
  serverMs: number | null;
}

/** `Server-Timing: engine;dur=12.3` (or any first metric with a dur), in ms. */
export function serverTiming(header: string | null): number | null {
  const m = header ? /dur=([\d.]+)/.exec(header) : null;
  return m ? Number(m[1]) : null;
}

/** One request as sent: method, path below the base URL (with its query), headers beyond the client's own, a serialized body. */
export interface HttpRequest {
  method: Method;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export class HttpClient {
  private readonly limiter: Limiter;
  /** Credentials never leave the request: any text that could quote one (a message, a response echoing it) has it redacted. */
  readonly redact: (text: string) => string;
  /** `secrets`: further values to redact beyond the token and the cookie (an adapter's environment variables). */
  constructor(
    readonly config: HttpTargetConfig,
    secrets: readonly string[] = [],
  ) {
    this.limiter = new Limiter(config.concurrency, Number.POSITIVE_INFINITY);
    this.redact = redactor([config.token, config.cookie, ...secrets]);
  }

  /** The headers of every request: JSON, and the token and cookie when set; `extra` wins. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      "content-type": "application/json",
      accept: "application/json",
      ...(this.config.token ? { authorization: `Bearer ${this.config.token}` } : {}),
      ...(this.config.cookie ? { cookie: this.config.cookie } : {}),
      ...extra,
    };
  }

  /**
   * One contract call with retries; the response checked against `expect`. `body` is sent as JSON
   * (a string as it is: already serialized); `timeoutMs` replaces the configured one for this call.
   */
  call(method: Method, path: string, body: unknown, expect: ContractMessage, timeoutMs = this.config.timeoutMs): Promise<Reply> {
    const request = { method, path, ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }) };
    return this.send(request, (response, clientMs) => checkedReply(response, expect, clientMs), timeoutMs);
  }

  /**
   * One request, at most `concurrency` in flight, retried as the configuration says; its response
   * read by `read`, which throws a TargetError for a response it cannot read (a 5xx from
   * `statusChecked` is retried, anything else is not). Every message is one line, redacted.
   */
  send<T>(request: HttpRequest, read: (response: RawResponse, clientMs: number) => T, timeoutMs = this.config.timeoutMs): Promise<T> {
    const { method, path } = request;
    return this.limiter.run(async () => {
      let last: TargetError | undefined;
      for (let attempt = 0; attempt <= this.config.retries; attempt++) {
        if (attempt > 0) await sleep(last instanceof RetryAfter ? last.waitMs : (this.config.backoffMs ?? 200) * 2 ** (attempt - 1));
        try {
          const started = performance.now();
          const response = await this.once(request, timeoutMs);
          return read(response, performance.now() - started);
        } catch (error) {
          if (!(error instanceof TargetError)) throw error;
          last = error;
          if (!(error instanceof Retryable)) break;
        }
      }
      const attempts = this.config.retries + 1;
      throw new TargetError(
        last!.reason,
        this.redact(`${method} ${path}: ${last!.message}${last instanceof Retryable && attempts > 1 ? ` (${attempts} attempts)` : ""}`),
      );
    });
  }

  private async once({ method, path, headers, body }: HttpRequest, timeoutMs: number): Promise<RawResponse> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.config.url}${path}`, {
        method,
        headers: this.headers(headers),
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const e = error as Error & { cause?: { code?: string; message?: string } };
      if (e.name === "TimeoutError" || e.name === "AbortError") throw new Retryable("timeout", `no response within ${timeoutMs} ms`);
      throw new Retryable("connection", `connection failed (${e.cause?.code ?? e.cause?.message ?? e.message})`);
    }
    const all: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      all[name] = this.redact(value);
    });
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      serverTiming: response.headers.get("server-timing"),
      headers: all,
      text: this.redact(text),
    };
  }

  /**
   * One call, synchronously, without retries: for a process that is about to exit (a signal, a
   * `process.exit`), where no promise would settle. A child process makes the request; the
   * credential reaches it on its stdin, never on its command line or in its environment.
   */
  callSync(method: Method, path: string, expect: ContractMessage, timeoutMs = this.config.timeoutMs): Reply {
    return this.sendSync({ method, path }, (response, clientMs) => checkedReply(response, expect, clientMs), timeoutMs);
  }

  /** `send`, synchronously and once (`callSync`). */
  sendSync<T>(request: HttpRequest, read: (response: RawResponse, clientMs: number) => T, timeoutMs = this.config.timeoutMs): T {
    const started = performance.now();
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", SYNC_REQUEST], {
      input: JSON.stringify({
        url: `${this.config.url}${request.path}`,
        method: request.method,
        headers: this.headers(request.headers),
        body: request.body,
        timeoutMs,
      }),
      encoding: "utf8",
      timeout: timeoutMs + 10_000,
      env: { PATH: process.env.PATH ?? "" },
    });
    let outcome: RawResponse | { error: string };
    try {
      outcome = JSON.parse(this.redact(child.stdout)) as typeof outcome;
    } catch {
      outcome = { error: `the request process failed (${child.error?.message ?? `exit ${child.status}`})` };
    }
    try {
      if ("error" in outcome) throw new TargetError(outcome.error.startsWith("no response") ? "timeout" : "connection", outcome.error);
      return read(outcome, performance.now() - started);
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      throw new TargetError(error.reason, this.redact(`${request.method} ${request.path}: ${error.message}`));
    }
  }
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A response as received: status, the two headers the contract client reads, every header (lower-case names), the body's text. */
export interface RawResponse {
  status: number;
  retryAfter: string | null;
  serverTiming: string | null;
  headers: Record<string, string>;
  text: string;
}

/** What the child of `sendSync` runs: one fetch, its outcome as one JSON line on stdout. */
const SYNC_REQUEST = `
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { url, method, headers, body, timeoutMs } = JSON.parse(input);
let outcome;
try {
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  const all = {};
  res.headers.forEach((value, name) => { all[name] = value; });
  outcome = { status: res.status, retryAfter: res.headers.get("retry-after"), serverTiming: res.headers.get("server-timing"), headers: all, text: await res.text() };
} catch (e) {
  outcome = { error: e.name === "TimeoutError" || e.name === "AbortError" ? \`no response within \${timeoutMs} ms\` : \`connection failed (\${e.cause?.code ?? e.cause?.message ?? e.message})\` };
}
process.stdout.write(JSON.stringify(outcome));
`;

/** A non-2xx response as the TargetError it is (retryable for a 429 or a 5xx, after `Retry-After` when it says). */
export function statusChecked(response: RawResponse): void {
  const { status, text } = response;
  if (status >= 200 && status <= 299) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = errorOf(parsed);
  const detail = error ? `: ${error.code} ${error.message.slice(0, 200)}`.trimEnd() : "";
  const reason = `http ${status}`;
  if (status === 429 || status >= 500) {
    const retryAfter = Number(response.retryAfter);
    if (Number.isFinite(retryAfter) && retryAfter > 0)
      throw new RetryAfter(reason, `HTTP ${status}${detail}`, Math.min(5000, retryAfter * 1000));
    throw new Retryable(reason, `HTTP ${status}${detail}`);
  }
  throw new TargetError(reason, `HTTP ${status}${detail}`);
}

/** A response as a contract reply, or the TargetError it is (retryable for a 429 or a 5xx). */
function checkedReply(response: RawResponse, expect: ContractMessage, clientMs: number): Reply {
  statusChecked(response);
  const { text } = response;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TargetError("schema", `the response is not JSON (${text.length} bytes)`);
  }
  const problems = contractProblems(expect, parsed);
  if (problems.length > 0) throw new TargetError("schema", `the response is not a ${expect}: ${problems.slice(0, 3).join("; ")}`);
  return { body: parsed, clientMs, serverMs: serverTiming(response.serverTiming) };
}

class Retryable extends TargetError {}
class RetryAfter extends Retryable {
  constructor(
    reason: string,
    message: string,
    readonly waitMs: number,
  ) {
    super(reason, message);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An HTTP target, with what /health said and the calls that seed it (helpers/targets/seed.ts). */
export interface HttpTarget extends Target {
  readonly health: HealthResponse;
  /** Where it is: the URL's origin only (a path or query could carry a secret). */
  readonly origin: string;
  /** Why it takes no documents, when its capabilities say so and /health is not what says it (an adapter). */
  readonly noDocuments?: string;
  /** Why the run cannot remove a collection it seeded, when it cannot (an adapter without a delete request). */
  readonly cannotDelete?: string;
  /** How a user removes a seeded collection by hand, when not by the contract's DELETE /documents (an adapter's delete request). */
  removal?(collection: string): string;
  /** GET /health again (after a seed changed what the target holds). */
  readHealth(): Promise<HealthResponse>;
  /**
   * PUT /documents: the collection holds exactly `corpus` afterwards. Refused before sending when
   * the body is larger than the target's `limits.documentsBytes` (the contract's 64 MiB when it names none).
   */
  putDocuments(collection: string, corpus: Omit<DocumentsRequest, "collection">): Promise<DocumentsResponse>;
  /** DELETE /documents?collection=…; `sync` for a process about to exit (no retries). */
  deleteDocuments(collection: string, options?: { sync?: boolean }): Promise<DocumentsResponse> | DocumentsResponse;
}

/** A body size in words: KiB below a MiB, else MiB. */
const size = (bytes: number): string => (bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`);

/**
 * Asks the target's /health, then serves the contract through it. A target that does not answer
 * is a ConfigError. With `config.seed`, every search and ask is scoped to the seeded collection.
 */
export async function openHttpTarget(config: HttpTargetConfig): Promise<HttpTarget> {
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
    health,
    origin: new URL(config.url).origin,
    capabilities: health.capabilities,
    async search({ id: _id, asOf, ...request }): Promise<TargetRanking> {
      const body = { ...request, ...scope, ...(asOf === undefined ? {} : { asOf: wireInstant(asOf) }) };
      const reply = await client.call("POST", "/search", body, "SearchResponse");
      const response = reply.body as SearchResponse;
      return contractRanking(response, { serverMs: response.elapsedMs ?? reply.serverMs, clientMs: reply.clientMs });
    },
    async ask(request): Promise<AskResult> {
      const body = askRequest(request, scope);
      const reply = await client.call("POST", "/ask", body, "AskResponse");
      return toAskResult(request.question, reply.body as ContractAnswer, name);
    },
    ...(health.capabilities.expand
      ? { expand: async (query: string) => (await client.call("POST", "/expand", { query }, "ExpandResponse")).body as ExpansionResult }
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
