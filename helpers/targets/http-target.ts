/**
 * A target over HTTP: any service that speaks the target contract
 * (`packages/engine/contract/target.schema.json`, docs/targets.md), `engine serve` or a team's own.
 *
 *   EVAL_TARGET=http://host:port        the base URL
 *   EVAL_TARGET_NAME=staging            what floors and reports call it (default: /health's name)
 *   EVAL_TARGET_TOKEN / EVAL_TARGET_COOKIE
 *                                       sent as `Authorization: Bearer …` / `Cookie: …`, nowhere else:
 *                                       never printed, never in an error, a report or the run info
 *   EVAL_TARGET_TIMEOUT_MS (10000), EVAL_TARGET_RETRIES (2), EVAL_TARGET_CONCURRENCY (4)
 *
 * Each call: at most `concurrency` in flight; a timeout, a dropped connection, a 429 or a 5xx is
 * retried up to `retries` times with exponential backoff (honouring `Retry-After`, at most 5 s);
 * a response that does not fit the contract is a failure, never a ranking. A call that still fails
 * throws `TargetError` with one line: the case fails with it and the run goes on.
 */
import type { AskResult, ExpansionResult } from "@hybrid-search/engine";
import { type ContractMessage, contractProblems } from "@hybrid-search/engine/contract";
import { Limiter } from "@hybrid-search/engine/serve";
import { ConfigError } from "@hybrid-search/eval-gate";
import { toAskResult, type ContractAnswer } from "./ask-result.js";
import { type Target, type TargetCapabilities, TargetError, type TargetHit, type TargetRanking } from "./target.js";

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
}

function positiveInt(env: NodeJS.ProcessEnv, key: string, fallback: number, min: number): number {
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
  return {
    url: parsed.href.replace(/\/+$/, ""),
    ...(name ? { name } : {}),
    ...(env.EVAL_TARGET_TOKEN ? { token: env.EVAL_TARGET_TOKEN } : {}),
    ...(env.EVAL_TARGET_COOKIE ? { cookie: env.EVAL_TARGET_COOKIE } : {}),
    timeoutMs: positiveInt(env, "EVAL_TARGET_TIMEOUT_MS", 10_000, 1),
    retries: positiveInt(env, "EVAL_TARGET_RETRIES", 2, 0),
    concurrency: positiveInt(env, "EVAL_TARGET_CONCURRENCY", 4, 1),
  };
}

interface Reply {
  body: unknown;
  clientMs: number;
  serverMs: number | null;
}

/** `Server-Timing: engine;dur=12.3` (or any first metric with a dur), in ms. */
function serverTiming(header: string | null): number | null {
  const m = header ? /dur=([\d.]+)/.exec(header) : null;
  return m ? Number(m[1]) : null;
}

export class HttpClient {
  private readonly limiter: Limiter;
  constructor(readonly config: HttpTargetConfig) {
    this.limiter = new Limiter(config.concurrency, Number.POSITIVE_INFINITY);
  }

  /** The credential never leaves the request header: any message that could quote it is cut. */
  private redact(text: string): string {
    let out = text;
    for (const secret of [this.config.token, this.config.cookie]) if (secret) out = out.split(secret).join("[redacted]");
    return out;
  }

  private headers(): Record<string, string> {
    return {
      "content-type": "application/json",
      accept: "application/json",
      ...(this.config.token ? { authorization: `Bearer ${this.config.token}` } : {}),
      ...(this.config.cookie ? { cookie: this.config.cookie } : {}),
    };
  }

  /** One contract call with retries; the body checked against `expect`. */
  call(method: "GET" | "POST", path: string, body: unknown, expect: ContractMessage): Promise<Reply> {
    return this.limiter.run(async () => {
      let last: TargetError | undefined;
      for (let attempt = 0; attempt <= this.config.retries; attempt++) {
        if (attempt > 0) await sleep(last instanceof RetryAfter ? last.waitMs : (this.config.backoffMs ?? 200) * 2 ** (attempt - 1));
        try {
          return await this.once(method, path, body, expect);
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

  private async once(method: "GET" | "POST", path: string, body: unknown, expect: ContractMessage): Promise<Reply> {
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.config.url}${path}`, {
        method,
        headers: this.headers(),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const e = error as Error & { cause?: { code?: string; message?: string } };
      if (e.name === "TimeoutError" || e.name === "AbortError")
        throw new Retryable("timeout", `no response within ${this.config.timeoutMs} ms`);
      throw new Retryable("connection", `connection failed (${e.cause?.code ?? e.cause?.message ?? e.message})`);
    }
    const clientMs = performance.now() - started;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const detail =
        typeof error?.message === "string" ? `: ${String(error.code ?? "")} ${error.message.split("\n")[0]!.slice(0, 200)}`.trimEnd() : "";
      const reason = `http ${response.status}`;
      if (response.status === 429 || response.status >= 500) {
        const retryAfter = Number(response.headers.get("retry-after"));
        if (Number.isFinite(retryAfter) && retryAfter > 0)
          throw new RetryAfter(reason, `HTTP ${response.status}${detail}`, Math.min(5000, retryAfter * 1000));
        throw new Retryable(reason, `HTTP ${response.status}${detail}`);
      }
      throw new TargetError(reason, `HTTP ${response.status}${detail}`);
    }
    if (parsed === undefined) throw new TargetError("schema", `the response is not JSON (${text.length} bytes)`);
    const problems = contractProblems(expect, parsed);
    if (problems.length > 0) throw new TargetError("schema", `the response is not a ${expect}: ${problems.slice(0, 3).join("; ")}`);
    return { body: parsed, clientMs, serverMs: serverTiming(response.headers.get("server-timing")) };
  }
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

export interface HealthInfo {
  name: string;
  version: string;
  fingerprint: string | { corpusHash: string; [key: string]: unknown };
  capabilities: TargetCapabilities & { documents: boolean };
}

/** Asks the target's /health, then serves the contract through it. A target that does not answer is a ConfigError. */
export async function openHttpTarget(config: HttpTargetConfig): Promise<Target & { health: HealthInfo }> {
  const client = new HttpClient(config);
  let health: HealthInfo;
  try {
    health = (await client.call("GET", "/health", undefined, "HealthResponse")).body as HealthInfo;
  } catch (error) {
    if (error instanceof TargetError) throw new ConfigError(`EVAL_TARGET ${config.url}: ${error.message}`);
    throw error;
  }
  const name = config.name ?? health.name;
  return {
    name,
    kind: "http",
    health,
    capabilities: health.capabilities,
    async search({ id: _id, ...request }): Promise<TargetRanking> {
      const reply = await client.call("POST", "/search", request, "SearchResponse");
      const body = reply.body as { results: TargetHit[]; elapsedMs?: number; trace?: TargetRanking["trace"] };
      return {
        results: body.results.map((h) => ({ docId: h.docId, score: h.score, ...(h.passageId ? { passageId: h.passageId } : {}) })),
        trace: body.trace ?? null,
        serverMs: body.elapsedMs ?? reply.serverMs,
        clientMs: reply.clientMs,
      };
    },
    async ask({ question, preset }): Promise<AskResult> {
      const reply = await client.call("POST", "/ask", { question, ...(preset ? { preset } : {}) }, "AskResponse");
      return toAskResult(question, reply.body as ContractAnswer, name);
    },
    ...(health.capabilities.expand
      ? { expand: async (query: string) => (await client.call("POST", "/expand", { query }, "ExpandResponse")).body as ExpansionResult }
      : {}),
  };
}
