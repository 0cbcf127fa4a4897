/**
 * The task of the answer evals: the target's `ask()` for a case at a preset (computed once per run and
 * shared, helpers/run-cache.ts), its trace forwarded to Evalite, and the suite's recognition of
 * whether the answer refused (`refusalCheck`, scorers/refusal.ts: markers per language from the
 * dataset's refusal-markers.json, else fixtures/refusal-markers.json; the judge for ambiguous free text). And the preset comparison: one
 * question at every preset (once per run, shared by the per-question and the over-all preset-order
 * evals), each answer's share of expectations met — none (null) for a preset whose answer failed,
 * so a failure is never compared as a 0 (scorers/tier-order.ts leaves such a comparison not scored).
 */
import type { Preset } from "@hybrid-search/target-contract/types";
import type { ObservedAnswer } from "../scorers/observed.js";
import { PRESET_ORDER, type PresetValues } from "../scorers/tier-order.js";
import { type RecognizedAnswer, type RefusalMarkers, recognizeRefusal } from "../scorers/refusal.js";
import { rankedLists } from "../scorers/stage-loss.js";
import { expectationsMet, questionVerdict, type VerdictOptions } from "../scorers/verdict.js";
import { evalDataset, evalTarget } from "./eval-index.js";
import { type AskCase, loadRefusalMarkers } from "./fixture-files.js";
import { evalModels } from "./models.js";
import { forwardTrace } from "./retrieval-task.js";
import { once, trialHeaders } from "./run-cache.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import { observedAnswer } from "./targets/observe.js";
import type { Reply, TargetAsk } from "./targets/target.js";
import type { AskResponse } from "@hybrid-search/target-contract/types";

let markers: RefusalMarkers | undefined;

/**
 * ask() for a case, with the refusal recognised; keyed per suite so every suite's trial n makes the
 * same call, which runs once per run (helpers/run-cache.ts) and is shared by the suites that grade
 * it, its latency included (the target's own `elapsedMs`, else the suite's time around the call,
 * else unknown: helpers/targets/observe.ts). Not serialized like retrieval calls:
 * model calls gain from Evalite's concurrency, so the latency measured is under that load (up to
 * five at once); the in-process engine's offline answers, in a large run, are written on threads
 * of their own (helpers/answer-ahead.ts), and a case finds its answer there. `record` says how
 * much of it the suite stores (`AnswerRecord`); the graders read all of it either way.
 */
export async function askCase(suite: string, c: AskCase, preset: Preset, record: AnswerRecord = "whole"): Promise<RecognizedAnswer> {
  const models = evalModels();
  const request = askRequest(c, preset, trialHeaders(`${suite}:${preset}:${c.id}`));
  const result = await askOnce(await evalTarget(), request);
  if (record === "whole" && result.trace) forwardTrace(result.trace);
  markers ??= evalDataset().refusalMarkers ?? loadRefusalMarkers();
  const refusalCheck = await recognizeRefusal(result, markers, {
    ...(models.judge ? { judge: models.judge } : {}),
    headers: trialHeaders(`judge:refusal:${suite}:${preset}:${c.id}`),
    timeoutMs: models.selection.limits.timeoutMs,
  });
  // The output keeps only the trace's ranked lists (what the diagnosis reads): the whole trace,
  // forwarded above, is the case's trace view; stored again in every output, it was most of an
  // answer run's storage and of what its worker sends (docs/evals.md, "Answer quality").
  const answer: RecognizedAnswer = { ...result, ...(result.trace ? { trace: rankedLists(result.trace) } : {}), refusalCheck };
  if (record === "graded") Object.defineProperty(answer, "toJSON", { value: () => gradedView(answer) });
  return answer;
}

/** What a case asks the target: its question at `preset`, with its trial's `headers` (helpers/run-cache.ts, `trialHeaders`). */
export function askRequest(c: AskCase, preset: Preset, headers: Record<string, string>): TargetAsk {
  return { id: c.id, question: c.question, preset, headers };
}

/**
 * The target's answer to `request`, observed (helpers/targets/observe.ts): computed once per run
 * for the target, its index and the request (helpers/run-cache.ts), by `ask` (the target's own,
 * unless helpers/answer-ahead.ts asked first on a thread of its own), and shared by every suite
 * that grades it.
 */
export function askOnce(
  measured: MeasuredTarget,
  request: TargetAsk,
  ask: (request: TargetAsk) => Promise<Reply<AskResponse>> = (r) => measured.target.ask(r),
): Promise<ObservedAnswer> {
  const { target, fingerprint } = measured;
  return once([target.label, fingerprint, "ask", request], async () => observedAnswer(request.question, await ask(request), target.label));
}

/**
 * How much of an answer a suite stores in Evalite. "whole": the answer with its sources' texts and
 * the ranked lists the diagnosis reads, and the question's trace view. "graded": the answer as
 * graded without those three (its text, citations, refusal, evidence, the sources' references and
 * titles), saying where they are: every question is a case of one suite that stores it whole
 * ("Answers: questions"), so each question's record is stored once, not once per suite that
 * grades it. At 2,000 questions the copies were most of a run's bytes through Evalite's worker,
 * its main process and its storage (docs/evals.md, "Answer quality").
 */
export type AnswerRecord = "whole" | "graded";

/** Where a graded answer's sources' texts, ranked lists and trace are stored. */
export const WHOLE_RECORD_NOTE =
  "the sources' texts, the ranked lists and the trace are stored with this question's case in Answers: questions";

/** What a suite that stores answers "graded" keeps of one (`AnswerRecord`); JSON.stringify stores this. */
export function gradedView(answer: RecognizedAnswer): Omit<RecognizedAnswer, "trace" | "sources"> & {
  sources: Array<Omit<RecognizedAnswer["sources"][number], "text">>;
  record: string;
} {
  const { trace: _trace, sources, ...graded } = answer;
  return { ...graded, sources: sources.map(({ text: _text, ...source }) => source), record: WHOLE_RECORD_NOTE };
}

/** Per preset, one value of a question (or the mean over questions); null where the answer failed. */
export interface PresetComparison {
  "expectations met": PresetValues;
  [metric: string]: PresetValues;
}

/**
 * One question answered at every preset: the share of its expectations each answer met, null for
 * a preset whose answer failed. Once per run (helpers/run-cache.ts) for the index and question: the
 * per-question and the over-all preset-order evals share it, and a watch-mode rerun computes it
 * afresh.
 */
export async function presetComparison(c: AskCase, options: VerdictOptions): Promise<PresetComparison> {
  const { target, fingerprint } = await evalTarget();
  return once([target.label, fingerprint, "preset-order", c.id], async () => {
    const met = {} as PresetValues;
    for (const preset of PRESET_ORDER) {
      const answer = await askCase("preset-order", c, preset);
      met[preset] = answer.error !== undefined ? null : expectationsMet(await questionVerdict(c, answer, options));
    }
    return { "expectations met": met };
  });
}

/** The means per preset, over how many questions, and how many of them have a failed answer at some preset. */
export type PresetMeans = PresetComparison & { questions: number; failed: number };

/**
 * The means over questions per preset — none (null) when any question has a failed answer at some
 * preset: a mean over the questions that happened to be answered is a mean over a subset chosen by
 * the failure, not over the questions, and a failure counted as a 0 is not a measurement.
 */
export async function presetMeans(cases: readonly AskCase[], options: VerdictOptions): Promise<PresetMeans> {
  const all = await Promise.all(cases.map((c) => presetComparison(c, options)));
  const failed = all.filter((x) => PRESET_ORDER.some((preset) => x["expectations met"][preset] === null)).length;
  const met = {} as PresetValues;
  for (const preset of PRESET_ORDER)
    met[preset] = failed > 0 ? null : all.reduce((s, x) => s + x["expectations met"][preset]!, 0) / Math.max(1, all.length);
  // `questions` and `failed` ride along for the printed line; the scorers read only the per-preset values.
  return Object.assign({ "expectations met": met }, { questions: all.length, failed }) as PresetMeans;
}

/** A comparison's values for people: `slim 0.42, balanced 0.50, quality not scored`. */
export function presetValuesLine(values: PresetValues, digits: number): string {
  return PRESET_ORDER.map((preset) => `${preset} ${values[preset] === null ? "not scored" : values[preset]!.toFixed(digits)}`).join(", ");
}
