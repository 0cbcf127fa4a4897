/**
 * The HTTP client every target over HTTP calls through (a service speaking the target contract,
 * http-target.ts; one described by an adapter, adapter-target.ts): at most `concurrency` requests
 * in flight; a timeout, a dropped connection, a 429 or a 5xx retried up to `retries` times with
 * exponential backoff (honouring `Retry-After`, at most 5 s); each request timed from sending it to
 * having its body, never the wait for a slot or a backoff; every credential (the token, the cookie,
 * an adapter's environment variables) redacted from anything it could appear in. A request that
 * still fails throws `TargetError` with one line: its case fails with it and the run goes on.
 */
import { spawnSync } from "node:child_process";
import { errorOf } from "@hybrid-search/target-contract/errors";
import { Limiter } from "@hybrid-search/target-contract/limiter";
import type { ContractMessage } from "@hybrid-search/target-contract/messages";
import { redactor } from "@hybrid-search/target-contract/redact";
import { contractProblems } from "@hybrid-search/target-contract/validate";
import type { SeedConfig } from "./settings.js";
import { TargetError } from "./target.js";

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

/** A contract call's reply: its body (checked against the message expected), the client's time and the server's (`Server-Timing`). */
export interface HttpReply {
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
  call(method: Method, path: string, body: unknown, expect: ContractMessage, timeoutMs = this.config.timeoutMs): Promise<HttpReply> {
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
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      // Redirects are followed here, within the configured origin only: fetch would carry every
      // header but Authorization (an adapter's key header, a key in the query) to any origin.
      let url = `${this.config.url}${path}`;
      let request: { method: string; body?: string } = { method, ...(body === undefined ? {} : { body }) };
      for (let hop = 0; ; hop++) {
        response = await fetch(url, { ...request, headers: this.headers(headers), signal, redirect: "manual" });
        const next = redirectOf(response, url, this.origin, request.method);
        if (next === null) break;
        await response.arrayBuffer();
        if (hop === MAX_REDIRECTS) throw new TargetError("redirect", `more than ${MAX_REDIRECTS} redirects`);
        url = next.url;
        if (next.asGet) request = { method: "GET" };
      }
      text = await response.text();
    } catch (error) {
      if (error instanceof TargetError) throw new TargetError(error.reason, this.redact(error.message));
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

  /** The configured service's origin: the only one a request (and its credentials) is ever sent to. */
  get origin(): string {
    return new URL(this.config.url).origin;
  }

  /**
   * One call, synchronously, without retries: for a process that is about to exit (a signal, a
   * `process.exit`), where no promise would settle. A child process makes the request; the
   * credential reaches it on its stdin, never on its command line or in its environment.
   */
  callSync(method: Method, path: string, expect: ContractMessage, timeoutMs = this.config.timeoutMs): HttpReply {
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
        origin: this.origin,
        maxRedirects: MAX_REDIRECTS,
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
      if ("error" in outcome)
        throw new TargetError(
          outcome.error.startsWith("no response") ? "timeout" : outcome.error.startsWith("redirected") ? "redirect" : "connection",
          outcome.error,
        );
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

/** What the child of `sendSync` runs: one fetch (redirects followed within the origin only, as `once` does), its outcome as one JSON line on stdout. */
const SYNC_REQUEST = `
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { url: first, method, headers, body, timeoutMs, origin, maxRedirects } = JSON.parse(input);
let outcome;
try {
  const signal = AbortSignal.timeout(timeoutMs);
  let url = first;
  let request = { method, body };
  let res;
  for (let hop = 0; ; hop++) {
    res = await fetch(url, { ...request, headers, signal, redirect: "manual" });
    const location = res.headers.get("location");
    if (![301, 302, 303, 307, 308].includes(res.status) || !location) break;
    await res.arrayBuffer();
    const next = new URL(location, url);
    if (next.origin !== origin) throw Object.assign(new Error(\`redirected to another origin (\${next.origin}); credentials are only ever sent to \${origin}\`), { redirect: true });
    if (hop === maxRedirects) throw Object.assign(new Error(\`more than \${maxRedirects} redirects\`), { redirect: true });
    url = next.href;
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) request = { method: "GET" };
  }
  const all = {};
  res.headers.forEach((value, name) => { all[name] = value; });
  outcome = { status: res.status, retryAfter: res.headers.get("retry-after"), serverTiming: res.headers.get("server-timing"), headers: all, text: await res.text() };
} catch (e) {
  outcome = { error: e.redirect ? e.message : e.name === "TimeoutError" || e.name === "AbortError" ? \`no response within \${timeoutMs} ms\` : \`connection failed (\${e.cause?.code ?? e.cause?.message ?? e.message})\` };
}
process.stdout.write(JSON.stringify(outcome));
`;

/** How many redirects within the service's origin a request follows. */
const MAX_REDIRECTS = 5;

/**
 * Where a redirect response sends the request next, or null when `response` is none. A redirect
 * to another origin is refused (a TargetError, not retried): the request carries credentials.
 */
function redirectOf(response: Response, url: string, origin: string, method: string): { url: string; asGet: boolean } | null {
  const location = response.headers.get("location");
  if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return null;
  let next: URL;
  try {
    next = new URL(location, url);
  } catch {
    throw new TargetError("redirect", `HTTP ${response.status} to a Location that is not a URL`);
  }
  if (next.origin !== origin)
    throw new TargetError(
      "redirect",
      `redirected (HTTP ${response.status}) to another origin (${next.origin}); credentials are only ever sent to ${origin}: set EVAL_TARGET to the service's own address`,
    );
  // As fetch does: a 303 (and a 301 or 302 after a POST) is followed with a GET, without the body.
  return { url: next.href, asGet: response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST") };
}

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
function checkedReply(response: RawResponse, expect: ContractMessage, clientMs: number): HttpReply {
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
