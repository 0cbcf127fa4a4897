/**
 * The targets: the HTTP target against `engine serve` (same rankings, answers and traces as the
 * engine in-process) and against a misbehaving stub (500s, timeouts, wrong schema, a dropped
 * connection: each a labelled failure, never a ranking); the credential only in the request
 * header; recorded runs read back as the engine ranked them.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { observedAnswer, observedRanking } from "./observe.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "@hybrid-search/engine";
import { CONTRACT_MODES } from "@hybrid-search/target-contract";
import { formatTrecRun } from "@hybrid-search/engine/formats";
import { type EngineServer, serveEngine } from "@hybrid-search/engine/serve";
import { ConfigError } from "@hybrid-search/eval-gate";
import { loadDataset, judgedCases } from "../dataset.js";
import { TEMPORAL_DIR } from "../fixture-files.js";
import { buildTempIndex, type TempIndex } from "../setup-db.js";
import type { HttpTargetConfig } from "./http-client.js";
import { openHttpTarget } from "./http-target.js";
import { datasetDocuments, seedTarget } from "./seed.js";
import { inProcessTarget } from "./kinds/in-process.js";
import { chooseTarget, kindOf } from "./kinds/index.js";
import { ANSWERS_FILE, openRecordedTarget, RUN_FILE } from "./recorded-target.js";

import { type Target, type TargetAsk, TargetError, type TargetSearch } from "./target.js";

/** How these tests name a target: by its name. */
const named = (name: string): string => name;
/** A target's ranking and answer as the suite observes them (helpers/targets/observe.ts). */
const ranked = async (target: Target, request: TargetSearch) => observedRanking(await target.search(request));
const answered = async (target: Target, request: TargetAsk) => observedAnswer(request.question, await target.ask(request), target.label);

const TOKEN = "tgt-SECRET-9c1e55";
const dataset = loadDataset({});
const cases = judgedCases(dataset.cases).slice(0, 8);
let index: TempIndex;
let engine: Engine;
let server: EngineServer;
let local: Target;
const work = mkdtempSync(join(tmpdir(), "targets-test-"));

beforeAll(async () => {
  index = await buildTempIndex(dataset.corpus, { dataset: dataset.name, collection: dataset.collection });
  engine = Engine.open(index.dbPath);
  server = await serveEngine(engine, { port: 0, token: TOKEN });
  local = inProcessTarget(engine, "offline");
}, 60_000);
afterAll(async () => {
  await server?.close();
  engine?.close();
  index?.remove();
  rmSync(work, { recursive: true, force: true });
});

const config = (url: string, over: Partial<HttpTargetConfig> = {}) => ({
  url,
  token: TOKEN,
  timeoutMs: 2000,
  retries: 2,
  concurrency: 4,
  backoffMs: 5,
  ...over,
});

describe("HTTP target against engine serve", () => {
  it("ranks every mode exactly as the engine in-process, with the engine's trace and both timings", async () => {
    const remote = await openHttpTarget(config(server.url, { name: "reference" }), named);
    expect(remote.name).toBe("reference");
    expect(remote.capabilities.modes).toEqual(CONTRACT_MODES);
    for (const mode of CONTRACT_MODES) {
      for (const c of cases.slice(0, 3)) {
        const request = { id: c.id, query: c.query, mode, limit: 10, traceDepth: 50 };
        const [a, b] = [await ranked(local, request), await ranked(remote, request)];
        expect(b.results.map((h) => [h.docId, h.score])).toEqual(a.results.map((h) => [h.docId, h.score]));
        expect(b.trace!.map((s) => [s.stage, s.output])).toEqual(a.trace!.map((s) => [s.stage, s.output]));
        expect(b.serverMs).toBeGreaterThan(0);
        expect(b.clientMs).toBeGreaterThanOrEqual(b.serverMs!);
      }
    }
  });

  it("answers as the engine in-process", async () => {
    const remote = await openHttpTarget(config(server.url), named);
    const question = "How many recovery codes do I get?";
    const [a, b] = [
      await answered(local, { id: "q", question, preset: "balanced" }),
      await answered(remote, { id: "q", question, preset: "balanced" }),
    ];
    const graded = (r: typeof a) => [r.answer, r.refused, r.refusal, r.citations, r.invalidCitations, r.sources, r.error];
    expect(graded(b)).toEqual(graded(a));
  });

  it("without the token: /health answers, a search is a labelled 401 failure", async () => {
    const remote = await openHttpTarget(config(server.url, { token: undefined }), named);
    const failure = await ranked(remote, { id: "x", query: "x", mode: "search", limit: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TargetError);
    expect((failure as TargetError).reason).toBe("http 401");
    expect((failure as TargetError).message).toMatch(/^POST \/search: HTTP 401: UNAUTHORIZED missing or wrong bearer token/);
  });
});

/** A stub that misbehaves per path and records what it was sent. */
const STUB_HEALTH = {
  name: "stub",
  version: "1",
  fingerprint: "stub-corpus",
  capabilities: { modes: ["search", "balanced"], ask: true, expand: false, documents: false, trace: false },
};

function stub(
  behave: (path: string, attempt: number, res: import("node:http").ServerResponse, req: import("node:http").IncomingMessage) => void,
  health: object = STUB_HEALTH,
) {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
  const attempts = new Map<string, number>();
  const s: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => {
      body += d;
    });
    req.on("end", () => {
      const path = req.url ?? "/";
      seen.push({ path, headers: req.headers, body });
      const n = (attempts.get(path) ?? 0) + 1;
      attempts.set(path, n);
      if (path === "/health") return json(res, 200, health);
      behave(path, n, res, req);
    });
  });
  return {
    seen,
    attempts,
    start: () => new Promise<string>((r) => s.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`))),
    stop: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

function json(res: import("node:http").ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

describe("HTTP target against a misbehaving service", () => {
  const request = { id: "q-1", query: "cancel", mode: "search" as const, limit: 10 };
  const failureOf = async (behave: Parameters<typeof stub>[0], over = {}) => {
    const s = stub(behave);
    const url = await s.start();
    try {
      const target = await openHttpTarget(config(url, over), named);
      const error = await ranked(target, request).then(
        () => null,
        (e: unknown) => e,
      );
      return { error: error as TargetError | null, attempts: s.attempts.get("/search") ?? 0, seen: s.seen };
    } finally {
      await s.stop();
    }
  };

  it("a 500 is retried, then a labelled failure naming the status and the attempts", async () => {
    const r = await failureOf((_p, _n, res) => json(res, 500, { error: { code: "INTERNAL", message: "boom" } }));
    expect(r.error).toBeInstanceOf(TargetError);
    expect(r.error!.reason).toBe("http 500");
    expect(r.error!.message).toBe("POST /search: HTTP 500: INTERNAL boom (3 attempts)");
    expect(r.attempts).toBe(3);
  });

  it("a 503 followed by an answer succeeds on retry", async () => {
    const s = stub((_p, n, res) =>
      n === 1 ? json(res, 503, {}, { "retry-after": "0" }) : json(res, 200, { results: [{ docId: "a.md", score: 1 }] }),
    );
    const url = await s.start();
    try {
      const target = await openHttpTarget(config(url), named);
      const r = await ranked(target, request);
      expect(r.results).toEqual([{ docId: "a.md", score: 1 }]);
      expect(r.trace).toBeNull();
      expect(r.serverMs).toBeNull();
      expect(s.attempts.get("/search")).toBe(2);
    } finally {
      await s.stop();
    }
  });

  it("holds at most `concurrency` requests in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const s = stub((_p, _n, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, { results: [] });
      }, 30);
    });
    const url = await s.start();
    try {
      const target = await openHttpTarget(config(url, { concurrency: 2 }), named);
      await Promise.all(Array.from({ length: 8 }, (_, i) => target.search({ ...request, id: `q${i}` })));
      expect(s.attempts.get("/search")).toBe(8);
      expect(most).toBe(2);
    } finally {
      await s.stop();
    }
  });

  it("backs off exponentially between retries, and waits as long as Retry-After says", async () => {
    const arrivals: number[] = [];
    const gaps = () => arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    const backoff = await failureOf(
      (_p, _n, res) => {
        arrivals.push(performance.now());
        json(res, 502, {});
      },
      { retries: 3, backoffMs: 40 },
    );
    expect(backoff.error!.message).toBe("POST /search: HTTP 502 (4 attempts)");
    // 40, 80, 160 ms (a timer never fires early; a loaded machine only makes a gap longer).
    for (const [i, gap] of gaps().entries()) expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(40 * 2 ** i - 2);
    arrivals.length = 0;
    const told = await failureOf(
      (_p, _n, res) => {
        arrivals.push(performance.now());
        json(res, 429, {}, { "retry-after": "1" });
      },
      { retries: 1, backoffMs: 5 },
    );
    expect(told.error!.reason).toBe("http 429");
    expect(gaps()[0]).toBeGreaterThanOrEqual(998);
  });

  it("no answer within the timeout is a timeout failure", async () => {
    const r = await failureOf(() => undefined, { timeoutMs: 100, retries: 1 });
    expect(r.error!.reason).toBe("timeout");
    expect(r.error!.message).toBe("POST /search: no response within 100 ms (2 attempts)");
  });

  it("a dropped connection is a connection failure", async () => {
    const r = await failureOf((_p, _n, res) => res.socket?.destroy(), { retries: 0 });
    expect(r.error!.reason).toBe("connection");
    expect(r.error!.message).toMatch(/^POST \/search: connection failed \(/);
  });

  it.each([
    ["results missing", { hits: [] }, /not a SearchResponse: \(the body\): missing required field "results"/],
    ["a hit without docId", { results: [{ id: "a.md", score: 1 }] }, /\/results\/0: missing required field "docId"/],
    ["a score that is a string", { results: [{ docId: "a.md", score: "0.9" }] }, /\/results\/0\/score: must be number/],
  ])("a response with %s is a schema failure, not retried, never a ranking", async (_name, body, message) => {
    const r = await failureOf((_p, _n, res) => json(res, 200, body));
    expect(r.error!.reason).toBe("schema");
    expect(r.error!.message).toMatch(message);
    expect(r.attempts).toBe(1);
  });

  it("a body that is not JSON is a schema failure", async () => {
    const r = await failureOf((_p, _n, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>login</html>");
    });
    expect(r.error!.message).toBe("POST /search: the response is not JSON (18 bytes)");
  });

  it("the credential travels in the Authorization (or Cookie) header only, and is cut from any message", async () => {
    const echo = (_p: string, _n: number, res: import("node:http").ServerResponse, req: import("node:http").IncomingMessage) =>
      json(res, 400, { error: { code: "BAD", message: `you sent ${req.headers.authorization} and ${req.headers.cookie}` } });
    const r = await failureOf(echo, { cookie: `session=${TOKEN}x` });
    for (const s of r.seen) {
      expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(s.headers.cookie).toBe(`session=${TOKEN}x`);
      expect(s.path + s.body).not.toContain(TOKEN);
      const { authorization: _a, cookie: _c, ...rest } = s.headers;
      expect(JSON.stringify(rest)).not.toContain(TOKEN);
    }
    expect(r.error!.message).not.toContain(TOKEN);
    expect(r.error!.message).toContain("[redacted]");
  });

  it("a target that does not answer /health stops the run with one line", async () => {
    await expect(openHttpTarget(config("http://127.0.0.1:9", { retries: 0 }), named)).rejects.toThrow(
      /^EVAL_TARGET http:\/\/127\.0\.0\.1:9: GET \/health: connection failed/,
    );
  });
});

describe("choosing the target from the environment", () => {
  it("reads EVAL_TARGET, EVAL_RUN_DIR and their name; refuses both at once and credentials in the URL", () => {
    expect(chooseTarget({})).toEqual({ kind: "in-process", config: {} });
    expect(chooseTarget({ EVAL_TARGET: "http://127.0.0.1:8080/", EVAL_TARGET_NAME: "staging" })).toMatchObject({
      kind: "http",
      config: { http: { url: "http://127.0.0.1:8080", name: "staging", timeoutMs: 10_000, retries: 2, concurrency: 4 } },
    });
    expect(chooseTarget({ EVAL_RUN_DIR: "runs/os-cluster" })).toEqual({ kind: "recorded", config: { folder: "runs/os-cluster" } });
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_RUN_DIR: "r" })).toThrow("EVAL_TARGET and EVAL_RUN_DIR are both set");
    expect(() => chooseTarget({ EVAL_TARGET: "http://u:p@x" })).toThrow("must not carry credentials");
    expect(() => chooseTarget({ EVAL_TARGET: "ftp://x" })).toThrow("http(s) URL");
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_TIMEOUT_MS: "soon" })).toThrow(
      'EVAL_TARGET_TIMEOUT_MS must be a whole number from 1 to 2147483647, got "soon"',
    );
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_NAME: "my target" })).toThrow("EVAL_TARGET_NAME must be");
  });

  it("reads EVAL_TARGET_SEED, EVAL_TARGET_KEEP_SEED and EVAL_TARGET_SEED_TIMEOUT_MS; refuses them for a target they do not apply to, or malformed", () => {
    expect(chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_SEED: "eval-fixtures" })).toMatchObject({
      config: { http: { seed: { collection: "eval-fixtures", keep: false, timeoutMs: 600_000 } } },
    });
    expect(
      chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_SEED: "s", EVAL_TARGET_KEEP_SEED: "1", EVAL_TARGET_SEED_TIMEOUT_MS: "5000" }),
    ).toMatchObject({ config: { http: { seed: { collection: "s", keep: true, timeoutMs: 5000 } } } });
    expect((chooseTarget({ EVAL_TARGET: "http://x" }).config as { http: object }).http).not.toHaveProperty("seed");
    expect(() => chooseTarget({ EVAL_TARGET_SEED: "s" })).toThrow(
      "EVAL_TARGET_SEED is a setting of a service over HTTP or a target module, and this run measures the in-repo engine in this process (neither EVAL_TARGET nor EVAL_RUN_DIR is set); unset it",
    );
    expect(() => chooseTarget({ EVAL_RUN_DIR: "r", EVAL_TARGET_KEEP_SEED: "1" })).toThrow(
      "EVAL_TARGET_KEEP_SEED is a setting of a service over HTTP or a target module, and EVAL_RUN_DIR names recorded runs; unset it",
    );
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_KEEP_SEED: "1" })).toThrow(
      "EVAL_TARGET_KEEP_SEED keeps what EVAL_TARGET_SEED seeds; EVAL_TARGET_SEED is not set",
    );
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_SEED: "s", EVAL_TARGET_KEEP_SEED: "yes" })).toThrow(
      'EVAL_TARGET_KEEP_SEED must be 1 or 0, got "yes"',
    );
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_SEED: "my docs" })).toThrow(
      'EVAL_TARGET_SEED must name a collection of 1–200 letters, digits, ".", "_" or "-", got "my docs"',
    );
  });

  it("keys floors by target: the in-process engine keeps its configuration, others their kind and name", () => {
    const key = (kind: string, name: string) => kindOf({ kind }).floorsKey(name, "offline");
    expect(key("in-process", "offline")).toBe("offline");
    expect(key("http", "staging")).toBe("http:staging");
    expect(key("recorded", "os-cluster")).toBe("run:os-cluster");
    expect(key("module", "minisearch")).toBe("module:minisearch");
    expect(() => kindOf({ kind: "grpc" })).toThrow('no target kind "grpc"; the kinds are http, module, recorded, in-process');
  });

  it("reads a path in EVAL_TARGET as a target module, and EVAL_TARGET_ADAPTER beside a URL; refuses them mixed up", () => {
    expect(chooseTarget({ EVAL_TARGET: "examples/targets/minisearch.target.ts", EVAL_TARGET_SEED: "docs" })).toMatchObject({
      kind: "module",
      config: { given: "examples/targets/minisearch.target.ts", timeoutMs: 10_000, concurrency: 1, seed: { collection: "docs" } },
    });
    expect(
      chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_ADAPTER: "examples/targets/golden-qa.adapter.json", KB_KEY: TOKEN }),
    ).toMatchObject({ kind: "http", config: { adapter: { given: "examples/targets/golden-qa.adapter.json", env: { KB_KEY: TOKEN } } } });
    expect(() => chooseTarget({ EVAL_TARGET_ADAPTER: "examples/targets/golden-qa.adapter.json" })).toThrow(
      "EVAL_TARGET_ADAPTER is a setting of a service over HTTP, and this run measures the in-repo engine in this process (neither EVAL_TARGET nor EVAL_RUN_DIR is set); unset it",
    );
    expect(() =>
      chooseTarget({
        EVAL_TARGET: "examples/targets/minisearch.target.ts",
        EVAL_TARGET_ADAPTER: "examples/targets/golden-qa.adapter.json",
      }),
    ).toThrow("EVAL_TARGET_ADAPTER is a setting of a service over HTTP, and EVAL_TARGET names a target module; unset it");
    expect(() => chooseTarget({ EVAL_TARGET: "examples/targets/missing.target.ts" })).toThrow("no such file");
    expect(() => chooseTarget({ EVAL_TARGET: "http://x", EVAL_TARGET_ADAPTER: "examples/targets/golden-qa.adapter.json" })).toThrow(
      "{{env.KB_KEY}} names the environment variable KB_KEY, which is not set",
    );
  });
});

describe("recorded runs", () => {
  it("rank as the engine ranked, by case id; a missing mode is not served; a missing topic retrieved nothing", async () => {
    const folder = join(work, "recorded");
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    let run = "";
    for (const c of cases)
      run += formatTrecRun(c.id, (await ranked(local, { id: c.id, query: c.query, mode: "balanced", limit: 10 })).results, "t");
    writeFileSync(join(folder, RUN_FILE("balanced")), run);
    const recorded = openRecordedTarget(folder, new Set(cases.map((c) => c.id)), "cluster", named);
    expect(recorded.capabilities).toEqual({ modes: ["balanced"], ask: false, expand: false, trace: false, turn: false });
    for (const c of cases) {
      const request = { id: c.id, query: c.query, mode: "balanced" as const, limit: 10 };
      expect((await ranked(recorded, request)).results).toEqual(
        (await ranked(local, request)).results.map((h) => ({ docId: h.docId, score: h.score })),
      );
    }
    expect((await ranked(recorded, { id: "not-in-run", query: "", mode: "balanced", limit: 10 })).results).toEqual([]);
    await expect(recorded.search({ id: cases[0]!.id, query: "", mode: "search", limit: 10 })).rejects.toThrow(/no search\.run in/);
    expect(() => openRecordedTarget(folder, new Set(["other-1"]), undefined, named)).toThrow(/holds none of the dataset's 1 query ids/);
  });

  it("read answers as `engine ask --batch` writes them; an unrecorded answer fails its case", async () => {
    const folder = join(work, "answers");
    mkdirSync(folder, { recursive: true });
    const a = await answered(local, { id: "a-1", question: "How many recovery codes do I get?", preset: "balanced" });
    const line = {
      id: "a-1",
      question: a.question,
      answer: a.answer,
      citations: a.citations,
      refused: a.refused,
      answerer: a.answerer,
      preset: a.preset,
      sources: a.sources,
      invalidCitations: a.invalidCitations,
    };
    writeFileSync(join(folder, ANSWERS_FILE), `${JSON.stringify(line)}\n`);
    const recorded = openRecordedTarget(folder, new Set(), undefined, named);
    const b = await answered(recorded, { id: "a-1", question: a.question });
    expect([b.answer, b.citations, b.invalidCitations, b.sources, b.refused]).toEqual([
      a.answer,
      a.citations,
      a.invalidCitations,
      a.sources,
      a.refused,
    ]);
    await expect(recorded.ask({ id: "a-2", question: "?" })).rejects.toThrow(/no answer for "a-2"/);
    writeFileSync(join(folder, ANSWERS_FILE), '{"id":"x","answer":"y"}\n');
    expect(() => openRecordedTarget(folder, new Set(), undefined, named)).toThrow(
      /answers\.jsonl:1: not an answer: \(the body\): missing required field "citations"/,
    );
  });
});

describe("temporal fields through the HTTP target", () => {
  let temporal: Engine;
  let served: EngineServer;
  beforeAll(async () => {
    temporal = Engine.open(join(work, "temporal.db"), { create: true });
    await temporal.index(join(TEMPORAL_DIR, "corpus"), { collection: "temporal" });
    served = await serveEngine(temporal, { port: 0 });
  });
  afterAll(async () => {
    await served?.close();
    temporal?.close();
  });

  it("asOf and includeSuperseded reach the service; hits and sources carry validity exactly as in-process", async () => {
    const here = inProcessTarget(temporal, "offline");
    const there = await openHttpTarget(config(served.url, { token: undefined }), named);
    const view = (r: Awaited<ReturnType<typeof ranked>>) => r.results.map((h) => [h.docId, h.score, h.validity ?? null]);
    let staleSeen = 0;
    for (const mode of CONTRACT_MODES)
      for (const options of [
        { asOf: "2024-01-15" },
        { includeSuperseded: true },
        { asOf: new Date("2025-06-01T00:00:00Z"), includeSuperseded: true },
      ]) {
        const request = { id: "t", query: "Plus plan price per month", mode, limit: 10, ...options };
        const [a, b] = [await ranked(here, request), await ranked(there, request)];
        expect(view(b), `${mode} ${JSON.stringify(options)}`).toEqual(view(a));
        expect(b.trace![0]!.stage).toBe("validity");
        staleSeen += b.results.filter((h) => h.validity?.stale).length;
      }
    expect(staleSeen).toBeGreaterThan(0);
    const ask = { id: "a", question: "How much does the Plus plan cost per month?", asOf: "2024-01-15", includeSuperseded: true };
    const [a, b] = [await answered(here, ask), await answered(there, ask)];
    expect([b.answer, b.sources]).toEqual([a.answer, a.sources]);
    expect(b.sources.some((s) => s.validity !== undefined)).toBe(true);
  });
});

describe("seeding a target with the dataset's corpus (EVAL_TARGET_SEED)", () => {
  const lines: string[] = [];
  const io = { say: (l: string) => void lines.push(l), warn: (l: string) => void lines.push(`WARN ${l}`) };
  const seedOf = (over = {}) => ({ collection: "eval-fixtures", keep: false, timeoutMs: 5000, ...over });
  const SEEDABLE = { ...STUB_HEALTH, capabilities: { ...STUB_HEALTH.capabilities, documents: true } };
  const corpusSize = datasetDocuments(dataset).documents.length;

  it("reads the corpus with the engine's readers: the ids are the ones the judgments name", () => {
    const corpus = datasetDocuments(dataset);
    expect(corpus.ids).toBe("paths");
    const ids = new Set(corpus.documents.map((d) => d.id));
    for (const c of dataset.cases) for (const id of Object.keys(c.judgments)) expect(ids, `${c.id} judges ${id}`).toContain(id);
    expect(corpus.documents.every((d) => d.format === "markdown" && typeof d.language === "string")).toBe(true);
  });

  it("engine serve on an empty index, seeded, ranks as the in-process engine on the dataset's index; the release deletes the collection", async () => {
    const emptyEngine = Engine.open(join(work, "empty.db"), { create: true });
    const s = await serveEngine(emptyEngine, { port: 0, token: TOKEN });
    lines.length = 0;
    try {
      const seed = seedOf({ timeoutMs: 60_000 });
      const remote = await openHttpTarget(config(s.url, { seed }), named);
      const session = await seedTarget(remote, dataset, seed, io);
      expect(session.documents).toBe(corpusSize);
      expect(lines).toEqual([
        expect.stringMatching(
          /^eval: seeded collection eval-fixtures of target hybrid-search-engine \(http:\/\/127\.0\.0\.1:\d+\) with the \d+ documents of dataset fixtures in [\d.]+ s; deleted after the run$/,
        ),
      ]);
      const seeded = session.fingerprint as unknown as { documents: number; passages: number };
      expect([seeded.documents, seeded.passages]).toEqual([index.fingerprint.documents, index.fingerprint.passages]);
      for (const mode of CONTRACT_MODES)
        for (const c of cases.slice(0, 3)) {
          const request = { id: c.id, query: c.query, mode, limit: 10, traceDepth: 50 };
          const [a, b] = [await ranked(local, request), await ranked(remote, request)];
          expect(b.results.map((h) => [h.docId, h.score])).toEqual(a.results.map((h) => [h.docId, h.score]));
        }
      await session.release();
      await session.release();
      expect(lines.slice(1)).toEqual([
        expect.stringMatching(/^eval: deleted the seeded collection eval-fixtures of target hybrid-search-engine /),
      ]);
      expect(emptyEngine.stats().collections).toEqual([]);
      expect(lines.join("\n")).not.toContain(TOKEN);
    } finally {
      await s.close();
      emptyEngine.close();
    }
  });

  /** Seeds through a stub that answers PUT and DELETE with `behave`; the error it stops with, if any. */
  const seedThrough = async (behave: Parameters<typeof stub>[0], health: object = SEEDABLE, seed = seedOf()) => {
    const s = stub(behave, health);
    const url = await s.start();
    lines.length = 0;
    try {
      const target = await openHttpTarget(config(url, { seed, cookie: `sid=${TOKEN}` }), named);
      const session = await seedTarget(target, dataset, seed, io).catch((e: unknown) => e as Error);
      return { session, seen: s.seen, url, target };
    } finally {
      await s.stop();
    }
  };
  const put = (seen: Array<{ path: string }>) => seen.filter((r) => r.path === "/documents");
  const deletes = (seen: Array<{ path: string }>) => seen.filter((r) => r.path.startsWith("/documents?"));

  it("a target without the documents capability stops the run with one line, before anything is sent", async () => {
    const r = await seedThrough(() => undefined, STUB_HEALTH);
    expect(r.session).toBeInstanceOf(ConfigError);
    expect((r.session as Error).message).toBe(
      `EVAL_TARGET_SEED: target stub (${r.url}) does not take documents (its /health says capabilities.documents: false); index the dataset into it yourself and unset EVAL_TARGET_SEED`,
    );
    expect(r.seen.map((x) => x.path)).toEqual(["/health"]);
  });

  it("a corpus over the target's body limit is refused before sending, saying so and what to do", async () => {
    const r = await seedThrough(() => undefined, { ...SEEDABLE, limits: { documentsBytes: 1024 } });
    expect((r.session as Error).message).toMatch(
      new RegExp(
        `^EVAL_TARGET_SEED: seeding collection eval-fixtures of target stub \\(${r.url.replace(/\./g, "\\.")}\\) with the ${corpusSize} documents of dataset fixtures failed: PUT /documents: the ${corpusSize} documents are [\\d.]+ KiB in one request, and the target takes at most 1\\.0 KiB \\(its /health limits\\.documentsBytes\\); one PUT /documents seeds a whole collection: raise the target's limit \\(engine serve --max-documents-body <bytes>\\), or index the corpus into the target yourself and unset EVAL_TARGET_SEED$`,
      ),
    );
    expect(put(r.seen)).toHaveLength(0);
    expect(deletes(r.seen)).toHaveLength(0);
  });

  it("a PUT that fails is retried, then stops the run naming the failure, after deleting what it may have written", async () => {
    const r = await seedThrough((path, _n, res, req) =>
      path === "/documents"
        ? json(res, 500, { error: { code: "INTERNAL", message: `boom ${req.headers.authorization}` } })
        : json(res, 200, { collection: "eval-fixtures", documents: 0 }),
    );
    expect((r.session as Error).message).toMatch(
      /failed: PUT \/documents: HTTP 500: INTERNAL boom Bearer \[redacted\] \(3 attempts\); whatever it seeded was deleted$/,
    );
    expect(put(r.seen)).toHaveLength(3);
    expect(deletes(r.seen).map((x) => x.path)).toEqual(["/documents?collection=eval-fixtures"]);
    for (const x of r.seen) expect([x.headers.authorization, x.headers.cookie]).toEqual([`Bearer ${TOKEN}`, `sid=${TOKEN}`]);
  });

  it("a 413 says the corpus is too large for one request; a target then holding another number of documents fails the seed", async () => {
    const tooLarge = await seedThrough((path, _n, res) =>
      path === "/documents"
        ? json(res, 413, { error: { code: "BODY_TOO_LARGE", message: "the body is larger than 10 bytes" } })
        : json(res, 200, { collection: "eval-fixtures", documents: 0 }),
    );
    expect((tooLarge.session as Error).message).toMatch(
      /failed: PUT \/documents: HTTP 413: BODY_TOO_LARGE the body is larger than 10 bytes; one PUT \/documents seeds a whole collection: raise .*; whatever it seeded was deleted$/,
    );
    const short = await seedThrough((path, _n, res) =>
      json(res, 200, { collection: "eval-fixtures", documents: path === "/documents" ? 3 : 0 }),
    );
    expect((short.session as Error).message).toMatch(
      /the target says the collection holds 3; its scores would not be the dataset's; whatever it seeded was deleted$/,
    );
  });

  it("scopes every search and ask to the collection, takes the seed's fingerprint, and reports a DELETE that fails with what to do", async () => {
    const s = stub((path, _n, res, req) => {
      if (path === "/documents") return json(res, 200, { collection: "eval-fixtures", documents: corpusSize, fingerprint: "seeded-7" });
      if (path === "/search") return json(res, 200, { results: [] });
      if (path === "/ask") return json(res, 200, { answer: "", citations: [], refused: true, sources: [] });
      json(res, 400, { error: { code: "NOPE", message: `not with ${req.headers.authorization}` } });
    }, SEEDABLE);
    const url = await s.start();
    lines.length = 0;
    try {
      const seed = seedOf();
      const target = await openHttpTarget(config(url, { seed }), named);
      const session = await seedTarget(target, dataset, seed, io);
      expect(session.fingerprint).toBe("seeded-7");
      await ranked(target, { id: "q", query: "x", mode: "search", limit: 3, collection: "other" });
      await answered(target, { id: "a", question: "x?" });
      const bodies = s.seen
        .filter((x) => x.path === "/search" || x.path === "/ask")
        .map((x) => JSON.parse(x.body) as { collection?: string });
      expect(bodies.map((b) => b.collection)).toEqual(["eval-fixtures", "eval-fixtures"]);
      const sent = JSON.parse(s.seen.find((x) => x.path === "/documents")!.body) as {
        collection: string;
        ids: string;
        documents: unknown[];
      };
      expect([sent.collection, sent.ids, sent.documents.length]).toEqual(["eval-fixtures", "paths", corpusSize]);
      await session.release();
      expect(lines.at(-1)).toBe(
        `WARN eval: WARNING: the seeded collection eval-fixtures of target stub (${url}) was not deleted (DELETE /documents?collection=eval-fixtures: HTTP 400: NOPE not with Bearer [redacted]); remove it with DELETE ${url}/documents?collection=eval-fixtures (with the run's token or cookie), or a later run with EVAL_TARGET_SEED=eval-fixtures replaces and deletes it; this run's verdict does not depend on it`,
      );
    } finally {
      await s.stop();
    }
  });

  it("EVAL_TARGET_KEEP_SEED keeps the collection and says how to remove it", async () => {
    const r = await seedThrough(
      (_p, _n, res) => json(res, 200, { collection: "eval-fixtures", documents: corpusSize }),
      SEEDABLE,
      seedOf({ keep: true }),
    );
    const session = r.session as Awaited<ReturnType<typeof seedTarget>>;
    await session.release();
    expect(lines.at(-1)).toBe(
      `eval: kept the seeded collection eval-fixtures of target stub (${r.url}) (EVAL_TARGET_KEEP_SEED=1); remove it with DELETE ${r.url}/documents?collection=eval-fixtures`,
    );
    expect(deletes(r.seen)).toHaveLength(0);
  });

  it("releaseSync deletes from a process that is exiting, with the credential in the header only", async () => {
    // The synchronous call blocks this process: the target must be another one.
    const child = spawn(process.execPath, ["-e", SEEDABLE_STUB], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, N: String(corpusSize) },
    });
    const log: string[] = [];
    const url = await new Promise<string>((ok) => {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => {
        out += d;
        const lines = out.split("\n");
        out = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith("http://")) ok(line);
          else log.push(line);
        }
      });
    });
    lines.length = 0;
    try {
      const seed = seedOf();
      const target = await openHttpTarget(config(url, { seed }), named);
      const session = await seedTarget(target, dataset, seed, io);
      session.releaseSync("interrupted (SIGINT)");
      session.releaseSync("again");
      await new Promise((r) => setTimeout(r, 200));
      expect(lines.slice(1)).toEqual([
        `WARN eval: interrupted (SIGINT): deleting the seeded collection eval-fixtures of target stub (${url})`,
        `eval: deleted the seeded collection eval-fixtures of target stub (${url})`,
      ]);
      const deleted = log
        .map((l) => JSON.parse(l) as { method: string; url: string; authorization: string })
        .filter((r) => r.method === "DELETE");
      expect(deleted).toEqual([{ method: "DELETE", url: "/documents?collection=eval-fixtures", authorization: `Bearer ${TOKEN}` }]);
    } finally {
      child.kill();
    }
  });
});

/** A seedable target in its own process: prints its URL, then one JSON line per request. */
const SEEDABLE_STUB = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    console.log(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization }));
    const send = (v) => { res.writeHead(200, { "content-type": "application/json" }); res.end(JSON.stringify(v)); };
    if (req.url === "/health") return send({ name: "stub", version: "1", fingerprint: "f", capabilities: { modes: ["search"], ask: false, expand: false, documents: true, trace: false } });
    send({ collection: "eval-fixtures", documents: req.method === "PUT" ? Number(process.env.N) : 0 });
  });
});
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port));
`;
