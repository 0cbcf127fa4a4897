// The engine's real query expander on every query: schema validity, variants, and whether
// identifiers and quoted phrases survive expansion.
import { loadDataset, type RetrievalCase } from "../helpers/dataset.js";
import { evalTarget } from "../helpers/eval-index.js";
import { defineFor } from "../helpers/targets/eval-target.js";
import { evalModels, trialHeaders } from "../helpers/models.js";
import { validateExpansion } from "../helpers/fixtures.js";
import {
  expansionSchemaValid,
  hasLexicalVariants,
  hasVectorVariants,
  keepsAnchors,
  queryAnchors,
  type ExpansionOutput,
} from "../scorers/expansion.js";

/** The expansion of a case; trial n of every suite sends the same header, so suites share one cached call. */
const expandFor =
  (suite: string) =>
  async (input: RetrievalCase): Promise<ExpansionOutput & { elapsedMs: number }> => {
    const { target } = await evalTarget();
    const started = performance.now();
    const result = await target.expand!(input.query, { headers: trialHeaders(`${suite}:${input.id}`) });
    return { query: input.query, ...result, elapsedMs: performance.now() - started };
  };

const columns = ({ input, output }: { input: RetrievalCase; output: ExpansionOutput }) => [
  { label: "Query", value: `${input.id}: ${input.query}` },
  { label: "Expander", value: output.expander },
  { label: "Lexical", value: output.expansion.lexicalQueries.join("\n") },
  { label: "Vector", value: output.expansion.vectorQueries.join("\n") },
];

// A model's expansions vary between calls; three trials show how much (offline they cannot vary).
const trialCount = evalModels().selection.mode === "offline" ? 1 : 3;

defineFor("Query expansion", { expand: true })("Query expansion", {
  trialCount,
  data: () => loadDataset().cases.map((c) => ({ input: c })),
  task: expandFor("expansion"),
  scorers: [expansionSchemaValid(validateExpansion), hasLexicalVariants(), hasVectorVariants()],
  columns,
});

defineFor("Expansion keeps identifiers", { expand: true })("Expansion keeps identifiers", {
  trialCount,
  data: () =>
    loadDataset()
      .cases.filter((c) => queryAnchors(c.query).length > 0)
      .map((c) => ({ input: c })),
  task: expandFor("anchors"),
  scorers: [keepsAnchors()],
  columns,
});
