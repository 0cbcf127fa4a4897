/** Starting and stopping a stand-in service on 127.0.0.1, on a port the system picks. */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Running {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/** `handler` listening on 127.0.0.1:0; `stop()` ends its connections and closes it. */
export async function listen(handler: RequestListener): Promise<Running> {
  const server = createServer(handler);
  // Longer than a client keeps an idle connection (undici: 4 s), so the client closes it first and no
  // request goes out on a connection the stand-in is closing at that moment (ECONNRESET under load).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** A request's body as text. */
export function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => ok(body));
    req.on("error", fail);
  });
}

/** Answers `value` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/** Lower-case words of letters and digits (any script): the stand-ins' analyzer. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * BM25 over one field of a set of documents (k1 1.2, b 0.75; idf as Lucene computes it,
 * ln(1 + (N − n + 0.5) / (n + 0.5))): what the stand-ins rank with.
 */
export class Bm25Field {
  private readonly docs = new Map<string, Map<string, number>>();
  private readonly lengths = new Map<string, number>();
  private readonly df = new Map<string, number>();
  private total = 0;

  set(id: string, text: string): void {
    this.remove(id);
    const terms = new Map<string, number>();
    const tokens = words(text);
    for (const t of tokens) terms.set(t, (terms.get(t) ?? 0) + 1);
    for (const t of terms.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.docs.set(id, terms);
    this.lengths.set(id, tokens.length);
    this.total += tokens.length;
  }

  remove(id: string): void {
    const terms = this.docs.get(id);
    if (!terms) return;
    for (const t of terms.keys()) this.df.set(t, this.df.get(t)! - 1);
    this.total -= this.lengths.get(id)!;
    this.docs.delete(id);
    this.lengths.delete(id);
  }

  /** Each document's score for `query`, by id; documents that match no term are absent. */
  scores(query: string): Map<string, number> {
    const n = this.docs.size;
    const avg = n === 0 ? 0 : this.total / n;
    const out = new Map<string, number>();
    for (const term of new Set(words(query))) {
      const df = this.df.get(term) ?? 0;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const [id, terms] of this.docs) {
        const tf = terms.get(term);
        if (!tf) continue;
        const norm = tf + 1.2 * (1 - 0.75 + (0.75 * this.lengths.get(id)!) / avg);
        out.set(id, (out.get(id) ?? 0) + (idf * tf * 2.2) / norm);
      }
    }
    return out;
  }
}
