// Answer quality: the target's ask() on the dataset's answer cases, by preset when a model is
// configured (offline: the extractive answerer only, labeled as such), graded deterministically
// and with the RAG triad (LLM judge when configured, token-overlap heuristic otherwise). Each
// grader runs only on the cases it applies to; the column "Diagnosis" says whether a failure is
// retrieval's or generation's. "Answers: questions" gives one verdict per question (every
// expectation it declares) and its latency; with models, the preset order (quality ≥ balanced ≥
// slim) is measured per question and on the mean.
import { type Evalite, evalite } from "evalite";
import type { Preset } from "@hybrid-search/target-contract/types";
import { answerAhead } from "../helpers/answer-ahead.js";
import { type AnswerRecord, askCase, presetComparison, presetMeans, presetValuesLine } from "../helpers/ask-task.js";
import { allDraftsReason, reviewedOnly } from "../helpers/dataset.js";
import { answersReason } from "../helpers/datasets/needs.js";
import { defineEval } from "../helpers/define-eval.js";
import { evalDataset } from "../helpers/eval-index.js";
import { logSummary } from "../helpers/summary-line.js";
import { answerSuites } from "../helpers/targets/eval-target.js";
import { type AskCase, translationsByDoc } from "../helpers/fixture-files.js";
import { evalModels } from "../helpers/models.js";
import { trialHeaders } from "../helpers/run-cache.js";
import {
  answerExcludes,
  answerIncludes,
  answerIncludesAny,
  casesFor,
  cites,
  citesOnlySurfaced,
  noCitations,
  refusal,
} from "../scorers/answer/index.js";
import { completeness } from "../scorers/completeness.js";
import { diagnose, formatDiagnosis, goldenSetWarning } from "../scorers/diagnosis.js";
import {
  answerCorrectness,
  answerRelevance,
  contextRelevance,
  correctnessCases,
  faithfulness,
  triadCases,
} from "../scorers/triad/index.js";
import { claimsColumn } from "../helpers/claims-trace.js";
import { latencyBudget } from "../scorers/latency.js";
import type { RecognizedAnswer } from "../scorers/refusal.js";
import { PRESET_ORDER, presetsOrdered } from "../scorers/tier-order.js";
import { generationVerdictScorer, questionVerdictScorer } from "../scorers/verdict.js";

const models = evalModels();
const offline = models.selection.mode === "offline";
// One suite per preset when the engine answers with the suite's models; offline there is one
// answerer whatever the preset. Another target answers for itself: one suite, named by it.
const variants = answerSuites(offline ? null : PRESET_ORDER);
const dataset = evalDataset();
const cases = dataset.askCases;
/** A citation of a translation of a required document counts (same facts): the dataset's translation groups. */
const citationPolicy = { translations: translationsByDoc(dataset.translations) };
const each = evalite.each(variants);
// The in-process engine's offline answers, in a run of 1,000 or more, are written on threads of their own while the cases are graded.
answerAhead(
  variants.map((v) => v.input),
  () => cases,
);
/** Each suite runs on the cases its graders apply to; a dataset without them skips it, saying why (`what`: which cases are missing). */
const define = (subset: readonly AskCase[], what: string) => defineEval({ ask: true, data: answersReason(dataset, subset, what) }, each);
/** The latency budget of one answer: the extractive answerer takes milliseconds, a model seconds. */
const ASK_BUDGET_MS = offline ? 2_000 : 20_000;

/** A suite's task: the case's answer, stored whole or as graded (helpers/ask-task.ts, `AnswerRecord`). */
const ask =
  (suite: string, record: AnswerRecord = "graded") =>
  (c: AskCase, preset: Preset) =>
    askCase(suite, c, preset, record);

const columns = ({ input, output }: { input: AskCase; output: RecognizedAnswer }) => {
  const warning = goldenSetWarning(input, output);
  return [
    { label: "Question", value: `${input.id}${input.category ? ` (${input.category})` : ""}: ${input.question}` },
    { label: "Answerer", value: `${output.answerer}${output.preset ? ` [${output.preset}]` : ""}` },
    { label: "Answer", value: output.error ? `ERROR: ${output.error}` : output.answer },
    { label: "Citations", value: output.citations.map((c) => `[${c.ref}] ${c.docId}`).join("\n") || "(none)" },
    { label: "Diagnosis", value: formatDiagnosis(diagnose(input, output, citationPolicy)) + (warning ? `\n⚠ ${warning.message}` : "") },
  ];
};

const rows = (subset: readonly AskCase[]) => subset.map((input) => ({ input }));
const judgeColumn = { label: "Judge", value: models.judge ? `llm-judge ${models.ids.judge}` : "heuristic (no judge configured)" };
const judged = (metric: string) => ({
  ...(models.judge ? { judge: models.judge } : {}),
  timeoutMs: models.selection.limits.timeoutMs,
  headers: (c: AskCase) => trialHeaders(`judge:${metric}:${c.id}`),
});

define(cases, "")("Answers: refusal and citations", {
  data: rows(cases),
  task: ask("refusal"),
  scorers: [refusal(), noCitations(), citesOnlySurfaced()],
  columns,
});

define(casesFor("answer-includes", cases), "has expectedSubstrings")("Answers: facts", {
  data: rows(casesFor("answer-includes", cases)),
  task: ask("facts"),
  scorers: [answerIncludes()],
  columns,
});

// Alternatives (a golden Q&A set's any-of mode) are optional: a dataset that lists none has no such suite, rather than one skipped.
if (casesFor("answer-includes-any", cases).length > 0)
  define(casesFor("answer-includes-any", cases), "lists expectedSubstringsAny")("Answers: facts (one of)", {
    data: rows(casesFor("answer-includes-any", cases)),
    task: ask("facts-any"),
    scorers: [answerIncludesAny()],
    columns,
  });

define(casesFor("cites", cases), "names a document to cite")("Answers: required citations", {
  data: rows(casesFor("cites", cases)),
  task: ask("cites"),
  scorers: [cites(citationPolicy)],
  columns,
});

// Evalite runs five of a file's suites at once, starting the next when one ends: the suites that
// hold (nearly) every question come first, so that all of them grade each answer as it is written.
define(triadCases(cases), "expects an answer rather than a refusal")("Answers: RAG triad", {
  data: rows(triadCases(cases)),
  task: ask("triad"),
  scorers: [contextRelevance(judged("context")), faithfulness(judged("faithfulness")), answerRelevance(judged("relevance"))],
  columns: (o: { input: AskCase; output: RecognizedAnswer; scores: Evalite.Score[] }) => [
    ...columns(o),
    claimsColumn(o.scores, "Faithfulness"),
    judgeColumn,
  ],
});

define(correctnessCases(cases), "has a reference answer")("Answers: answer correctness", {
  data: rows(correctnessCases(cases)),
  task: ask("correctness"),
  scorers: [answerCorrectness(judged("correctness"))],
  columns: (o: { input: AskCase; output: RecognizedAnswer; scores: Evalite.Score[] }) => [
    ...columns(o),
    { label: "Reference", value: o.input.referenceAnswer ?? "" },
    claimsColumn(o.scores, "Answer correctness"),
    judgeColumn,
  ],
});

// Every question is one of its cases, so each question's whole answer and trace are stored here, once.
define(cases, "")("Answers: questions", {
  data: rows(cases),
  task: ask("questions", "whole"),
  scorers: [questionVerdictScorer({ ...citationPolicy, ...judged("verdict-topics") }), latencyBudget(ASK_BUDGET_MS)],
  columns,
});

// The given-sources lane: the case's own passages instead of retrieval, so generation is measured
// apart from retrieval. Optional, as alternatives are: a dataset that gives no sources has no such suite.
const givenCases = cases.filter((c) => (c.givenSources?.length ?? 0) > 0);
if (givenCases.length > 0)
  defineEval({ ask: true, givenSources: true, data: answersReason(dataset, givenCases, "gives sources") }, each)("Answers: given sources", {
    data: rows(givenCases),
    task: (c: AskCase, preset: Preset) => askCase("given-sources", c, preset, "whole", "given sources"),
    scorers: [generationVerdictScorer({ ...citationPolicy, ...judged("given-topics") }), faithfulness(judged("given-faithfulness"))],
    columns: (o: { input: AskCase; output: RecognizedAnswer }) => [
      ...columns(o),
      { label: "Lane", value: `given sources: ${o.input.givenSources!.map((s) => s.docId).join(", ")} (no retrieval)` },
    ],
  });

define(casesFor("answer-excludes", cases), "has forbiddenSubstrings")("Answers: forbidden content", {
  data: rows(casesFor("answer-excludes", cases)),
  task: ask("forbidden"),
  scorers: [answerExcludes()],
  columns,
});

define(casesFor("topic-coverage", cases), "has expectedTopics")("Answers: topics", {
  data: rows(casesFor("topic-coverage", cases)),
  task: ask("topics"),
  scorers: [completeness(judged("completeness"))],
  columns,
});

// Does a dearer preset answer at least as well? Measured only where the suites ask each preset
// (offline every preset is the extractive answerer; another target's presets are its own business).
const verdictOptions = { ...citationPolicy, ...judged("preset-order-topics") };
const defineOrder = variants.length > 1 ? defineEval({ ask: true, data: answersReason(dataset, cases) }) : evalite.skip;
// The mean is over reviewed questions only: a draft is measured per question, and in no mean.
const defineOrderOverAll =
  variants.length > 1
    ? defineEval({ ask: true, data: answersReason(dataset, cases) ?? allDraftsReason(cases, "answer case", dataset.name) })
    : evalite.skip;

defineOrder("Preset order per question", {
  data: rows(cases),
  task: (c: AskCase) => presetComparison(c, verdictOptions),
  scorers: [presetsOrdered("expectations met")],
  columns: ({ input, output }) => [
    { label: "Question", value: `${input.id}${input.category ? ` (${input.category})` : ""}: ${input.question}` },
    { label: "Expectations met", value: presetValuesLine(output["expectations met"], 2) },
  ],
});

defineOrderOverAll("Preset order over all questions", {
  data: [{ input: "all questions" }],
  task: async () => {
    const means = await presetMeans(reviewedOnly(cases), verdictOptions);
    logSummary(
      "Preset order over all questions",
      means.failed > 0
        ? `expectations met per question: no means, ${means.failed} of ${means.questions} questions have a failed answer at some preset`
        : `expectations met per question, mean over ${means.questions} questions: ${presetValuesLine(means["expectations met"], 3)}`,
    );
    return means;
  },
  scorers: [presetsOrdered("expectations met")],
});
