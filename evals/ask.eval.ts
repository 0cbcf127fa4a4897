// Answer quality: the engine's ask() on the fixture answer cases, by preset when a model is
// configured (offline: the extractive answerer only, labeled as such), graded deterministically
// and with the RAG triad (LLM judge when configured, token-overlap heuristic otherwise). Each
// grader runs only on the cases it applies to; the column "Diagnosis" says whether a failure is
// retrieval's or generation's.
import { evalite } from "evalite";
import type { AskResult, Preset } from "@hybrid-search/engine";
import { evalDataset, evalTarget } from "../helpers/eval-index.js";
import { defineFor } from "../helpers/targets/eval-target.js";
import { type AskCase, fixtureTranslationMap, loadAskCases } from "../helpers/fixtures.js";
import { evalModels, trialHeaders } from "../helpers/models.js";
import { forwardTrace } from "../helpers/retrieval-task.js";
import { once } from "../helpers/run-cache.js";
import {
  answerExcludes,
  answerIncludes,
  casesFor,
  cites,
  citesOnlySurfaced,
  noCitations,
  refusal,
  topicCoverage,
} from "../scorers/answer.js";
import { diagnose, formatDiagnosis, goldenSetWarning } from "../scorers/diagnosis.js";
import { answerRelevance, contextRelevance, faithfulness, triadCases } from "../scorers/judge.js";

const models = evalModels();
const offline = models.selection.mode === "offline";
// One suite per preset with a model; offline there is one answerer whatever the preset.
const variants: Array<{ name: string; input: Preset }> = offline
  ? [{ name: "offline extractive", input: "balanced" }]
  : (["slim", "balanced", "quality"] as const).map((p) => ({ name: p, input: p }));
const cases = loadAskCases();
/** A citation of a translation of a required document counts (same facts): the fixture translation groups. */
const citationPolicy = { translations: fixtureTranslationMap() };
// The answer cases ask about the fixture corpus; against another dataset (EVAL_DATASET) they would
// only measure that the corpus differs, so these suites are skipped there, like the cross-language ones.
const each = evalite.each(variants);
const define = evalDataset().kind === "fixtures" && defineFor("Answers", { ask: true }) === evalite ? each : each.skip;

/**
 * ask() for a case; keyed per suite so every suite's trial n makes the same call, which runs once
 * per run (helpers/run-cache.ts) and is shared by the suites that grade it. Not serialized like
 * retrieval calls: no latency is scored here, and model calls gain from Evalite's concurrency.
 */
const ask =
  (suite: string) =>
  async (c: AskCase, preset: Preset): Promise<AskResult> => {
    const { target, fingerprint } = await evalTarget();
    const headers = trialHeaders(`${suite}:${preset}:${c.id}`);
    const request = { id: c.id, question: c.question, preset, headers };
    const result = await once([target.kind, target.name, fingerprint, "ask", request], () => target.ask(request));
    forwardTrace(result.trace);
    return result;
  };

const columns = ({ input, output }: { input: AskCase; output: AskResult }) => [
  { label: "Question", value: `${input.id} (${input.category}): ${input.question}` },
  { label: "Answerer", value: `${output.answerer}${output.preset ? ` [${output.preset}]` : ""}` },
  { label: "Answer", value: output.error ? `ERROR: ${output.error}` : output.answer },
  { label: "Citations", value: output.citations.map((c) => `[${c.ref}] ${c.docId}`).join("\n") || "(none)" },
  {
    label: "Diagnosis",
    value:
      formatDiagnosis(diagnose(input, output, citationPolicy)) +
      (goldenSetWarning(input, output) ? `\n⚠ ${goldenSetWarning(input, output)!.message}` : ""),
  },
];

const rows = (subset: readonly AskCase[]) => subset.map((input) => ({ input }));
const judged = (metric: string) => ({
  ...(models.judge ? { judge: models.judge } : {}),
  timeoutMs: models.selection.limits.timeoutMs,
  headers: (c: AskCase) => trialHeaders(`judge:${metric}:${c.id}`),
});

define("Answers: refusal and citations", {
  data: rows(cases),
  task: ask("refusal"),
  scorers: [refusal(), noCitations(), citesOnlySurfaced()],
  columns,
});

define("Answers: facts", {
  data: rows(casesFor("answer-includes", cases)),
  task: ask("facts"),
  scorers: [answerIncludes()],
  columns,
});

define("Answers: required citations", {
  data: rows(casesFor("cites", cases)),
  task: ask("cites"),
  scorers: [cites(citationPolicy)],
  columns,
});

define("Answers: forbidden content", {
  data: rows(casesFor("answer-excludes", cases)),
  task: ask("forbidden"),
  scorers: [answerExcludes()],
  columns,
});

define("Answers: topics", {
  data: rows(casesFor("topic-coverage", cases)),
  task: ask("topics"),
  scorers: [topicCoverage()],
  columns,
});

define("Answers: RAG triad", {
  data: rows(triadCases(cases)),
  task: ask("triad"),
  scorers: [contextRelevance(judged("context")), faithfulness(judged("faithfulness")), answerRelevance(judged("relevance"))],
  columns: (o: { input: AskCase; output: AskResult }) => [
    ...columns(o),
    { label: "Judge", value: models.judge ? `llm-judge ${models.ids.judge}` : "heuristic (no judge configured)" },
  ],
});
