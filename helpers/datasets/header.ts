/**
 * The run's first lines about its dataset: its name, size and format (detected, or named by
 * EVAL_DATASET_FORMAT, and which other formats the folder also holds), where its retrieval cases
 * and turn cases came from, which set each metric counts when the dataset lists relevant documents
 * apart from its graded judgments, every field the reader could not map, every warning, and the
 * gate settings the dataset brings. `pnpm eval` prints them before anything runs; the report records the same.
 */
import { relative } from "node:path";
import type { Detected } from "./detect.js";
import { isDraft } from "./drafts.js";
import { formatTitle } from "./formats/index.js";
import type { Dataset } from "./model.js";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

export function datasetHeader(dataset: Dataset, detected: Detected | null): string[] {
  const sizes = [`${dataset.cases.length} quer${dataset.cases.length === 1 ? "y" : "ies"}`];
  if (dataset.askCases.length > 0) sizes.push(plural(dataset.askCases.length, "answer case"));
  if (dataset.turns) sizes.push(plural(dataset.turns.cases.length, "turn case"));
  const how = detected === null ? "the project's demo corpus" : detected.forced ? "EVAL_DATASET_FORMAT" : `detected: ${detected.found}`;
  const lines = [`eval: dataset ${dataset.name} (${sizes.join(", ")}): ${formatTitle(dataset.format)} (${how})`];
  const say = (text: string): void => void lines.push(`eval: dataset ${dataset.name}: ${text}`);
  if (detected && detected.alsoHolds.length > 0)
    say(
      `the source also holds ${detected.alsoHolds.map((f) => `${f.title} (EVAL_DATASET_FORMAT=${f.name})`).join(", ")}; read as ${dataset.format}`,
    );
  if (dataset.derivedCases)
    say(
      `no retrieval judgments: ${plural(dataset.cases.length, "retrieval case")} derived from the answer cases' required citations (each cited document judged relevant)`,
    );
  const split = dataset.splitRelevance;
  if (split)
    say(
      `relevance: in ${split.cases} of ${dataset.cases.length} quer${dataset.cases.length === 1 ? "y" : "ies"} ${split.relevantField} is not exactly the documents judged 1 or more: ` +
        `Recall@k, P@k, MRR, AP, cross-language recall and "lost at" count ${split.relevantField} (binary); nDCG@k counts ${split.gradedField} (graded; a ${split.relevantField} document without a judgment counts as judged 1); each row's metadata names its set (relevantFrom)`,
    );
  if (dataset.turns?.format === "golden-cases")
    say(
      `turn cases: ${relative(process.cwd(), dataset.turns.file) || dataset.turns.file} read as a v10r-style golden set and mapped to the suite's turn cases (docs/evals.md, The agent eval)`,
    );
  const drafts = [...dataset.askCases, ...(dataset.derivedCases ? [] : dataset.cases), ...(dataset.turns?.cases ?? [])].filter(
    isDraft,
  ).length;
  if (drafts > 0)
    say(
      `drafts: ${drafts} (status "draft": not reviewed yet): measured and reported apart, not gated, in no floor and no mean over all cases; pnpm eval:review ${relative(process.cwd(), dataset.source) || dataset.source} reviews them`,
    );
  for (const u of dataset.unmapped) say(`not mapped: ${u.file} ${u.field} (${plural(u.records, "record")}): ${u.why}`);
  for (const w of dataset.warnings) say(`WARNING: ${w}`);
  if (dataset.gate) {
    const parts = [
      ...(dataset.gate.minPassRate !== undefined ? [`pass rate ≥ ${dataset.gate.minPassRate}`] : []),
      ...(dataset.gate.maxP95LatencyMs !== undefined ? [`p95 answer latency ≤ ${dataset.gate.maxP95LatencyMs} ms`] : []),
    ];
    say(`its own gate (${dataset.gate.source}): ${parts.join(" and ")} over the answer eval's questions, or the run fails`);
  }
  return lines;
}
