/**
 * `engine serve` when clients hang up mid-request: a disconnect is the client's doing, not a bug,
 * so it is never logged as "internal error" (reserved for bugs, docs/engine.md), and the server
 * goes on answering everyone else.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Engine } from "../engine.js";
import { type EngineServer, serveEngine } from "./server.js";

const dir = mkdtempSync(join(tmpdir(), "serve-disconnect-"));
let engine: Engine;
let server: EngineServer;
const logged: string[] = [];
const noted: string[] = [];

beforeAll(async () => {
  engine = Engine.open(join(dir, "index.db"), { create: true });
  server = await serveEngine(engine, { port: 0, log: (line) => logged.push(line), debug: (line) => noted.push(line) });
});
afterAll(async () => {
  await server?.close();
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A client that sends the headers of a `POST /search` with a body of `declared` bytes, waits for
 * the server's `100 Continue` (so the server is reading the body: no guess at timing), sends part
 * of the body and hangs up (`reset`: an RST, as a killed process's socket; else it closes the
 * connection, a FIN).
 */
async function hangUpMidBody(reset: boolean, declared = 4000): Promise<void> {
  const socket = connect(server.port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(
    `POST /search HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\nexpect: 100-continue\r\n\r\n`,
  );
  const [reply] = (await once(socket, "data")) as [Buffer];
  expect(reply.toString()).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  socket.write('{"query":"cancel my subscription","mode":"search","limit":5,"pad":"');
  const closed = once(socket, "close");
  if (reset) socket.resetAndDestroy();
  else socket.destroy();
  await closed;
}

describe("engine serve: clients that disconnect mid-body", () => {
  it("50 clients hanging up mid-body: 50 disconnects noted at the lower level, 0 internal errors, and the next request is answered", async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => hangUpMidBody(i % 2 === 0)));
    // Each hang-up ends as one line in one log or the other once the server has seen it close.
    await vi.waitFor(() => expect(noted.length + logged.length).toBeGreaterThanOrEqual(50), { timeout: 30_000, interval: 20 });
    expect(logged.filter((line) => line.includes("internal error"))).toEqual([]);
    expect(noted).toEqual(Array(50).fill("engine serve: POST /search: the client disconnected before its answer was sent"));
    const response = await fetch(`${server.url}/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "cancel my subscription", mode: "search", limit: 5 }),
    });
    expect(response.status).toBe(200);
    expect(noted).toHaveLength(50);
  });
});
