/**
 * A stand-in for an Elasticsearch / OpenSearch cluster, written from their public REST API's
 * shapes: `PUT /<index>/_doc/<id>` indexes a document (`{title, body}`), `POST /<index>/_search`
 * with a `multi_match` query (`fields` with `^boost`, best_fields: a document's score is its best
 * field's) answers `{took, timed_out, hits: {total, max_score, hits: [{_index, _id, _score,
 * _source}]}}`, `GET /<index>/_count` counts, `DELETE /<index>` removes the index. Requests must
 * carry `Authorization: ApiKey <key>`. BM25 per field as Lucene computes it. For tests only.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Bm25Field, bodyOf, listen, type Running, sendJson } from "./serve.js";

interface Index {
  fields: Map<string, Bm25Field>;
  sources: Map<string, Record<string, unknown>>;
}

export interface SearchCluster extends Running {
  /** Every request as it arrived: method, path, authorization header. */
  seen: Array<{ method: string; url: string; authorization?: string }>;
}

/** A cluster stand-in requiring `apiKey`. */
export async function startSearchCluster(apiKey: string): Promise<SearchCluster> {
  const indexes = new Map<string, Index>();
  const seen: SearchCluster["seen"] = [];
  const error = (res: ServerResponse, status: number, type: string, reason: string) =>
    sendJson(res, status, { error: { root_cause: [{ type, reason }], type, reason }, status });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url!, "http://stand-in");
    seen.push({ method: req.method!, url: req.url!, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    if (req.headers.authorization !== `ApiKey ${apiKey}`)
      return error(res, 401, "security_exception", `missing authentication credentials for REST request [${url.pathname}]`);
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const [name, action, id] = parts;
    const body = await bodyOf(req);
    if (!name) return sendJson(res, 200, { cluster_name: "stand-in", version: { number: "8.x stand-in" } });
    const index = indexes.get(name);
    if (req.method === "PUT" && action === "_doc" && id) {
      const source = JSON.parse(body) as Record<string, unknown>;
      const target = index ?? { fields: new Map(), sources: new Map() };
      indexes.set(name, target);
      const created = !target.sources.has(id);
      target.sources.set(id, source);
      for (const [field, value] of Object.entries(source)) {
        if (typeof value !== "string") continue;
        if (!target.fields.has(field)) target.fields.set(field, new Bm25Field());
        target.fields.get(field)!.set(id, value);
      }
      return sendJson(res, created ? 201 : 200, { _index: name, _id: id, result: created ? "created" : "updated" });
    }
    if (req.method === "DELETE" && !action) {
      if (!index) return error(res, 404, "index_not_found_exception", `no such index [${name}]`);
      indexes.delete(name);
      return sendJson(res, 200, { acknowledged: true });
    }
    if (!index) return error(res, 404, "index_not_found_exception", `no such index [${name}]`);
    if (req.method === "GET" && action === "_count") return sendJson(res, 200, { count: index.sources.size });
    if (req.method === "POST" && action === "_search") {
      const started = performance.now();
      const request = JSON.parse(body || "{}") as {
        size?: number;
        query?: { multi_match?: { query: string; fields?: string[] } };
        _source?: string[] | boolean;
      };
      const match = request.query?.multi_match;
      if (!match) return error(res, 400, "parsing_exception", "the stand-in knows multi_match queries only");
      const best = new Map<string, number>();
      for (const spec of match.fields ?? ["*"]) {
        const [field, boost] = spec.split("^") as [string, string | undefined];
        const fields = field === "*" ? [...index.fields.values()] : [index.fields.get(field)].filter((f): f is Bm25Field => !!f);
        for (const f of fields)
          for (const [docId, score] of f.scores(match.query)) {
            const boosted = score * Number(boost ?? 1);
            if (boosted > (best.get(docId) ?? 0)) best.set(docId, boosted);
          }
      }
      const ranked = [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, request.size ?? 10);
      const pick = (source: Record<string, unknown>) =>
        Array.isArray(request._source)
          ? Object.fromEntries(request._source.map((k) => [k, source[k]]))
          : request._source === false
            ? undefined
            : source;
      return sendJson(res, 200, {
        took: Math.round(performance.now() - started),
        timed_out: false,
        hits: {
          total: { value: best.size, relation: "eq" },
          max_score: ranked[0]?.[1] ?? null,
          hits: ranked.map(([docId, score]) => ({ _index: name, _id: docId, _score: score, _source: pick(index.sources.get(docId)!) })),
        },
      });
    }
    return error(res, 405, "illegal_argument_exception", `no handler for ${req.method} ${url.pathname}`);
  };

  const running = await listen((req, res) => {
    handle(req, res).catch((e: Error) => error(res, 500, "exception", e.message));
  });
  return { ...running, seen };
}
