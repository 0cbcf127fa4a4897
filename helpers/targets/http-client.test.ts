/**
 * The HTTP client's two promises about credentials: a redirect never carries them to another
 * origin (refused with one line; within the origin it is followed), and a key templated into a
 * path or a query, which goes out percent-encoded, is redacted from every message in that form too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adapterRequest } from "./adapter-request.js";
import { HttpClient, type HttpTargetConfig, statusChecked } from "./http-client.js";
import { TargetError } from "./target.js";

const KEY = "AbC+dEf/GhI=";
const TOKEN = "cli-SECRET-51d7e0";

interface Seen {
  server: "home" | "elsewhere";
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}
const seen: Seen[] = [];
const urls: Record<Seen["server"], string> = { home: "", elsewhere: "" };
let child: ChildProcess;

/**
 * The service and another origin, in a process of their own (a synchronous request blocks this
 * one): each prints `<name> <url>`, then one JSON line per request it received.
 */
const STUBS = `
const http = require("node:http");
function listen(name, handle) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      console.log(JSON.stringify({ server: name, method: req.method, url: req.url, headers: req.headers, body }));
      handle(req.url, res);
    });
  });
  server.listen(0, "127.0.0.1", () => console.log(name + " http://127.0.0.1:" + server.address().port));
  return server;
}
const elsewhere = listen("elsewhere", (url, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end("{}"); });
listen("home", (url, res) => {
  const to = (status, location) => { res.writeHead(status, { location }); res.end(); };
  if (url.startsWith("/away")) return to(307, "http://127.0.0.1:" + elsewhere.address().port + "/stolen" + url.slice(5));
  if (url.startsWith("/moved")) return to(307, "/here" + url.slice(6));
  if (url.startsWith("/see-other")) return to(303, "/here");
  if (url.startsWith("/loop")) return to(302, "/loop");
  if (url.startsWith("/down")) {
    res.writeHead(500, { "content-type": "application/json" });
    return res.end(JSON.stringify({ error: { code: "DOWN", message: "cannot serve " + url } }));
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ ok: true }));
});
`;

beforeAll(async () => {
  child = spawn(process.execPath, ["-e", STUBS], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((ok) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      const lines = out.split("\n");
      out = lines.pop()!;
      for (const line of lines) {
        const [name, url] = line.split(" ");
        if (line.startsWith("{")) seen.push(JSON.parse(line) as Seen);
        else urls[name as Seen["server"]] = url!;
        if (urls.home && urls.elsewhere && !line.startsWith("{")) ok();
      }
    });
  });
});
afterAll(() => {
  child.kill();
});

/** The requests the stubs logged, once their lines have arrived. */
async function logged(count: number): Promise<Seen[]> {
  for (let i = 0; i < 100 && seen.length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return seen;
}

const config = (): HttpTargetConfig => ({ url: urls.home, token: TOKEN, timeoutMs: 5000, retries: 1, concurrency: 2, backoffMs: 1 });
const client = () => new HttpClient(config(), [KEY]);
const status = (response: { status: number; text: string }) => {
  statusChecked({ ...response, retryAfter: null, serverTiming: null, headers: {} });
  return response.text;
};

async function failure(run: () => Promise<unknown> | unknown): Promise<TargetError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(TargetError);
    return error as TargetError;
  }
  throw new Error("expected a TargetError");
}

describe("HttpClient: redirects", () => {
  it("refuses a redirect to another origin with one line, and the other origin receives nothing", async () => {
    seen.length = 0;
    const request = { method: "POST" as const, path: `/away?key=${encodeURIComponent(KEY)}`, headers: { "x-api-key": KEY }, body: "{}" };
    const error = await failure(() => client().send(request, status));
    expect(error.reason).toBe("redirect");
    expect(error.message).toBe(
      `POST /away?key=[redacted]: redirected (HTTP 307) to another origin (${urls.elsewhere}); credentials are only ever sent to ${urls.home}: set EVAL_TARGET to the service's own address`,
    );
    expect((await logged(1)).map((s) => s.server)).toEqual(["home"]);
    const sync = await failure(() => client().sendSync(request, status));
    expect(sync.reason).toBe("redirect");
    expect(sync.message).toContain("redirected to another origin");
    expect(sync.message).not.toContain(KEY);
    expect((await logged(2)).map((s) => s.server)).toEqual(["home", "home"]);
  });

  it("follows a redirect within the origin: a 307 keeps method, body and headers; a 303 becomes a GET", async () => {
    seen.length = 0;
    expect(await client().send({ method: "POST", path: "/moved/1", headers: { "x-api-key": KEY }, body: '{"q":1}' }, status)).toBe(
      '{"ok":true}',
    );
    expect((await logged(2)).map((s) => [s.method, s.url, s.body, s.headers["x-api-key"], s.headers.authorization])).toEqual([
      ["POST", "/moved/1", '{"q":1}', KEY, `Bearer ${TOKEN}`],
      ["POST", "/here/1", '{"q":1}', KEY, `Bearer ${TOKEN}`],
    ]);
    seen.length = 0;
    await client().send({ method: "POST", path: "/see-other", body: "{}" }, status);
    expect((await logged(2)).map((s) => [s.method, s.url, s.body])).toEqual([
      ["POST", "/see-other", "{}"],
      ["GET", "/here", ""],
    ]);
    expect(client().sendSync({ method: "POST", path: "/moved/2", body: "{}" }, status)).toBe('{"ok":true}');
  });

  it("stops after five redirects", async () => {
    const error = await failure(() => client().send({ method: "GET", path: "/loop" }, status));
    expect(error.message).toBe("GET /loop: more than 5 redirects");
  });
});

describe("HttpClient: a key in the URL", () => {
  it("is redacted percent-encoded from a failure's message, and from the service's echo of the URL", async () => {
    const loaded = {
      adapter: { name: "svc" },
      env: { MY_KEY: KEY },
    } as unknown as Parameters<typeof adapterRequest>[2];
    const request = adapterRequest(
      { method: "GET", path: "/down/{{env.MY_KEY}}", query: { key: "{{env.MY_KEY}}" } },
      {},
      loaded,
      "/search/search/request",
    );
    expect(request.path).toBe("/down/AbC%2BdEf%2FGhI%3D?key=AbC%2BdEf%2FGhI%3D");
    const error = await failure(() => client().send(request, status));
    expect(error.message).toBe(
      "GET /down/[redacted]?key=[redacted]: HTTP 500: DOWN cannot serve /down/[redacted]?key=[redacted] (2 attempts)",
    );
  });
});
