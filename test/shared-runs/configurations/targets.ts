/**
 * Runs through a target instead of the in-process engine (test/targets-e2e.test.ts): `pnpm engine
 * serve` on an empty index the run seeds, the engine as a target module, runs recorded by `pnpm
 * engine run` and `engine ask --batch`, and stand-ins that misbehave, fail to delete what was seeded,
 * or are interrupted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, scriptCommand } from "../../eval-run.js";
import { startFlakyTarget } from "../../stand-ins/flaky-target.js";
import { reply, startSeedableTarget } from "../../stand-ins/seedable-target.js";
import type { Configuration, StepContext } from "../configuration.js";

/** The token every target here requires; it must appear in nothing a run prints or writes. */
export const TOKEN = "e2e-SECRET-4b7d21";
export const COOKIE = "session=e2e-COOKIE-93f0aa";

/** `pnpm engine <args>` (the compiled CLI, as a process: the global setup's thread stays free); throws with its output when it fails. */
async function engine(...args: string[]): Promise<void> {
  const { command, args: prefix } = scriptCommand("engine");
  const child = spawn(command, [...prefix, ...args], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`engine ${args.join(" ")} exited ${code}: ${stderr}`);
}

/** `pnpm engine serve --db <index>` with the token required; its URL once it listens, and how to stop it. */
async function serve(index: string): Promise<{ url: string; stop(): Promise<void> }> {
  const { command, args } = scriptCommand("engine");
  const server: ChildProcess = spawn(command, [...args, "serve", "--db", index, "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, ENGINE_SERVE_TOKEN: TOKEN },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((ok, fail) => {
    let out = "";
    server.stdout!.on("data", (d: Buffer) => {
      out += d;
      const m = /on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]!);
    });
    server.on("exit", (code) => fail(new Error(`engine serve exited ${code}`)));
  });
  return {
    url,
    stop: async () => {
      const exited = once(server, "exit");
      server.kill("SIGTERM");
      await exited;
    },
  };
}

/** How many documents the engine serve at `url` holds, by its health route. */
async function documentsOf(url: string): Promise<number> {
  return ((await (await fetch(`${url}/health`)).json()) as { fingerprint: { documents: number } }).fingerprint.documents;
}

/** A baseline holding `floors` (and `ceilings`) of one mode: what a target's earlier runs set. */
export function baselineWith(ctx: StepContext, mode: string, floors: object, ceilings: object = {}): string {
  const committed = JSON.parse(readFileSync(join(ROOT, "evals/baseline.json"), "utf8")) as Record<string, unknown>;
  const file = join(ctx.work, `baseline-${mode.replace(/\W+/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ ...committed, floors: { [mode]: floors }, ceilings: { [mode]: ceilings }, cases: {}, log: [] }));
  return file;
}

/** The committed offline floors of `evals`, without latency (a recorded run has none): what the same rankings reach. */
export function offlineFloors(...evals: string[]): Record<string, Record<string, Record<string, number>>> {
  const { floors } = JSON.parse(readFileSync(join(ROOT, "evals/baseline.json"), "utf8")) as {
    floors: { offline: Record<string, Record<string, Record<string, number>>> };
  };
  return Object.fromEntries(
    evals.map((e) => [e, Object.fromEntries(Object.entries(floors.offline[e]!).filter(([metric]) => !/^Latency/.test(metric)))]),
  );
}

/** The seeding settings of a run on a seedable stand-in. */
const seeding = (url: string) => ({
  EVAL_TARGET: url,
  EVAL_TARGET_TOKEN: TOKEN,
  EVAL_TARGET_SEED: "eval-seed",
  EVAL_TARGET_RETRIES: "0",
  EVAL_TARGET_TIMEOUT_MS: "60000",
});

export const TARGETS: Record<string, Configuration> = {
  "target:serve": {
    what: "`pnpm eval` through `pnpm engine serve` on an EMPTY index, which the run seeds (EVAL_TARGET_SEED) and empties again (targets-e2e)",
    cores: 1.5,
    steps: async (ctx) => {
      // An empty index: one finished index run over an empty folder.
      const nothing = join(ctx.work, "nothing");
      mkdirSync(nothing);
      const index = join(ctx.work, "empty.db");
      await engine("index", nothing, "--db", index);
      const server = await serve(index);
      try {
        ctx.fact("documentsBefore", await documentsOf(server.url));
        await ctx.evalRun("main", [], {
          EVAL_TARGET: server.url,
          EVAL_TARGET_NAME: "engine-serve",
          EVAL_TARGET_TOKEN: TOKEN,
          EVAL_TARGET_SEED: "eval-fixtures",
        });
        ctx.fact("documentsAfter", await documentsOf(server.url));
      } finally {
        await server.stop();
      }
    },
  },
  "target:module": {
    what: "`pnpm eval` through the engine wrapped as a target module (examples/targets/engine.target.ts), handed the corpus by the run (targets-e2e)",
    cores: 1.5,
    steps: async (ctx) => {
      await ctx.evalRun("main", [], { EVAL_TARGET: "examples/targets/engine.target.ts", EVAL_TARGET_TOKEN: TOKEN });
    },
  },
  "target:recorded": {
    what: "`pnpm eval` on runs recorded by `pnpm engine run` and `engine ask --batch` (EVAL_RUN_DIR); then `pnpm eval thoroughness` on the same runs without the fast tier's, gated on floors of that mode (targets-e2e)",
    cores: 1.5,
    steps: async (ctx) => {
      const index = join(ctx.work, "fixtures.db");
      await engine("index", join(ROOT, "fixtures/corpus"), "--db", index, "--collection", "corpus");
      const folder = join(ctx.work, "recorded-engine");
      mkdirSync(folder);
      const queries = JSON.parse(readFileSync(join(ROOT, "fixtures/queries.json"), "utf8")) as {
        queries: Array<{ id: string; query: string }>;
      };
      const queryFile = join(ctx.work, "queries.jsonl");
      writeFileSync(queryFile, queries.queries.map((q) => JSON.stringify({ _id: q.id, text: q.query })).join("\n"));
      const asks = JSON.parse(readFileSync(join(ROOT, "fixtures/ask-cases.json"), "utf8")) as {
        cases: Array<{ id: string; question: string }>;
      };
      const questions = join(ctx.work, "questions.jsonl");
      writeFileSync(questions, asks.cases.map((c) => JSON.stringify({ id: c.id, question: c.question })).join("\n"));
      await Promise.all([
        ...["search", "vsearch"].map((mode) =>
          engine("run", queryFile, "--db", index, "--mode", mode, "--limit", "10", "--out", join(folder, `${mode}.run`)),
        ),
        ...["fast", "balanced", "thorough"].map((tier) =>
          engine("run", queryFile, "--db", index, "--mode", "query", "--tier", tier, "--limit", "10", "--out", join(folder, `${tier}.run`)),
        ),
        engine("ask", "--batch", questions, "--db", index, "--out", join(folder, "answers.jsonl")),
      ]);
      await ctx.evalRun("main", [], { EVAL_RUN_DIR: folder });
      // The same runs without fast.run: the fast tier and the tier order are skipped and reported;
      // their floors (set when the tier was there) are skipped, the other tiers' floors checked.
      const noFast = join(ctx.work, "recorded-nofast");
      mkdirSync(noFast);
      for (const file of readdirSync(folder).filter((f) => f !== "fast.run"))
        writeFileSync(join(noFast, file), readFileSync(join(folder, file)));
      await ctx.evalRun("nofast", ["thoroughness"], {
        EVAL_RUN_DIR: noFast,
        EVAL_BASELINE: baselineWith(ctx, "run:recorded-nofast", offlineFloors("Thoroughness", "Tier order per query"), {
          Thoroughness: { "tier=fast": 2000 },
        }),
      });
    },
  },
  "target:flaky": {
    what: "`pnpm eval '*search'` through a target that answers 500s, times out, breaks the schema, names unknown documents and lacks vsearch, seeded by the run and gated on floors of its own (targets-e2e)",
    // It mostly waits on the target's timeouts.
    cores: 0.5,
    steps: async (ctx) => {
      const stub = await startFlakyTarget();
      try {
        ctx.fact("url", stub.url);
        // search.eval.ts and vsearch.eval.ts, gated on floors this target's earlier runs set for
        // Vector search: it serves `search` only now.
        await ctx.evalRun("main", ["*search"], {
          EVAL_TARGET: stub.url,
          EVAL_TARGET_NAME: "flaky",
          EVAL_TARGET_TOKEN: TOKEN,
          EVAL_TARGET_COOKIE: COOKIE,
          EVAL_TARGET_RETRIES: "1",
          EVAL_TARGET_TIMEOUT_MS: "2000",
          EVAL_TARGET_SEED: "eval-seed",
          EVAL_BASELINE: baselineWith(ctx, "http:flaky", offlineFloors("Vector search"), { "Vector search": { all: 2000 } }),
        });
      } finally {
        await stub.stop();
        ctx.fact("seen", stub.seen);
      }
    },
  },
  "target:seed-delete-fails": {
    what: "`pnpm eval search` through a seeded target that answers every search and refuses the DELETE: a warning, the verdict stands (targets-e2e)",
    steps: async (ctx) => {
      const { queries } = JSON.parse(readFileSync(join(ROOT, "fixtures/queries.json"), "utf8")) as {
        queries: Array<{ judgments: Record<string, number> }>;
      };
      const anyDoc = Object.keys(queries.find((q) => Object.keys(q.judgments).length > 0)!.judgments)[0]!;
      const stub = await startSeedableTarget(
        reply(200, { results: [{ docId: anyDoc, score: 1 }] }),
        reply(503, { error: { code: "BUSY", message: "index locked" } }),
      );
      try {
        ctx.fact("url", stub.url);
        await ctx.evalRun("main", ["search"], seeding(stub.url));
      } finally {
        await stub.stop();
        ctx.fact("seen", stub.seen);
      }
    },
  },
  "target:sigint": {
    what: "`pnpm eval search` through a seeded target that holds every search, interrupted (SIGINT) at the first: it deletes what it seeded before it ends (targets-e2e)",
    steps: async (ctx) => {
      let interrupt = (): void => undefined;
      // The searches are held: the run is in progress when it is interrupted.
      const stub = await startSeedableTarget(() => interrupt());
      try {
        await ctx.evalRun("main", ["search"], seeding(stub.url), (child) => {
          interrupt = () => {
            interrupt = () => undefined;
            child.kill("SIGINT");
          };
        });
      } finally {
        await stub.stop();
        ctx.fact("seen", stub.seen);
      }
    },
  },
};
