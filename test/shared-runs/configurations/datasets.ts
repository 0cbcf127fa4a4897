/** Runs on a user's own data (EVAL_DATASET): the starter dataset of `pnpm eval:init`, a BEIR folder, a golden Q&A set, a bundle, a dataset's own turn cases; and Evalite's own CLI on one file. */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main as initMain } from "../../../bin/eval-init.js";
import { ROOT } from "../../eval-run.js";
import { startAssistant } from "../../stand-ins/assistant.js";
import { type Configuration, EVALITE_BIN, type StepContext } from "../configuration.js";
import { committedBaseline } from "./fixtures.js";

/** `pnpm eval:init <folder>` in process; throws with what it said when it fails. */
function starter(ctx: StepContext, name: string): string {
  const folder = join(ctx.work, name);
  let said = "";
  const code = initMain([folder], { stdout: (t) => void (said += t), stderr: (t) => void (said += t) });
  if (code !== 0) throw new Error(`eval:init ${folder} exited ${code}: ${said}`);
  return folder;
}

/** The golden Q&A sample of test/datasets/, the answer eval's thresholds its own. */
export const GOLDEN_QA = join(ROOT, "test/datasets/golden-qa/golden_qa.json");

export const DATASETS: Record<string, Configuration> = {
  "init:search": {
    what: "`pnpm eval search` on a starter dataset of `pnpm eval:init`: a one-file filter on the in-process engine, what it runs and builds (eval-init)",
    steps: async (ctx) => {
      await ctx.evalRun("main", ["search"], { EVAL_DATASET: starter(ctx, "next") });
    },
  },
  "init:floors": {
    what: "`pnpm eval --update-baseline` on a starter dataset, with a copy of the committed floors, then the next full run gated by the floors it set (eval-init)",
    cores: 1.5,
    steps: async (ctx) => {
      const env = { EVAL_DATASET: starter(ctx, "my-ds"), EVAL_BASELINE: committedBaseline(ctx) };
      ctx.fact("before", JSON.parse(readFileSync(env.EVAL_BASELINE, "utf8")));
      await ctx.evalRun("first", ["--update-baseline", "--reason", "the starter's first floors"], env);
      ctx.fact("after", JSON.parse(readFileSync(env.EVAL_BASELINE, "utf8")));
      await ctx.evalRun("second", [], env);
    },
  },
  "dataset:beir": {
    what: "`pnpm eval` on a four-document BEIR folder written here: the same evals on the user's own data (eval-suite)",
    steps: async (ctx) => {
      const beir = join(ctx.work, "beir-mini");
      mkdirSync(join(beir, "qrels"), { recursive: true });
      const docs = [
        { _id: "d1", title: "Solar panels", text: "Photovoltaic solar panels convert sunlight into electricity on rooftops." },
        { _id: "d2", title: "Wind turbines", text: "Wind turbines turn the kinetic energy of wind into electric power." },
        { _id: "d3", title: "Bread baking", text: "Sourdough bread needs flour, water, salt and a lively starter." },
        { _id: "d4", title: "Tides", text: "Tidal power plants use the rise and fall of the sea to make electricity." },
      ];
      writeFileSync(join(beir, "corpus.jsonl"), `${docs.map((d) => JSON.stringify(d)).join("\n")}\n`);
      const queries = [
        { _id: "q1", text: "solar electricity" },
        { _id: "q2", text: "baking sourdough" },
        { _id: "q3", text: "unjudged query" },
      ];
      writeFileSync(join(beir, "queries.jsonl"), `${queries.map((q) => JSON.stringify(q)).join("\n")}\n`);
      writeFileSync(join(beir, "qrels", "test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td4\t1\nq2\td3\t1\n");
      await ctx.evalRun("main", [], { EVAL_DATASET: beir });
    },
  },
  "dataset:golden-qa": {
    what: "`pnpm eval ask` on the golden Q&A sample (its thresholds hold), then on a copy asking a pass rate above what the first run reached, with answer threads forced (eval-suite)",
    steps: async (ctx) => {
      const held = await ctx.evalRun("held", ["ask"], { EVAL_DATASET: GOLDEN_QA });
      const passed = Number(/pass rate \S+ \((\d+)\/6\)/.exec(held.stdout)?.[1] ?? Number.NaN);
      ctx.fact("passed", passed);
      const strict = join(ctx.work, "strict-golden_qa.json");
      writeFileSync(
        strict,
        readFileSync(GOLDEN_QA, "utf8").replace('"minPassRate": 0.5', `"minPassRate": ${Math.min(1, (passed + 1) / 6).toFixed(4)}`),
      );
      await ctx.evalRun("strict", ["ask"], { EVAL_DATASET: strict, EVAL_ANSWER_THREADS: "always" });
    },
  },
  "dataset:bundle-multilingual": {
    what: "`pnpm eval multilingual` on a bundle whose questions state no language: no eval could run (eval-suite)",
    steps: async (ctx) => {
      await ctx.evalRun("main", ["multilingual"], { EVAL_DATASET: join(ROOT, "test/datasets/bundle") });
    },
  },
  "dataset:own-turns": {
    what: "`pnpm eval agent` on a dataset's own turn cases: a copy of fixtures/ under another name, the turn-cases sample in process, the golden-cases sample against a stand-in assistant through an adapter (own-turn-cases-e2e)",
    steps: async (ctx) => {
      const copy = join(ctx.work, "demo-copy");
      cpSync(join(ROOT, "fixtures"), copy, { recursive: true });
      await ctx.evalRun("copy", ["agent"], { EVAL_DATASET: copy });
      await ctx.evalRun("sample", ["agent"], { EVAL_DATASET: "test/datasets/turn-cases" });
      const assistant = await startAssistant(join(ROOT, "test/datasets/golden-cases/corpus"));
      try {
        await ctx.evalRun("golden", ["agent"], {
          EVAL_DATASET: "test/datasets/golden-cases",
          EVAL_TARGET: assistant.url,
          EVAL_TARGET_ADAPTER: "examples/targets/turn-trace.adapter.json",
        });
      } finally {
        await assistant.stop();
      }
    },
  },
  "evalite-run:search": {
    what: "a plain `evalite run evals/search.eval.ts` with EVALITE_PORT=0: not gated, says so; its UI server on a port the system picks (eval-suite, concurrent-runs)",
    steps: async (ctx) => {
      const env: NodeJS.ProcessEnv = { ...process.env, EVALITE_STORAGE: join(ctx.work, "evalite.db"), EVALITE_PORT: "0" };
      delete env.EVAL_GATED;
      delete env.EVAL_SELECTED_FILES;
      await ctx.command("main", "evalite run evals/search.eval.ts", EVALITE_BIN, ["run", "evals/search.eval.ts"], env);
    },
  },
};
