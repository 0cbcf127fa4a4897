/** The offline runs on the fixtures: the full run with the committed floors, and the gate's runs of the hybrid query eval. */
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyBaseline } from "@hybrid-search/eval-gate/baseline";
import { ROOT } from "../../eval-run.js";
import type { Configuration, StepContext } from "../configuration.js";

/** BM25 with every column weight 0 scores nothing: the hybrid ranking loses its lexical list. */
export const WEAKENED = { EVAL_ENGINE_OPTIONS: JSON.stringify({ hybrid: { columnWeights: [0, 0, 0] } }) };
export const HYBRID = "Hybrid query (balanced)";
/** The eval file the gate's runs measure, by path: a filter every version of `pnpm eval` takes as that one file. */
export const QUERY_EVAL = "evals/query.eval.ts";

/** A copy of evals/baseline.json in the configuration's folder, for a run that changes its baseline or must not touch the committed one. */
export function committedBaseline(ctx: StepContext, name = "baseline.json"): string {
  const file = join(ctx.work, name);
  copyFileSync(join(ROOT, "evals/baseline.json"), file);
  return file;
}

export const FIXTURES: Record<string, Configuration> = {
  fixtures: {
    what: "`pnpm eval` on the fixtures, offline, every eval file, gated on evals/baseline.json: the suite itself (targets-e2e, gate), the reference every target reproduces, the UI's agent turn",
    alone: true,
    steps: async (ctx) => {
      await ctx.evalRun("main", []);
    },
  },
  "gate:weakened": {
    what: "the hybrid query eval on a weakened engine with --verbose --threshold 100, on a copy of the committed floors: floors fall, cases regress (gate)",
    steps: async (ctx) => {
      await ctx.evalRun("main", [QUERY_EVAL, "--verbose", "--threshold", "100"], { ...WEAKENED, EVAL_BASELINE: committedBaseline(ctx) });
    },
  },
  "gate:lowered": {
    what: "the weakened engine again, lowering the hybrid eval's floors and accepting its failures with a reason, on its own copy of the floors (gate)",
    steps: async (ctx) => {
      const baseline = committedBaseline(ctx);
      ctx.fact("before", JSON.parse(readFileSync(baseline, "utf8")));
      await ctx.evalRun(
        "main",
        [
          QUERY_EVAL,
          "--lower-floor",
          HYBRID,
          "--accept-failure",
          HYBRID,
          "--reason",
          "test: accept the weaker ranking",
          "--verbose",
          "--hideTable",
        ],
        { ...WEAKENED, EVAL_BASELINE: baseline },
      );
      ctx.fact("after", JSON.parse(readFileSync(baseline, "utf8")));
    },
  },
  "gate:pass-mark": {
    what: "a --pass-mark for a metric nobody measures, known only once the run measured: exit 2, nothing written (gate)",
    steps: async (ctx) => {
      // No floors: the message lists the metrics the run measured.
      const baseline = join(ctx.work, "baseline.json");
      writeFileSync(baseline, JSON.stringify(emptyBaseline()));
      await ctx.evalRun("main", [QUERY_EVAL, "--pass-mark", "nDCG@11=0.5"], { EVAL_BASELINE: baseline });
    },
  },
  "gate:bad-provider": {
    what: "a model configuration found bad by global setup inside pnpm eval's process: exit 2, one line (gate)",
    steps: async (ctx) => {
      await ctx.evalRun("main", [QUERY_EVAL], { ENGINE_PROVIDER: "nonsense" });
    },
  },
};
