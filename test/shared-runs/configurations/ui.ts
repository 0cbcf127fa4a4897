/** The run whose Evalite UI the browser test exports and opens (test/ui/evalite-ui.test.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Baseline } from "@hybrid-search/eval-gate/baseline";
import { ROOT } from "../../eval-run.js";
import type { Configuration } from "../configuration.js";

/** The eval file the UI is checked on: retrieval cases with every balanced-tier stage, and the matrix. */
export const UI_EVAL_FILE = "evals/multilingual.eval.ts";
export const UI_SUITE = "Cross-language recall";

export const UI: Record<string, Configuration> = {
  "ui:gated": {
    what: "`pnpm eval evals/multilingual.eval.ts` on a baseline that asks more of Cross-language recall than it gives: the gate fails that suite (exit 1) and passes the matrix's (evalite-ui)",
    steps: async (ctx) => {
      const baseline = JSON.parse(readFileSync(join(ROOT, "evals/baseline.json"), "utf8")) as Baseline;
      baseline.floors.offline![UI_SUITE]!["Recall@5"]!.all = 0.99;
      const file = join(ctx.work, "baseline.json");
      writeFileSync(file, JSON.stringify(baseline));
      await ctx.evalRun("main", [UI_EVAL_FILE], { EVAL_BASELINE: file });
    },
  },
};
