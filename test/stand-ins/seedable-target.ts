/**
 * A stand-in for a target of the contract that takes documents (test/targets-e2e.test.ts): it
 * serves mode `search`, takes `PUT /documents` (the run's seed) and answers `/search` with `search`
 * and `DELETE /documents` with `remove` (by default, deleted). It records every request's method,
 * path and Authorization header, in order. For tests only.
 */
import type { ServerResponse } from "node:http";
import { bodyOf, listen, type Running, sendJson } from "./serve.js";

export interface SeedableTarget extends Running {
  seen: Array<{ method: string; url: string; authorization?: string }>;
}

/** A stub's answer: `status` with `body` as JSON. */
export const reply = (status: number, body: unknown) => (res: ServerResponse) => sendJson(res, status, body);

export async function startSeedableTarget(
  search: (res: ServerResponse) => void,
  remove?: (res: ServerResponse) => void,
): Promise<SeedableTarget> {
  const seen: SeedableTarget["seen"] = [];
  const running = await listen((req, res) => {
    bodyOf(req).then((body) => {
      seen.push({ method: req.method!, url: req.url!, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      if (req.url === "/health")
        return sendJson(res, 200, {
          name: "seedable",
          version: "0",
          fingerprint: "seedable-corpus",
          capabilities: { modes: ["search"], ask: false, expand: false, documents: true, trace: false },
        });
      if (req.method === "PUT") {
        const { documents } = JSON.parse(body) as { documents: unknown[] };
        return sendJson(res, 200, { collection: "eval-seed", documents: documents.length });
      }
      if (req.method === "DELETE") return remove ? remove(res) : sendJson(res, 200, { collection: "eval-seed", documents: 0 });
      search(res);
    });
  });
  return { ...running, seen };
}
