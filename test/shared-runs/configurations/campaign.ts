/**
 * The runs of the hostile-input campaign (issue 42; test/campaign-*.test.ts): two `--update-baseline`
 * runs started together on one baseline file, one run of every eval file through an adapter whose
 * key a failing service echoes and redirects, and runs through target modules that end their thread
 * outside a call.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, scriptCommand } from "../../eval-run.js";
import { bodyOf, listen, sendJson } from "../../stand-ins/serve.js";
import type { Configuration, StepContext } from "../configuration.js";

/** The key of the secrets campaign: base64-style, so a path or a query carries it percent-encoded. */
export const CAMPAIGN_KEY = "AbC+dEf/GhI=";

/** The adapter of the secrets campaign: the key in a header, in a search's path and query, and in an answer's query. */
export function keyedAdapter(folder: string): string {
  const adapter = join(folder, "keyed.adapter.json");
  writeFileSync(
    adapter,
    JSON.stringify({
      name: "keyed",
      headers: { "x-api-key": "{{env.MY_KEY}}" },
      search: {
        search: {
          request: { method: "GET", path: "/v1/{{env.MY_KEY}}/search", query: { q: "{{query}}", key: "{{env.MY_KEY}}" } },
          response: { results: { list: "/hits", docId: "/id" } },
        },
      },
      ask: {
        request: { method: "POST", path: "/ask", query: { key: "{{env.MY_KEY}}" }, json: { q: "{{question}}" } },
        response: { answer: { pointer: "/answer" } },
      },
    }),
  );
  return adapter;
}

/**
 * Target modules that misbehave after their first call, outside any call: what each does, and the
 * one line the run must fail with (campaign-targets).
 */
export const MODULES_THAT_END = [
  ["throws from a timer", 'setTimeout(() => { throw new Error("late boom"); }, 0);', "the module threw outside a call: Error: late boom"],
  ["leaves a rejection unhandled", 'Promise.reject(new Error("nobody waits"));', "the module threw outside a call: Error: nobody waits"],
] as const;

/** A module that ranks every document of its corpus, and does `misbehave` after its first call (`atLoad` as it loads). */
export function misbehavingModule(folder: string, name: string, misbehave: string, atLoad = ""): string {
  const file = join(folder, `${name.replaceAll(" ", "-")}.target.mjs`);
  writeFileSync(
    file,
    `${atLoad}
let ids = [];
let calls = 0;
export default {
  name: ${JSON.stringify(name.replaceAll(" ", "-"))},
  documents: { seed: ({ collection, documents }) => { ids = documents.map((d) => d.id); return { collection, documents: ids.length }; } },
  search: { search: () => {
    if (calls++ === 1) { ${misbehave} }
    return { results: ids.slice(0, 10).map((docId, i) => ({ docId, score: 10 - i })) };
  } },
};`,
  );
  return file;
}

/** `pnpm eval:export --output <folder>` of the Evalite storage `storage` (the compiled CLI), kept under `label`. */
function exportUi(ctx: StepContext, label: string, storage: string, output: string) {
  const { command, args } = scriptCommand("eval:export");
  return ctx.command(label, "pnpm eval:export", command, [...args, "--output", output], { ...process.env, EVALITE_STORAGE: storage });
}

export const CAMPAIGN: Record<string, Configuration> = {
  "campaign:baseline": {
    what: "two `pnpm eval expansion --update-baseline` runs of different datasets started together on one baseline file, as CI jobs start them (campaign-baseline)",
    cores: 2,
    steps: async (ctx) => {
      const baseline = join(ctx.work, "baseline.json");
      const env = { EVAL_BASELINE: baseline, EVALITE_PORT: "0" };
      await Promise.all([
        ctx.evalRun("run 1", ["expansion", "--update-baseline", "--reason", "first dataset"], env),
        ctx.evalRun("run 2", ["expansion", "--update-baseline", "--reason", "second dataset"], {
          ...env,
          EVAL_DATASET: join(ROOT, "test/datasets/fixtures-layout"),
        }),
      ]);
      ctx.fact("baseline", JSON.parse(readFileSync(baseline, "utf8")));
    },
  },
  "campaign:secrets": {
    what: "`pnpm eval` (every eval file) through an adapter carrying a key in its path and query, on a service that answers 500 echoing the URL and key and redirects answers to another origin; then `pnpm eval:export` of its storage (campaign-secrets)",
    steps: async (ctx) => {
      const elsewhere: string[] = [];
      const other = await listen((req, res) => {
        elsewhere.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
        sendJson(res, 200, { answer: "stolen", citations: [] });
      });
      const service = await listen((req, res) => {
        bodyOf(req).then(() => {
          if (req.url!.startsWith("/ask")) {
            res.writeHead(307, { location: `${other.url}${req.url}` });
            return res.end();
          }
          // The service quotes what it was sent, URL and key header included.
          sendJson(res, 500, { error: { code: "DOWN", message: `cannot serve ${req.url} for ${req.headers["x-api-key"]}` } });
        });
      });
      ctx.fact("otherOrigin", other.url);
      try {
        const env = {
          EVAL_TARGET: service.url,
          EVAL_TARGET_ADAPTER: keyedAdapter(ctx.work),
          MY_KEY: CAMPAIGN_KEY,
          EVAL_TARGET_RETRIES: "1",
        };
        ctx.fact("env", env);
        const run = await ctx.evalRun("main", [], env);
        const exported = join(ctx.work, "ui-export");
        ctx.fact("exported", exported);
        await exportUi(ctx, "export", join(run.dir, "evalite.db"), exported);
      } finally {
        await service.stop();
        await other.stop();
        ctx.fact("elsewhere", elsewhere);
      }
    },
  },
  "campaign:modules-that-end": {
    what: "`pnpm eval search` through target modules that end their thread outside a call — a throw from a timer, a rejection nobody handles — one run each, started together (campaign-targets)",
    cores: 2,
    steps: async (ctx) => {
      await Promise.all(
        MODULES_THAT_END.map(([name, misbehave]) =>
          ctx.evalRun(name, ["search"], { EVAL_TARGET: misbehavingModule(ctx.work, name, misbehave), EVALITE_PORT: "0" }),
        ),
      );
    },
  },
};
