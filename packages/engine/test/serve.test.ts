/**
 * `engine serve` (src/serve/server.ts): the target contract over HTTP on 127.0.0.1, port 0.
 * Each response is checked against the contract schema, as the suite's HTTP target checks it.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractProblems } from "../src/serve/contract.js";
import { type EngineServer, serveEngine } from "../src/serve/server.js";
import { smallCorpusEngine } from "./helpers.js";

const setup = smallCorpusEngine();
let server: EngineServer;
const TOKEN = "serve-test-token-7f3a";
let secured: EngineServer;
const logged: string[] = [];

beforeAll(async () => {
  server = await serveEngine(setup.engine, { port: 0, maxBodyBytes: 4096, log: (l) => logged.push(l) });
  secured = await serveEngine(setup.engine, { port: 0, token: TOKEN });
});
afterAll(async () => {
  await server?.close();
  await secured?.close();
});

async function call(
  path: string,
  init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  base = server,
) {
  const res = await fetch(`${base.url}${path}`, {
    method: init.method ?? (init.body !== undefined || init.raw !== undefined ? "POST" : "GET"),
    headers: { "content-type": "application/json", ...init.headers },
    ...(init.raw !== undefined ? { body: init.raw } : init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

describe("engine serve: the contract", () => {
  it("GET /health names the engine, its version, the index fingerprint and capabilities", async () => {
    const r = await call("/health");
    expect(r.status).toBe(200);
    expect(contractProblems("HealthResponse", r.json)).toEqual([]);
    expect(r.json.name).toBe("hybrid-search-engine");
    expect((r.json.fingerprint as { corpusHash: string }).corpusHash).toBe(setup.engine.fingerprint().corpusHash);
    expect((r.json.capabilities as { modes: string[] }).modes).toEqual(["search", "vsearch", "fast", "balanced", "thorough"]);
  });

  it.each(["search", "vsearch", "fast", "balanced", "thorough"] as const)(
    "POST /search in mode %s ranks as the engine does, with its trace",
    async (mode) => {
      const r = await call("/search", { body: { query: "cancel subscription", mode, limit: 5, traceDepth: 50 } });
      expect(r.status).toBe(200);
      expect(contractProblems("SearchResponse", r.json)).toEqual([]);
      const local =
        mode === "search"
          ? setup.engine.search("cancel subscription", { limit: 5 })
          : mode === "vsearch"
            ? await setup.engine.vsearch("cancel subscription", { limit: 5 })
            : await setup.engine.query("cancel subscription", { limit: 5, tier: mode });
      const hits = r.json.results as Array<{ docId: string; score: number }>;
      expect(hits.map((h) => [h.docId, h.score])).toEqual(local.results.map((h) => [h.docId, h.score]));
      expect((r.json.trace as Array<{ stage: string }>).map((s) => s.stage)).toEqual(local.trace.map((s) => s.stage));
      expect(r.headers.get("server-timing")).toMatch(/^engine;dur=\d+\.\d{3}$/);
    },
  );

  it("POST /ask answers with sources and citations; POST /expand expands", async () => {
    const r = await call("/ask", { body: { question: "How long does the Free plan keep deleted files?" } });
    expect(r.status).toBe(200);
    expect(contractProblems("AskResponse", r.json)).toEqual([]);
    expect(r.json.answer).toContain("30 days");
    const e = await call("/expand", { body: { query: "realtime sync" } });
    expect(contractProblems("ExpandResponse", e.json)).toEqual([]);
  });

  it("PUT /documents seeds a collection, DELETE /documents removes it", async () => {
    const put = await call("/documents", {
      method: "PUT",
      body: { collection: "seeded", documents: [{ id: "s-1", title: "Quokka care", text: "Quokkas need shade." }] },
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(put.json.documents).toBe(1);
    const found = await call("/search", { body: { query: "quokka", mode: "search", limit: 3, collection: "seeded" } });
    expect((found.json.results as Array<{ docId: string }>).map((h) => h.docId)).toEqual(["s-1"]);
    const del = await call("/documents?collection=seeded", { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(del.json.documents).toBe(0);
    const gone = await call("/search", { body: { query: "quokka", mode: "search", limit: 3 } });
    expect(gone.json.results).toEqual([]);
  });
});

describe("engine serve: refusals are JSON with a code and one line, never a stack", () => {
  const cases: Array<[string, Parameters<typeof call>, number, string, RegExp]> = [
    [
      "an unknown mode",
      ["/search", { body: { query: "x", mode: "hybrid", limit: 5 } }],
      400,
      "BAD_REQUEST",
      /\/mode: must be one of search, vsearch/,
    ],
    ["a missing limit", ["/search", { body: { query: "x", mode: "search" } }], 400, "BAD_REQUEST", /missing required field "limit"/],
    [
      "an unknown field",
      ["/search", { body: { query: "x", mode: "search", limit: 1, tier: "fast" } }],
      400,
      "BAD_REQUEST",
      /unknown field "tier"/,
    ],
    [
      "a limit out of range",
      ["/search", { body: { query: "x", mode: "search", limit: 10001 } }],
      400,
      "BAD_REQUEST",
      /\/limit: must be <= 10000/,
    ],
    ["a body that is not JSON", ["/search", { raw: "{query:" }], 400, "BAD_JSON", /not JSON/],
    [
      "a body over the limit",
      ["/search", { raw: JSON.stringify({ query: "x".repeat(5000), mode: "search", limit: 1 }) }],
      413,
      "BODY_TOO_LARGE",
      /larger than 4096 bytes/,
    ],
    ["an unknown route", ["/nope"], 404, "NOT_FOUND", /no route GET \/nope/],
    ["a wrong method", ["/search", { method: "GET" }], 405, "METHOD_NOT_ALLOWED", /answers POST/],
    ["DELETE without a collection", ["/documents", { method: "DELETE" }], 400, "BAD_REQUEST", /needs \?collection=/],
  ];
  it.each(cases)("%s", async (_name, args, status, code, message) => {
    const r = await call(...args);
    expect(r.status).toBe(status);
    expect(contractProblems("ErrorResponse", r.json)).toEqual([]);
    const error = r.json.error as { code: string; message: string };
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/\n|at .*\.ts:\d+/);
  });

  it("an engine error keeps its code; a bug is INTERNAL on the wire and logged on the server", async () => {
    const broken = await serveEngine(
      new Proxy(setup.engine, {
        get: (target, key) =>
          key === "search"
            ? () => {
                throw new Error("secret detail\n    at search (engine.ts:1:1)");
              }
            : Reflect.get(target, key),
      }),
      { port: 0, log: (l) => logged.push(l) },
    );
    try {
      const r = await call("/search", { body: { query: "x", mode: "search", limit: 1 } }, broken);
      expect(r.status).toBe(500);
      expect(r.json).toEqual({ error: { code: "INTERNAL", message: "internal error; the server's log has the details" } });
      expect(logged.at(-1)).toBe("engine serve: internal error: secret detail");
    } finally {
      await broken.close();
    }
  });
});

describe("engine serve: bearer token and concurrency", () => {
  it("refuses a missing or wrong token with 401, accepts the right one; /health stays open", async () => {
    const body = { query: "cancel", mode: "search", limit: 1 };
    expect((await call("/search", { body }, secured)).status).toBe(401);
    expect((await call("/search", { body, headers: { authorization: "Bearer wrong" } }, secured)).status).toBe(401);
    const ok = await call("/search", { body, headers: { authorization: `Bearer ${TOKEN}` } }, secured);
    expect(ok.status).toBe(200);
    expect(JSON.stringify(ok.json)).not.toContain(TOKEN);
    expect((await call("/health", {}, secured)).status).toBe(200);
  });

  it("runs at most `concurrency` requests at once and refuses beyond the queue with 503 BUSY", async () => {
    // The running calls are held until the refusals are in, so the outcome does not depend on how
    // fast this machine sends requests compared with how fast it answers them.
    let running = 0;
    let peak = 0;
    let release = (): void => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = new Proxy(setup.engine, {
      get: (target, key) =>
        key === "vsearch"
          ? async (...args: Parameters<typeof target.vsearch>) => {
              peak = Math.max(peak, ++running);
              await held;
              running--;
              return target.vsearch(...args);
            }
          : Reflect.get(target, key),
    });
    const limited = await serveEngine(slow, { port: 0, concurrency: 2, maxQueued: 3 });
    try {
      let refused = 0;
      const statuses = Promise.all(
        Array.from({ length: 8 }, () =>
          call("/search", { body: { query: "sync", mode: "vsearch", limit: 3 } }, limited).then((r) => {
            if (r.status === 503 && ++refused === 3) release();
            return r.status;
          }),
        ),
      );
      const done = await statuses;
      expect(peak).toBe(2);
      expect(done.filter((s) => s === 200)).toHaveLength(5);
      expect(done.filter((s) => s === 503)).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});

describe("pnpm engine serve", () => {
  it("prints its URL, serves, and stops on SIGTERM after answering (exit 0)", async () => {
    const cli = resolve(import.meta.dirname, "../src/entry.ts");
    const tsx = resolve(import.meta.dirname, "../../../node_modules/.bin/tsx");
    const child = spawn(tsx, [cli, "serve", "--db", join(setup.dir, "index.db"), "--port", "0"], {
      env: { ...process.env, ENGINE_SERVE_TOKEN: "" },
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    const url = await new Promise<string>((resolveUrl, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d;
        const m = /serving .* on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (m) resolveUrl(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    const exited = new Promise<number | null>((r) => child.on("exit", r));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toContain("engine: stopped");
  }, 30_000);

  it("refuses a bad --port with one line, exit 2", async () => {
    const cli = resolve(import.meta.dirname, "../src/entry.ts");
    const tsx = resolve(import.meta.dirname, "../../../node_modules/.bin/tsx");
    const child = spawn(tsx, [cli, "serve", "--db", join(setup.dir, "index.db"), "--port", "http"]);
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    expect(await new Promise((r) => child.on("exit", r))).toBe(2);
    expect(stderr).toBe('engine: --port must be an integer from 0 to 65535, got "http"\n');
  }, 30_000);
});
