/**
 * Runs on systems that do not speak the target contract (test/bring-your-own-e2e.test.ts): a
 * target module over MiniSearch, adapters for an Elasticsearch-shaped cluster and a golden-Q&A
 * service (stand-ins on 127.0.0.1), and a module and a service behind an adapter that misbehave.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startGoldenQa } from "../../stand-ins/golden-qa.js";
import { startSearchCluster } from "../../stand-ins/search-cluster.js";
import { bodyOf, listen, sendJson } from "../../stand-ins/serve.js";
import type { Configuration } from "../configuration.js";

/** The secret every system here requires; it must appear in nothing a run prints or writes. */
export const SECRET = "byo-SECRET-0d93f1";

export const BRING_YOUR_OWN: Record<string, Configuration> = {
  "byo:minisearch": {
    what: "`pnpm eval '*search'` through examples/targets/minisearch.target.ts, handed the fixtures' corpus (bring-your-own-e2e)",
    steps: async (ctx) => {
      await ctx.evalRun("main", ["*search"], { EVAL_TARGET: "examples/targets/minisearch.target.ts" });
    },
  },
  "byo:elasticsearch": {
    what: "`pnpm eval search` through examples/targets/elasticsearch.adapter.json on an Elasticsearch-shaped stand-in, seeded one document at a time (bring-your-own-e2e)",
    steps: async (ctx) => {
      const cluster = await startSearchCluster(SECRET);
      try {
        await ctx.evalRun("main", ["search"], {
          EVAL_TARGET: cluster.url,
          EVAL_TARGET_ADAPTER: "examples/targets/elasticsearch.adapter.json",
          EVAL_TARGET_SEED: "eval-docs",
          ES_API_KEY: SECRET,
        });
      } finally {
        await cluster.stop();
        ctx.fact("seen", cluster.seen);
      }
    },
  },
  "byo:golden-qa": {
    what: "`pnpm eval ask` through examples/targets/golden-qa.adapter.json on a golden-Q&A stand-in (seed 000's shape) (bring-your-own-e2e)",
    steps: async (ctx) => {
      const service = await startGoldenQa(SECRET);
      try {
        await ctx.evalRun("main", ["ask"], {
          EVAL_TARGET: service.url,
          EVAL_TARGET_ADAPTER: "examples/targets/golden-qa.adapter.json",
          EVAL_TARGET_SEED: "golden",
          KB_KEY: SECRET,
        });
      } finally {
        await service.stop();
        ctx.fact("documents", service.documents.size);
      }
    },
  },
  "byo:odd-module": {
    what: "`pnpm eval search` through a target module that throws, returns the wrong shape or never settles, by query (bring-your-own-e2e)",
    steps: async (ctx) => {
      const file = join(ctx.work, "odd.target.ts");
      writeFileSync(
        file,
        `import { defineTarget } from "@hybrid-search/target-contract/define-target";
const token = process.env.EVAL_TARGET_TOKEN;
export default defineTarget({
  name: "odd",
  search: {
    search: async ({ query }) => {
      const kind = query.length % 5;
      if (kind === 0) throw new Error("index offline, token " + token);
      if (kind === 1) return { hits: [] };
      if (kind === 2) return new Promise(() => {});
      return { results: [{ docId: "en/billing/plans-and-pricing.md", score: 1, snippet: "seen with " + token }] };
    },
  },
});
`,
      );
      await ctx.evalRun("main", ["search"], {
        EVAL_TARGET: file,
        EVAL_TARGET_TOKEN: SECRET,
        EVAL_TARGET_TIMEOUT_MS: "1000",
        EVAL_TARGET_CONCURRENCY: "8",
      });
    },
  },
  "byo:odd-adapter": {
    what: "`pnpm eval search` through an adapter on a service that answers 500, a body the mapping finds nothing in, or no header it maps (bring-your-own-e2e)",
    steps: async (ctx) => {
      const service = await listen((req, res) => {
        bodyOf(req).then((body) => {
          const { q } = JSON.parse(body || "{}") as { q?: string };
          const kind = (q ?? "").length % 4;
          if (kind === 0) return sendJson(res, 500, { error: { code: "DOWN", message: `rejected key ${req.headers["x-api-key"]}` } });
          if (kind === 1) return sendJson(res, 200, { items: [] });
          if (kind === 2) return sendJson(res, 200, { hits: [{ id: "en/billing/plans-and-pricing.md" }] });
          sendJson(res, 200, { hits: [{ id: "en/billing/plans-and-pricing.md" }] }, { "x-took": "3" });
        });
      });
      const adapter = join(ctx.work, "odd.adapter.json");
      writeFileSync(
        adapter,
        JSON.stringify({
          name: "odd-service",
          headers: { "x-api-key": "{{env.ODD_KEY}}" },
          search: {
            search: {
              request: { method: "POST", path: "/find", json: { q: "{{query}}", n: "{{limit}}" } },
              response: { results: { list: "/hits", docId: "/id" }, elapsedMs: { header: "x-took" } },
            },
          },
        }),
      );
      try {
        await ctx.evalRun("main", ["search"], {
          EVAL_TARGET: service.url,
          EVAL_TARGET_ADAPTER: adapter,
          ODD_KEY: SECRET,
          EVAL_TARGET_RETRIES: "0",
        });
      } finally {
        await service.stop();
      }
    },
  },
};
