/**
 * A stand-in for a target of the contract that misbehaves by query (test/targets-e2e.test.ts): of
 * the fixtures' queries in order, the 2nd of every five gets HTTP 500 with an error body echoing
 * the request's Authorization and Cookie headers, the 3rd a body without `results`, the 4th a
 * dropped connection, the 5th results naming a document the dataset does not hold (or, every
 * tenth, no answer at all: the client's timeout ends it); the others their judged documents. It
 * serves mode `search` only, and takes documents (`PUT /documents`, `DELETE /documents`), so a run
 * can seed it. It records every request's method, path and headers, in order. For tests only.
 */
import type { IncomingHttpHeaders } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../eval-run.js";
import { bodyOf, listen, type Running, sendJson } from "./serve.js";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface FlakyTarget extends Running {
  seen: Seen[];
}

/** The document the 5th of every five queries names, which the dataset does not hold. */
export const UNKNOWN_DOC = "not/in/the/dataset.md";

export async function startFlakyTarget(): Promise<FlakyTarget> {
  const queries = (
    JSON.parse(readFileSync(join(ROOT, "fixtures/queries.json"), "utf8")) as {
      queries: Array<{ id: string; query: string; judgments: Record<string, number> }>;
    }
  ).queries;
  const byQuery = new Map(queries.map((q, i) => [q.query, i]));
  const seen: Seen[] = [];
  const running = await listen((req, res) => {
    bodyOf(req).then((body) => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      if (req.url === "/health")
        return sendJson(res, 200, {
          name: "flaky",
          version: "0",
          fingerprint: "flaky-corpus",
          capabilities: { modes: ["search"], ask: false, expand: false, documents: true, trace: false },
        });
      if (req.method === "PUT") {
        const { documents } = JSON.parse(body) as { documents: unknown[] };
        return sendJson(res, 200, { collection: "eval-seed", documents: documents.length });
      }
      if (req.method === "DELETE") return sendJson(res, 200, { collection: "eval-seed", documents: 0 });
      const { query } = JSON.parse(body) as { query: string };
      const i = byQuery.get(query) ?? 0;
      const relevant = Object.keys(queries[i]!.judgments);
      if (i % 5 === 1)
        return sendJson(res, 500, { error: { code: "INTERNAL", message: `boom ${req.headers.authorization} ${req.headers.cookie}` } });
      if (i % 5 === 2) return sendJson(res, 200, { hits: relevant });
      if (i % 5 === 3) return res.socket?.destroy();
      // Never answers: the client's timeout ends the call.
      if (i % 10 === 5) return;
      if (i % 5 === 4)
        return sendJson(res, 200, { results: [{ docId: UNKNOWN_DOC, score: 2 }, ...relevant.map((docId) => ({ docId, score: 1 }))] });
      return sendJson(res, 200, { results: relevant.map((docId) => ({ docId, score: 1 })) });
    });
  });
  return { ...running, seen };
}
