/**
 * `engine serve` (src/serve/server.ts): the target contract over HTTP on 127.0.0.1, port 0.
 * Each response is checked against the contract schema, as the suite's HTTP target checks it.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { contractProblems, type Mode } from "@hybrid-search/target-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { Engine, type SearchOptions, type SearchResult } from "../src/index.js";
import { readContractDocuments } from "../src/serve/documents.js";
import { type EngineServer, SERVED_ROUTES, serveEngine } from "../src/serve/server.js";
import { SMALL_CORPUS, smallCorpusEngine, tempDir, writeFiles } from "./helpers.js";

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

/** What the engine in this process ranks for `mode`: the answer a served call must equal. */
async function rankLocally(engine: Engine, mode: Mode, query: string, options: SearchOptions): Promise<SearchResult> {
  if (mode === "search") return engine.search(query, options);
  if (mode === "vsearch") return engine.vsearch(query, options);
  return engine.query(query, { ...options, tier: mode });
}

async function call(
  path: string,
  init: { method?: string; body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string> } = {},
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
  it("answers exactly the routes docs/engine.md counts and docs/targets.md lists", async () => {
    const docs = (name: string) => readFileSync(resolve(import.meta.dirname, "../../../docs", name), "utf8");
    const count = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"][SERVED_ROUTES.length];
    expect(docs("engine.md")).toContain(`${count} JSON routes need no router`);
    const table = docs("targets.md");
    for (const route of SERVED_ROUTES) expect(table).toMatch(new RegExp(`^\\| \`${route.replace(/[/?]/g, "\\$&")}[\`?]`, "m"));
    // And nothing else: any other method on a served path is a 405, an unknown path a 404.
    expect((await call("/search", { method: "GET" })).status).toBe(405);
    expect((await call("/documents", { method: "POST", body: {} })).status).toBe(405);
    expect((await call("/nowhere")).status).toBe(404);
  });

  it("GET /health names the engine, its version, the index fingerprint and capabilities", async () => {
    const r = await call("/health");
    expect(r.status).toBe(200);
    expect(contractProblems("HealthResponse", r.json)).toEqual([]);
    expect(r.json.name).toBe("hybrid-search-engine");
    expect((r.json.fingerprint as { corpusHash: string }).corpusHash).toBe(setup.engine.fingerprint().corpusHash);
    expect((r.json.capabilities as { modes: string[] }).modes).toEqual(["search", "vsearch", "fast", "balanced", "thorough"]);
    // What a client sizes a seed by: this server's limits (maxBodyBytes 4096 here, the 64 MiB default for documents).
    expect(r.json.limits).toEqual({ bodyBytes: 4096, documentsBytes: 64 * 2 ** 20 });
  });

  it.each(["search", "vsearch", "fast", "balanced", "thorough"] as const)(
    "POST /search in mode %s ranks as the engine does, with its trace",
    async (mode) => {
      const r = await call("/search", { body: { query: "cancel subscription", mode, limit: 5, traceDepth: 50 } });
      expect(r.status).toBe(200);
      expect(contractProblems("SearchResponse", r.json)).toEqual([]);
      const local = await rankLocally(setup.engine, mode, "cancel subscription", { limit: 5 });
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

  it("POST /turn answers the turn trace, as the engine in this process turns; a bad surface is a 400", async () => {
    const body = { question: "Where can I find the article about the configuration file?", tools: ["catalog", "search"], maxSteps: 4 };
    const r = await call("/turn", { body });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(contractProblems("TurnResponse", r.json)).toEqual([]);
    expect(r.headers.get("server-timing")).toMatch(/^engine;dur=/);
    const local = await setup.engine.turn(body.question, { tools: ["catalog", "search"], maxSteps: 4 });
    const comparable = (t: Record<string, unknown>) => ({
      ...t,
      elapsedMs: 0,
      steps: (t.steps as Array<object>).map((s) => ({
        ...s,
        start: 0,
        end: 0,
        toolCalls: (s as { toolCalls: Array<object> }).toolCalls.map((c) => ({ ...c, durationMs: 0 })),
      })),
    });
    expect(comparable(r.json)).toEqual(comparable(JSON.parse(JSON.stringify(local))));
    expect((await call("/health")).json.capabilities).toMatchObject({ turn: true });
    const bad = await call("/turn", { body: { question: "q", tools: ["rm_rf"] } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: { code: "BAD_ARGUMENT", message: expect.stringMatching(/"tools".*rm_rf/) } });
    expect((await call("/turn", { body: { question: "q", maxSteps: 99 } })).status).toBe(400);
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

/** Dates in the past and future of any test run: validity at "now" is the same whenever the suite runs. */
const front = (fields: string, body: string): string => `---\n${fields}\n---\n${body}`;
const TEMPORAL: Record<string, string> = {
  "en/prices/plus-2023.md": front("validFrom: 2023-01-01", "# Plus plan price\n\nThe Plus plan costs 4.99 euros per month."),
  "en/prices/plus-2024.md": front(
    "validFrom: 2024-09-01\nsupersedes: en/prices/plus-2023.md",
    "# Plus plan price from September 2024\n\nThe Plus plan costs 5.99 euros per month.",
  ),
  "en/support/holiday-hours.md": front(
    "validFrom: 2024-12-20\nvalidUntil: 2025-01-06",
    "# Holiday support hours\n\nDuring the holidays the support desk answers from 10:00 to 14:00.",
  ),
  "notes/plain.txt": "Plain text notes\n\nSupport answers tickets on working days. Prices are listed per month.",
};

describe("engine serve: seeding a collection and the temporal fields", () => {
  const dir = tempDir("serve-seed-");
  let local: Engine;
  let empty: Engine;
  let seeding: EngineServer;
  beforeAll(async () => {
    writeFiles(join(dir, "corpus"), { ...SMALL_CORPUS, ...TEMPORAL });
    local = Engine.open(join(dir, "local.db"), { create: true });
    await local.index(join(dir, "corpus"), { collection: "corpus" });
    empty = Engine.open(join(dir, "empty.db"), { create: true });
    seeding = await serveEngine(empty, { port: 0, maxDocumentsBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await seeding?.close();
    local?.close();
    empty?.close();
  });
  const hits = (r: SearchResult | Record<string, unknown>) =>
    (r.results as SearchResult["results"]).map((h) => [h.docId, h.score, h.validity ?? null]);

  it("a folder read by the engine's readers and PUT into an empty index ranks exactly as the folder indexed; DELETE removes it", async () => {
    const corpus = readContractDocuments(join(dir, "corpus"));
    expect(corpus.ids).toBe("paths");
    const byId = new Map(corpus.documents.map((d) => [d.id, d]));
    expect(byId.get("notes/plain.txt")).toMatchObject({ format: "text", title: "plain" });
    expect(byId.get("en/prices/plus-2024.md")).toMatchObject({
      format: "markdown",
      language: "en",
      validFrom: "2024-09-01T00:00:00.000Z",
      supersedes: ["en/prices/plus-2023.md"],
    });
    const put = await call("/documents", { method: "PUT", body: { collection: "seeded", ...corpus } }, seeding);
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(contractProblems("DocumentsResponse", put.json)).toEqual([]);
    expect(put.json.documents).toBe(corpus.documents.length);
    const seeded = put.json.fingerprint as { documents: number; passages: number };
    expect([seeded.documents, seeded.passages]).toEqual([local.fingerprint().documents, local.fingerprint().passages]);

    const asked: Array<[string, Record<string, unknown>]> = [
      ["cancel subscription", {}],
      ["plus plan price per month", {}],
      ["plus plan price per month", { asOf: "2024-01-15" }],
      ["plus plan price per month", { includeSuperseded: true }],
      ["support hours holidays", { asOf: "2024-12-24T12:00:00+01:00", includeSuperseded: true }],
      // A path word: folder ids are searchable, as `engine index <folder>` makes them.
      ["decisions", {}],
    ];
    for (const mode of ["search", "vsearch", "fast", "balanced", "thorough"] as const)
      for (const [query, options] of asked) {
        const r = await call("/search", { body: { query, mode, limit: 10, collection: "seeded", ...options } }, seeding);
        expect(r.status, JSON.stringify(r.json)).toBe(200);
        expect(contractProblems("SearchResponse", r.json)).toEqual([]);
        const expected = await rankLocally(local, mode, query, { limit: 10, ...options });
        expect(hits(r.json), `${mode} ${query} ${JSON.stringify(options)}`).toEqual(hits(expected));
      }

    // Seeding again is idempotent: nothing changes, nothing is re-embedded.
    const again = await call("/documents", { method: "PUT", body: { collection: "seeded", ...corpus } }, seeding);
    expect((again.json.fingerprint as { corpusHash: string }).corpusHash).toBe((put.json.fingerprint as { corpusHash: string }).corpusHash);

    const del = await call("/documents?collection=seeded", { method: "DELETE" }, seeding);
    expect([del.status, del.json.documents, (del.json.fingerprint as { documents: number }).documents]).toEqual([200, 0, 0]);
    expect(empty.stats().collections).toEqual([]);
  });

  it("POST /search and /ask take asOf and includeSuperseded; hits and sources carry validity; the validity stage fits the contract", async () => {
    const base = { query: "plus plan price per month", mode: "search", limit: 5 };
    const now = await call("/search", { body: base });
    expect(contractProblems("SearchResponse", now.json)).toEqual([]);
    // The small corpus declares no validity: no hit carries it, and asOf changes nothing.
    expect((now.json.results as Array<{ validity?: unknown }>).every((h) => h.validity === undefined)).toBe(true);

    const put = await call(
      "/documents",
      { method: "PUT", body: { collection: "prices", ...readContractDocuments(join(dir, "corpus")) } },
      seeding,
    );
    expect(put.status).toBe(200);
    const before = await call("/search", { body: { ...base, asOf: "2024-01-15" } }, seeding);
    expect(contractProblems("SearchResponse", before.json)).toEqual([]);
    const ids = (r: { json: Record<string, unknown> }) => (r.json.results as Array<{ docId: string }>).map((h) => h.docId);
    expect(ids(before)).toContain("en/prices/plus-2023.md");
    expect(ids(before)).not.toContain("en/prices/plus-2024.md");
    expect((before.json.trace as Array<{ stage: string }>)[0]!.stage).toBe("validity");
    const stale = await call("/search", { body: { ...base, includeSuperseded: true } }, seeding);
    const old = (stale.json.results as Array<{ docId: string; validity?: { stale: boolean; reason?: string } }>).find(
      (h) => h.docId === "en/prices/plus-2023.md",
    );
    expect(old?.validity).toMatchObject({ stale: true, supersededBy: ["en/prices/plus-2024.md"] });
    expect(old?.validity?.reason).toMatch(/superseded by en\/prices\/plus-2024\.md/);

    const asked = await call(
      "/ask",
      { body: { question: "How much does the Plus plan cost per month?", asOf: "2024-01-15", collection: "prices" } },
      seeding,
    );
    expect(asked.status, JSON.stringify(asked.json)).toBe(200);
    expect(contractProblems("AskResponse", asked.json)).toEqual([]);
    expect(asked.json.answer).toContain("4.99");
    const sources = asked.json.sources as Array<{ docId: string; validity?: { stale: boolean } }>;
    expect(sources.find((s) => s.docId === "en/prices/plus-2023.md")?.validity).toMatchObject({ stale: false });
    await call("/documents?collection=prices", { method: "DELETE" }, seeding);
  });

  it.each<[string, unknown, number, string, RegExp]>([
    ["an asOf that is no date", { query: "x", mode: "search", limit: 1, asOf: "2024-13-45" }, 400, "BAD_ARGUMENT", /"asOf" to be a date/],
    [
      "includeSuperseded that is no boolean",
      { query: "x", mode: "search", limit: 1, includeSuperseded: "yes" },
      400,
      "BAD_REQUEST",
      /includeSuperseded: must be boolean/,
    ],
  ])("POST /search refuses %s", async (_name, body, status, code, message) => {
    const r = await call("/search", { body });
    expect([r.status, (r.json.error as { code: string }).code]).toEqual([status, code]);
    expect((r.json.error as { message: string }).message).toMatch(message);
  });

  it.each<[string, unknown[], number, string, RegExp]>([
    [
      "repeated ids",
      [
        { id: "a", text: "x" },
        { id: "a", text: "y" },
      ],
      400,
      "MALFORMED_RECORD",
      /documents\[1\]: id "a" repeats documents\[0\]/,
    ],
    [
      "a validFrom that is no date",
      [{ id: "a", text: "x", validFrom: "2024-02-30" }],
      400,
      "INVALID_VALIDITY",
      /validFrom "2024-02-30" is not a date/,
    ],
    [
      "a supersedes naming no document",
      [{ id: "a", text: "x", supersedes: ["b"] }],
      400,
      "INVALID_VALIDITY",
      /supersedes "b", which is not a document of this collection/,
    ],
    ["an unknown format", [{ id: "a", text: "x", format: "html" }], 400, "BAD_REQUEST", /format: must be one of markdown, text/],
    ["a body over the documents limit", [{ id: "a", text: "x".repeat(70_000) }], 413, "BODY_TOO_LARGE", /larger than 65536 bytes/],
  ])("PUT /documents refuses %s and writes nothing", async (_name, documents, status, code, message) => {
    const before = empty.fingerprint().corpusHash;
    const r = await call("/documents", { method: "PUT", body: { collection: "bad", documents } }, seeding);
    expect([r.status, (r.json.error as { code: string }).code]).toEqual([status, code]);
    expect((r.json.error as { message: string }).message).toMatch(message);
    expect(empty.fingerprint().corpusHash).toBe(before);
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
      // A lenient decode would search for (or store) "\uFFFDx" instead: a changed id, said nowhere.
      "a body that is not UTF-8",
      ["/search", { raw: Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xff]), Buffer.from('x","mode":"search","limit":1}')]) }],
      400,
      "BAD_JSON",
      /the body is not UTF-8 text: invalid byte 0xFF at offset 10/,
    ],
    [
      "a malformed language filter",
      ["/search", { body: { query: "x", mode: "search", limit: 1, language: "zz-ZZ-@@" } }],
      400,
      "BAD_ARGUMENT",
      /"language".*"zz-ZZ-@@" is not a BCP 47 language tag/,
    ],
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

  it("never quotes its token: an error message or a log line that would has it redacted", async () => {
    const lines: string[] = [];
    const leaky = await serveEngine(
      new Proxy(setup.engine, {
        get: (target, key) => {
          if (key === "search")
            return (query: string) => {
              throw new RangeError(`query "${query}" is not searchable`);
            };
          if (key === "vsearch")
            return () => {
              throw new Error(`upstream said ${TOKEN}`);
            };
          return Reflect.get(target, key);
        },
      }),
      { port: 0, token: TOKEN, log: (l) => lines.push(l) },
    );
    const headers = { authorization: `Bearer ${TOKEN}` };
    try {
      const refused = await call("/search", { body: { query: `x ${TOKEN}`, mode: "search", limit: 1 }, headers }, leaky);
      expect(refused.json).toEqual({ error: { code: "BAD_ARGUMENT", message: 'query "x [redacted]" is not searchable' } });
      expect((await call("/search", { body: { query: "x", mode: "vsearch", limit: 1 }, headers }, leaky)).status).toBe(500);
      expect(lines).toEqual(["engine serve: internal error: upstream said [redacted]"]);
      const lost = await call(`/${TOKEN}`, { headers }, leaky);
      expect(lost.json).toEqual({ error: { code: "NOT_FOUND", message: "no route GET /[redacted]; see docs/targets.md" } });
    } finally {
      await leaky.close();
    }
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
    // One process, `node --import tsx`: through the tsx wrapper, which relays signals to a child
    // node, a SIGTERM under load ended the wrapper itself (exit 143) instead of the server.
    const child = spawn(process.execPath, ["--import", "tsx", cli, "serve", "--db", join(setup.dir, "index.db"), "--port", "0"], {
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
    // In process, through the CLI's main(argv, io): the refusal comes before any server starts. The
    // process's exit status and streams are the test above's (and test/compiled-clis.test.ts's).
    let stdout = "";
    let stderr = "";
    const io = { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), env: process.env };
    expect(await main(["serve", "--db", join(setup.dir, "index.db"), "--port", "http"], io)).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe('engine: --port must be an integer from 0 to 65535, got "http"\n');
  });
});
