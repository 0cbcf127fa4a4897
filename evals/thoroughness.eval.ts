// Every query at each tier (fast, balanced, thorough), then whether the tiers are ordered
// thorough ≥ balanced ≥ fast, per query and over the means, reported as measured.
import { evalite } from "evalite";
import { allDraftsReason, judgedCases, type RetrievalCase, reviewedOnly } from "../helpers/dataset.js";
import { rankingReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset, evalTarget, knownDocIds } from "../helpers/eval-index.js";
import { logSummary } from "../helpers/summary-line.js";
import { skipReason } from "../helpers/targets/eval-target.js";
import { reportSkip } from "../helpers/targets/skips.js";
import { rankAhead } from "../helpers/rank-ahead.js";
import { retrievalColumns, runRetrieval } from "../helpers/retrieval-task.js";
import { formatTierValue, tierComparison, tierMeans, TIER_BUDGET_MS } from "../helpers/tier-comparison.js";
import { latencyBudget } from "../scorers/latency.js";
import { ndcgAtK, recallAtK } from "../scorers/retrieval.js";
import { tiersOrdered } from "../scorers/tier-order.js";

const cases = () => judgedCases(evalDataset().cases);
// A dataset without judged queries feeds none of these evals: each is skipped, saying why.
const noCases = rankingReason(evalDataset());

const TIERS = [
  { name: "fast", input: "fast" as const },
  { name: "balanced", input: "balanced" as const },
  { name: "thorough", input: "thorough" as const },
];
// A tier the target does not serve is left out, and reported as skipped; the tier-order evals need all three.
const served = TIERS.filter((t) => {
  const why = skipReason({ modes: [t.input] });
  if (why !== null) reportSkip({ eval: "Thoroughness", variant: t.name, reason: why });
  return why === null;
});

// A remote target is asked for every tier's rankings when the file starts, so the next tier's
// cases find theirs answered or on the way (helpers/rank-ahead.ts).
rankAhead(
  served.map((t) => t.input),
  cases,
);

defineEval({ data: noCases }, evalite.each(served))("Thoroughness", {
  data: () => cases().map((c) => ({ input: c, expected: { judgments: c.judgments } })),
  task: async (input, tier) => runRetrieval(await evalTarget(), tier, input, knownDocIds, { cutoff: 5 }),
  scorers: [recallAtK(5), ndcgAtK(10), latencyBudget((output) => TIER_BUDGET_MS[output.mode as keyof typeof TIER_BUDGET_MS])],
  columns: retrievalColumns,
});

const ordered = defineEval({ ...(served.length === TIERS.length ? {} : { modes: ["fast", "balanced", "thorough"] }), data: noCases });

ordered("Tier order per query", {
  data: () => cases().map((c) => ({ input: c })),
  task: async (input: RetrievalCase) => tierComparison(input),
  scorers: [tiersOrdered("nDCG@10"), tiersOrdered("Recall@5")],
  columns: ({ input, output }) => [
    { label: "Query", value: `${input.id}: ${input.query}` },
    {
      label: "nDCG@10 fast / balanced / thorough",
      value: Object.values(output["nDCG@10"]).map(formatTierValue).join(" / "),
    },
    {
      label: "Recall@5 fast / balanced / thorough",
      value: Object.values(output["Recall@5"]).map(formatTierValue).join(" / "),
    },
  ],
});

// The mean is over reviewed queries only: a draft is measured per query above, and in no mean.
const orderedOverAll = defineEval({
  ...(served.length === TIERS.length ? {} : { modes: ["fast", "balanced", "thorough"] }),
  data: noCases ?? allDraftsReason(cases(), "judged query", evalDataset().name),
});

orderedOverAll("Tier order over all queries", {
  data: [{ input: "mean over every judged query" }],
  task: async () => {
    const means = await tierMeans(reviewedOnly(cases()));
    logSummary(
      "Tier order over all queries",
      `tier means over ${means.queries} queries: nDCG@10 ${Object.entries(means["nDCG@10"])
        .map(([t, v]) => `${t} ${formatTierValue(v)}`)
        .join(", ")}; Recall@5 ${Object.entries(means["Recall@5"])
        .map(([t, v]) => `${t} ${formatTierValue(v)}`)
        .join(", ")}`,
    );
    return means;
  },
  scorers: [tiersOrdered("nDCG@10"), tiersOrdered("Recall@5")],
});
