/**
 * The targets: the HTTP target against `engine serve` (same rankings, answers and traces as the
 * engine in-process) and against a misbehaving stub (500s, timeouts, wrong schema, a dropped
 * connection: each a labelled failure, never a ranking); the credential only in the request
 * header; recorded runs read back as the engine ranked them.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "@hybrid-search/engine";
import { CONTRACT_MODES } from "@hybrid-search/engine/contract";
import { formatTrecRun } from "@hybrid-search/engine/formats";
import { type EngineServer, serveEngine } from "@hybrid-search/engine/serve";
import { loadDataset, judgedCases } from "../dataset.js";
import { buildTempIndex, type TempIndex } from "../setup-db.js";
import { type httpTargetConfig, openHttpTarget } from "./http-target.js";
import { inProcessTarget } from "./in-process.js";
import { ANSWERS_FILE, openRecordedTarget, RUN_FILE } from "./recorded-target.js";
import { targetChoice, targetMode } from "./select.js";
import { type Target, TargetError } from "./target.js";

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

const config = (url: string, over: Partial<NonNullable<ReturnType<typeof httpTargetConfig>>> = {}) => ({
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
    const remote = await openHttpTarget(config(server.url, { name: "reference" }));
    expect(remote.name).toBe("reference");
    expect(remote.capabilities.modes).toEqual(CONTRACT_MODES);
    for (const mode of CONTRACT_MODES) {
      for (const c of cases.slice(0, 3)) {
        const request = { id: c.id, query: c.query, mode, limit: 10, traceDepth: 50 };
        const [a, b] = [await local.search(request), await remote.search(request)];
        expect(b.results.map((h) => [h.docId, h.score])).toEqual(a.results.map((h) => [h.docId, h.score]));
        expect(b.trace!.map((s) => [s.stage, s.output])).toEqual(a.trace!.map((s) => [s.stage, s.output]));
        expect(b.serverMs).toBeGreaterThan(0);
        expect(b.clientMs).toBeGreaterThanOrEqual(b.serverMs!);
      }
    }
  });

  it("answers as the engine in-process", async () => {
    const remote = await openHttpTarget(config(server.url));
    const question = "How many recovery codes do I get?";
    const [a, b] = [
      await local.ask({ id: "q", question, preset: "balanced" }),
      await remote.ask({ id: "q", question, preset: "balanced" }),
    ];
    const graded = (r: typeof a) => [r.answer, r.refused, r.refusal, r.citations, r.invalidCitations, r.sources, r.error];
    expect(graded(b)).toEqual(graded(a));
  });

  it("without the token: /health answers, a search is a labelled 401 failure", async () => {
    const remote = await openHttpTarget(config(server.url, { token: undefined }));
    const failure = await remote.search({ id: "x", query: "x", mode: "search", limit: 1 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TargetError);
    expect((failure as TargetError).reason).toBe("http 401");
    expect((failure as TargetError).message).toMatch(/^POST \/search: HTTP 401: UNAUTHORIZED missing or wrong bearer token/);
  });
});

/** A stub that misbehaves per path and records what it was sent. */
function stub(
  behave: (path: string, attempt: number, res: import("node:http").ServerResponse, req: import("node:http").IncomingMessage) => void,
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
      if (path === "/health")
        return json(res, 200, {
          name: "stub",
          version: "1",
          fingerprint: "stub-corpus",
          capabilities: { modes: ["search", "balanced"], ask: true, expand: false, documents: false, trace: false },
        });
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
      const target = await openHttpTarget(config(url, over));
      const error = await target.search(request).then(
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
      const target = await openHttpTarget(config(url));
      const r = await target.search(request);
      expect(r.results).toEqual([{ docId: "a.md", score: 1 }]);
      expect(r.trace).toBeNull();
      expect(r.serverMs).toBeNull();
      expect(s.attempts.get("/search")).toBe(2);
    } finally {
      await s.stop();
    }
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
    await expect(openHttpTarget(config("http://127.0.0.1:9", { retries: 0 }))).rejects.toThrow(
      /^EVAL_TARGET http:\/\/127\.0\.0\.1:9: GET \/health: connection failed/,
    );
  });
});

describe("choosing the target from the environment", () => {
  it("reads EVAL_TARGET, EVAL_RUN_DIR and their name; refuses both at once and credentials in the URL", () => {
    expect(targetChoice({})).toEqual({ kind: "in-process" });
    expect(targetChoice({ EVAL_TARGET: "http://127.0.0.1:8080/", EVAL_TARGET_NAME: "staging" })).toMatchObject({
      kind: "http",
      config: { url: "http://127.0.0.1:8080", name: "staging", timeoutMs: 10_000, retries: 2, concurrency: 4 },
    });
    expect(targetChoice({ EVAL_RUN_DIR: "runs/os-cluster" })).toEqual({ kind: "recorded", folder: "runs/os-cluster" });
    expect(() => targetChoice({ EVAL_TARGET: "http://x", EVAL_RUN_DIR: "r" })).toThrow("both set");
    expect(() => targetChoice({ EVAL_TARGET: "http://u:p@x" })).toThrow("must not carry credentials");
    expect(() => targetChoice({ EVAL_TARGET: "ftp://x" })).toThrow("http(s) URL");
    expect(() => targetChoice({ EVAL_TARGET: "http://x", EVAL_TARGET_TIMEOUT_MS: "soon" })).toThrow(
      'EVAL_TARGET_TIMEOUT_MS must be an integer ≥ 1, got "soon"',
    );
    expect(() => targetChoice({ EVAL_TARGET: "http://x", EVAL_TARGET_NAME: "my target" })).toThrow("EVAL_TARGET_NAME must be");
  });

  it("keys floors by target: the in-process engine keeps its configuration, others their kind and name", () => {
    expect(targetMode({ kind: "in-process", name: "offline" }, "offline")).toBe("offline");
    expect(targetMode({ kind: "http", name: "staging" }, "offline")).toBe("http:staging");
    expect(targetMode({ kind: "recorded", name: "os-cluster" }, "offline")).toBe("run:os-cluster");
  });
});

describe("recorded runs", () => {
  it("rank as the engine ranked, by case id; a missing mode is not served; a missing topic retrieved nothing", async () => {
    const folder = join(work, "recorded");
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    let run = "";
    for (const c of cases)
      run += formatTrecRun(c.id, (await local.search({ id: c.id, query: c.query, mode: "balanced", limit: 10 })).results, "t");
    writeFileSync(join(folder, RUN_FILE("balanced")), run);
    const recorded = openRecordedTarget(folder, new Set(cases.map((c) => c.id)), "cluster");
    expect(recorded.capabilities).toEqual({ modes: ["balanced"], ask: false, expand: false, trace: false });
    for (const c of cases) {
      const request = { id: c.id, query: c.query, mode: "balanced" as const, limit: 10 };
      expect((await recorded.search(request)).results).toEqual(
        (await local.search(request)).results.map((h) => ({ docId: h.docId, score: h.score })),
      );
    }
    expect((await recorded.search({ id: "not-in-run", query: "", mode: "balanced", limit: 10 })).results).toEqual([]);
    await expect(recorded.search({ id: cases[0]!.id, query: "", mode: "search", limit: 10 })).rejects.toThrow(/no search\.run in/);
    expect(() => openRecordedTarget(folder, new Set(["other-1"]))).toThrow(/holds none of the dataset's 1 query ids/);
  });

  it("read answers as `engine ask --batch` writes them; an unrecorded answer fails its case", async () => {
    const folder = join(work, "answers");
    mkdirSync(folder, { recursive: true });
    const a = await local.ask({ id: "a-1", question: "How many recovery codes do I get?", preset: "balanced" });
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
    const recorded = openRecordedTarget(folder, new Set());
    const b = await recorded.ask({ id: "a-1", question: a.question });
    expect([b.answer, b.citations, b.invalidCitations, b.sources, b.refused]).toEqual([
      a.answer,
      a.citations,
      a.invalidCitations,
      a.sources,
      a.refused,
    ]);
    await expect(recorded.ask({ id: "a-2", question: "?" })).rejects.toThrow(/no answer for "a-2"/);
    writeFileSync(join(folder, ANSWERS_FILE), '{"id":"x","answer":"y"}\n');
    expect(() => openRecordedTarget(folder, new Set())).toThrow(
      /answers\.jsonl:1: not an answer: \(the body\): missing required field "citations"/,
    );
  });
});
