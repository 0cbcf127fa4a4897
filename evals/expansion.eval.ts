// The engine's real query expander on every query: schema validity, variants, and whether
// identifiers and quoted phrases survive expansion.
import type { RetrievalCase } from "../helpers/dataset.js";
import { queriesReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset, evalTarget } from "../helpers/eval-index.js";
import { evalModels } from "../helpers/models.js";
import { once, trialHeaders } from "../helpers/run-cache.js";
import { validateExpansion } from "../helpers/fixture-files.js";
import {
  expansionSchemaValid,
  hasLexicalVariants,
  hasVectorVariants,
  keepsAnchors,
  queryAnchors,
  type ExpansionOutput,
} from "../scorers/expansion.js";

/** The expansion of a case; trial n of every suite makes the same call, run once per run and shared. */
const expandFor =
  (suite: string) =>
  async (input: RetrievalCase): Promise<ExpansionOutput & { elapsedMs: number }> => {
    const { target, fingerprint } = await evalTarget();
    const headers = trialHeaders(`${suite}:${input.id}`);
    return once([target.label, fingerprint, "expand", input.query, headers], async () => {
      const started = performance.now();
      const result = await target.expand!(input.query, { headers });
      return { query: input.query, ...result, elapsedMs: performance.now() - started };
    });
  };

const columns = ({ input, output }: { input: RetrievalCase; output: ExpansionOutput }) => [
  { label: "Query", value: `${input.id}: ${input.query}` },
  { label: "Expander", value: output.expander },
  { label: "Lexical", value: output.expansion.lexicalQueries.join("\n") },
  { label: "Vector", value: output.expansion.vectorQueries.join("\n") },
];

// A model's expansions vary between calls; three trials show how much (offline they cannot vary).
const trialCount = evalModels().selection.mode === "offline" ? 1 : 3;

defineEval({ expand: true, data: queriesReason(evalDataset()) })("Query expansion", {
  trialCount,
  data: () => evalDataset().cases.map((c) => ({ input: c })),
  task: expandFor("expansion"),
  scorers: [expansionSchemaValid(validateExpansion), hasLexicalVariants(), hasVectorVariants()],
  columns,
});

const anchored = () => evalDataset().cases.filter((c) => queryAnchors(c.query).length > 0);
// A dataset without a query holding an identifier or a quoted phrase has no case for this suite:
// skipped and reported (a suite without cases is an error to vitest, which would fail the run with
// nothing measured wrong).
const defineAnchors = defineEval({
  expand: true,
  data: anchored().length > 0 ? null : `no query of dataset ${evalDataset().name} holds an identifier or a quoted phrase`,
});

defineAnchors("Expansion keeps identifiers", {
  trialCount,
  data: () => anchored().map((c) => ({ input: c })),
  task: expandFor("anchors"),
  scorers: [keepsAnchors()],
  columns,
});
