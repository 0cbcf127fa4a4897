/**
 * Adapters: the file checked with one line naming it and the JSON Pointer of the problem; the
 * requests filled from templates; the responses mapped by pointer, header, text body and
 * server-sent events; each way a service's answer can miss its mapping one labelled line; every
 * environment variable the adapter names redacted like the token.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { observedAnswer, observedRanking } from "./observe.js";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "@hybrid-search/eval-gate";
import type { Adapter } from "@hybrid-search/target-contract/adapter";
import { loadAdapter } from "./adapter-file.js";
import { adapterRequest } from "./adapter-request.js";
import { atPointer } from "./adapter-response.js";
import { openAdapterTarget } from "./adapter-target.js";
import { type Target, type TargetAsk, TargetError, type TargetSearch } from "./target.js";

/** How these tests name a target: as a run names one of its kind. */
const named = (name: string): string => `http:${name}`;
/** A target's ranking and answer as the suite observes them (helpers/targets/observe.ts). */
const ranked = async (target: Target, request: TargetSearch) => observedRanking(await target.search(request));
const answered = async (target: Target, request: TargetAsk) => observedAnswer(request.question, await target.ask(request), target.label);

const SECRET = "adp-SECRET-7e21c9";
const work = mkdtempSync(join(tmpdir(), "adapter-target-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(work, name);
  writeFileSync(path, typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2));
  return path;
}

const ADAPTER: Adapter = {
  name: "svc",
  headers: { "x-key": "{{env.SVC_KEY}}" },
  search: {
    search: {
      request: {
        method: "POST",
        path: "/idx/{{collection}}/q",
        query: { lang: "{{language}}" },
        json: { q: "{{query}}", n: "{{limit}}", lang: "{{language}}" },
      },
      response: { results: { list: "/hits", docId: "/doc/id", score: "/s", snippet: "/text" }, elapsedMs: { pointer: "/took" } },
    },
    vsearch: {
      request: { method: "GET", path: "/ids", query: { q: "{{query}}" } },
      response: { results: { header: "x-ids", delimiter: ";" } },
    },
  },
  ask: {
    request: { method: "POST", path: "/ask", form: { q: "{{question}}" } },
    response: { answer: { body: "sse", pointer: "/delta" }, citations: { header: "x-docs", delimiter: "," } },
  },
};

const sendJson = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
};

describe("loadAdapter", () => {
  it("refuses a file that is missing, not JSON, of the wrong shape, or names an unset environment variable, in one line", () => {
    const one = (given: string, env: NodeJS.ProcessEnv = { SVC_KEY: SECRET }) => {
      try {
        loadAdapter(given, env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message.replace(work, "<dir>");
      }
      return "no error";
    };
    expect(one(join(work, "none.json"))).toBe("EVAL_TARGET_ADAPTER <dir>/none.json: file not found");
    expect(one(file("bad.json", '{\n  "name": "x",\n  "search": {,}\n}'))).toBe(
      'EVAL_TARGET_ADAPTER <dir>/bad.json: [invalid-json] invalid JSON at line 3, column 14: expected a double-quoted property name but found ","',
    );
    expect(one(file("null.json", "null"))).toBe(
      "EVAL_TARGET_ADAPTER <dir>/null.json: [schema] the file is null (JSON null); expected a JSON object { … }",
    );
    expect(one(file("utf16.json", Buffer.from(`\ufeff${JSON.stringify(ADAPTER)}`, "utf16le")))).toBe(
      "EVAL_TARGET_ADAPTER <dir>/utf16.json: [encoding] the file is UTF-16LE (byte-order mark FF FE) text, not UTF-8: save it as UTF-8",
    );
    expect(one(file("unknown.json", { ...ADAPTER, ask: { ...ADAPTER.ask, response: { answer: { body: "text" }, cited: {} } } }))).toBe(
      'EVAL_TARGET_ADAPTER <dir>/unknown.json: /ask/response: unknown field "cited"',
    );
    expect(one(file("env.json", ADAPTER), {})).toBe(
      "EVAL_TARGET_ADAPTER <dir>/env.json: /headers/x-key: {{env.SVC_KEY}} names the environment variable SVC_KEY, which is not set",
    );
    expect(one(file("short.json", ADAPTER), { SVC_KEY: "k" })).toBe(
      "EVAL_TARGET_ADAPTER <dir>/short.json: /headers/x-key: {{env.SVC_KEY}}: SVC_KEY is 1 character long: a credential shorter than 8 characters would be redacted out of ordinary words in every message and report; use the real credential",
    );
    expect(loadAdapter(file("ok.json", ADAPTER), { SVC_KEY: SECRET })).toMatchObject({ env: { SVC_KEY: SECRET } });
  });
});

describe("an adapter's requests", () => {
  const loaded = { adapter: ADAPTER, env: { SVC_KEY: SECRET } };
  it("fill templates: a whole {{field}} keeps its type, an absent one leaves its member out, a path's values are percent-encoded", () => {
    const request = adapterRequest(
      ADAPTER.search!.search!.request,
      { query: "a b", limit: 10, collection: "en/x" },
      loaded,
      "/search/search/request",
    );
    expect(request).toEqual({ method: "POST", path: "/idx/en%2Fx/q", headers: { "x-key": SECRET }, body: '{"q":"a b","n":10}' });
    expect(adapterRequest(ADAPTER.ask!.request, { question: "why & how?" }, loaded, "/ask/request")).toMatchObject({
      body: "q=why+%26+how%3F",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(() => adapterRequest(ADAPTER.search!.search!.request, { query: "a", limit: 1 }, loaded, "/search/search/request")).toThrow(
      "the adapter's /search/search/request/path puts {{collection}} into a text, and this call has no collection",
    );
  });

  it("reads JSON Pointers as RFC 6901 says", () => {
    const doc = { a: [{ "b/c": 1, "d~e": 2 }], "": 3 };
    expect([
      atPointer(doc, ""),
      atPointer(doc, "/a/0/b~1c"),
      atPointer(doc, "/a/0/d~0e"),
      atPointer(doc, "/"),
      atPointer(doc, "/a/1"),
      atPointer(doc, "/a/01"),
    ]).toEqual([doc, 1, 2, 3, undefined, undefined]);
  });
});

describe("an adapter's target against a service", () => {
  it("maps results, answers, citations and times; each answer that misses its mapping is one labelled line; the secret stays in the header", async () => {
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    let mode = "ok";
    const sse = (res: ServerResponse, headers: Record<string, string>) => {
      res.writeHead(200, { "content-type": "text/event-stream", ...headers });
      res.end('data: {"delta":"Twelve "}\n\ndata: {"delta":"days."}\n\ndata: [DONE]\n\n');
    };
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        seen.push(req.headers);
        if (req.url?.startsWith("/ids")) return sendJson(res, 200, {}, { "x-ids": "b.md; a.md;" });
        if (req.url === "/ask") return mode === "no header" ? sse(res, {}) : sse(res, { "x-docs": "a.md,b.md" });
        if (mode === "500") return sendJson(res, 500, { error: { code: "DOWN", message: `key ${req.headers["x-key"]} refused` } });
        if (mode === "nothing") return sendJson(res, 200, { results: [] });
        if (mode === "text") return res.end("<html>busy</html>");
        if (mode === "no id") return sendJson(res, 200, { hits: [{ doc: {}, s: 1 }] });
        sendJson(res, 200, {
          took: 4,
          hits: [
            { doc: { id: "a.md" }, s: 2.5, text: "snippet" },
            { doc: { id: 7 }, s: "1.5" },
          ],
        });
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const config = {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        timeoutMs: 5000,
        retries: 1,
        backoffMs: 1,
        concurrency: 2,
        seed: { collection: "c1", keep: false, timeoutMs: 5000 },
      };
      const target = await openAdapterTarget(config, { given: "svc.json", adapter: ADAPTER, env: { SVC_KEY: SECRET } }, named);
      expect(target).toMatchObject({ name: "svc", kind: "http", capabilities: { modes: ["search", "vsearch"], ask: true, expand: false } });
      expect(target.health.fingerprint).toBe("not reported (the adapter reads no fingerprint)");
      const ranking = await ranked(target, { id: "q", query: "refund", mode: "search", limit: 5 });
      expect(ranking).toMatchObject({
        results: [
          { docId: "a.md", score: 2.5, snippet: "snippet" },
          { docId: "7", score: 1.5 },
        ],
        serverMs: 4,
        trace: null,
      });
      // Ids from a header, best first: each scores by its rank.
      expect((await ranked(target, { id: "q", query: "x", mode: "vsearch", limit: 5 })).results).toEqual([
        { docId: "b.md", score: 2 },
        { docId: "a.md", score: 1 },
      ]);
      const answer = await answered(target, { id: "a", question: "How long?" });
      expect(answer).toMatchObject({
        answer: "Twelve days.",
        refused: false,
        answerFormat: "text",
        citations: [
          { ref: 1, docId: "a.md" },
          { ref: 2, docId: "b.md" },
        ],
        sources: [],
        answerer: "http:svc",
      });
      const failure = async (
        m: string,
        call: () => Promise<unknown> = () => target.search({ id: "q", query: "x", mode: "search", limit: 5 }),
      ) => {
        mode = m;
        const error = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, m).toBeInstanceOf(TargetError);
        return (error as Error).message;
      };
      expect(await failure("500")).toBe("POST /idx/c1/q: HTTP 500: DOWN key [redacted] refused (2 attempts)");
      expect(await failure("nothing")).toBe(
        'POST /idx/c1/q: the adapter\'s /search/search/response/results/list (pointer "/hits") found nothing in the response',
      );
      expect(await failure("text")).toBe(
        "POST /idx/c1/q: the response is not JSON (17 bytes), and the adapter's /search/search/response/results/list reads it by pointer",
      );
      expect(await failure("no id")).toBe(
        'POST /idx/c1/q: the adapter\'s /search/search/response/results/docId (pointer "/doc/id") found nothing in item 0 of the list',
      );
      expect(await failure("no header", () => target.ask({ id: "a", question: "How long?" }))).toBe(
        "POST /ask: the response has no x-docs header, which the adapter's /ask/response/citations reads",
      );
      expect(seen.every((h) => h["x-key"] === SECRET)).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});
