/**
 * The judged answer metrics — the RAG triad (context relevance, faithfulness, answer relevance) and
 * answer correctness against a reference answer — for one answer (`ObservedAnswer`) to a case
 * (`AskCase`). Each metric is one object in its own file (metric.ts says what one holds); `TRIAD`
 * lists the triad in report order, `ANSWER_METRICS` all four. Each is judged by a language model
 * when one is configured (`{ judge: LanguageModelV3 }`, ready to call: nothing here reads keys or
 * the environment) and by its keyless heuristic otherwise; every score's metadata says which:
 * `method: "llm-judge"` or `method: "heuristic"`. Heuristic and judge scores are not comparable,
 * which is why the method is on every score and the run states its mode.
 *
 * Policies:
 * - **Applies to** cases that expect an answer (`expectedRefusal` not true), and answer correctness
 *   only to those with a reference answer. For a case that should be refused the triad measures
 *   nothing useful (low context relevance is then correct), so the scorers throw
 *   `NotApplicableError`, like every grader: filter with `triadCases(cases)` and
 *   `correctnessCases(cases)`. No made-up number enters Evalite's mean.
 * - **Failed answer** (`result.error`): score 0, `status: "failed"`, no judge call.
 * - **No source text**: faithfulness and context relevance read what the answer was written from;
 *   when no source of the answer carries its text (it has none, or the target gave ids only), they
 *   are not scored (`status: "unknown"`, "no source text"), never a 0 for what could not be judged
 *   (a mean over no source is no number). That nothing was retrieved is the retrieval evals' and
 *   the diagnosis's to say.
 * - **The judge**: the metric's steps in order (faithfulness: split, then verify; the others one
 *   call), each through judge-call.ts (`generateObject` with the step's JSON Schema, temperature 0,
 *   one retry with an `x-judge-attempt: 2` header); a step that fails twice gives the heuristic,
 *   labeled `fallbackFrom: "llm-judge"` with both attempts' errors — never a 0, 1 or NaN standing
 *   in for a failed judgment. Each output is validated again with Ajv against the step's schema,
 *   then by its own check (what a schema cannot say). Every call carries `x-judge-prompt:
 *   <metric>@<version>` besides the eval's `headers` (which make trials distinct in the caches),
 *   so a change of prompts is a new cache key and the score says which prompts made it
 *   (`judgePrompt`).
 * - **Run mode** (heuristic, llm-judge or mixed) is the gate's to state: it reads every score's
 *   `method` back from the run.
 *
 * A new judged answer metric: one file beside these exporting its `TriadMetric`, its id in
 * `TriadMetricId` (metric.ts), one entry in `ANSWER_METRICS` (and `TRIAD` for a triad metric), an
 * Evalite scorer below, and its id in scorers/judged-graders.ts.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ValidateFunction } from "ajv";
import { compileValidator } from "@hybrid-search/eval-gate/standalone-validators";
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { hasSourceText, NO_SOURCE_TEXT, type ObservedAnswer } from "../observed.js";
import { failedGrade, type Grade, NotApplicableError, notGivenGrade } from "../answer/grade.js";
import type { AskCase } from "../ask-case.js";
import { askJudge, judgeId, withJudgeFallback } from "../judge-call.js";
import { answerCorrectnessMetric } from "./answer-correctness.js";
import { answerRelevanceMetric } from "./answer-relevance.js";
import { contextRelevanceMetric } from "./context-relevance.js";
import { faithfulnessMetric } from "./faithfulness.js";
import type { JudgeStep, TriadMetric, TriadMetricId } from "./metric.js";

/** The triad's metrics, in report order. */
export const TRIAD: Readonly<Record<"context-relevance" | "faithfulness" | "answer-relevance", TriadMetric>> = {
  "context-relevance": contextRelevanceMetric,
  faithfulness: faithfulnessMetric,
  "answer-relevance": answerRelevanceMetric,
};

/** Every judged answer metric scored here: the triad's, and answer correctness (for cases with a reference answer). */
export const ANSWER_METRICS: Readonly<Record<TriadMetricId, TriadMetric>> = {
  ...TRIAD,
  "answer-correctness": answerCorrectnessMetric,
};

/** Whether the triad applies: the case expects an answer. */
export function triadAppliesTo(c: AskCase): boolean {
  return c.expectedRefusal !== true;
}

/** Why a metric does not apply to a case (null: it does): the triad's rule, then the metric's own. */
export function notApplicable(id: TriadMetricId, c: AskCase): string | null {
  if (!triadAppliesTo(c)) return "the case expects a refusal, and the RAG triad measures answers";
  return ANSWER_METRICS[id].notApplicable?.(c) ?? null;
}

/** The cases the triad applies to: give the triad's eval only these. */
export function triadCases<T extends AskCase>(cases: readonly T[]): T[] {
  return cases.filter(triadAppliesTo);
}

/** The cases answer correctness applies to: those with a reference answer that expect an answer. */
export function correctnessCases<T extends AskCase>(cases: readonly T[]): T[] {
  return cases.filter((c) => notApplicable("answer-correctness", c) === null);
}

// Compiled on first use: an offline run, which judges heuristically, never loads Ajv.
const validators = new Map<JudgeStep, ValidateFunction>();

/**
 * Checks one judge step's output: its JSON Schema, then the step's own check. Returns the problem
 * in words, or null when valid.
 */
export function judgmentProblem(step: JudgeStep, value: unknown, result: ObservedAnswer, earlier: readonly unknown[] = []): string | null {
  let validate = validators.get(step);
  if (!validate) validators.set(step, (validate = compileValidator({ options: { allErrors: true }, schema: step.schema })));
  if (!validate(value))
    return `does not match the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim()).join("; ")}`;
  return step.check?.(value, result, earlier) ?? null;
}

/** The header every judge call of a metric carries: its prompts' version (part of the model cache's key; judged-graders.ts hashes it too). */
export const JUDGE_PROMPT_HEADER = "x-judge-prompt";

/** `<metric>@<version>`: which prompts a metric's judge calls were made with. */
export function judgePromptVersion(id: TriadMetricId): string {
  return `${id}@${ANSWER_METRICS[id].judge.version}`;
}

export interface TriadOptions {
  /** The judge model, ready to call; undefined scores with the heuristic. */
  judge?: LanguageModelV3;
  /** Extra HTTP headers per judge call (an eval makes trials distinct in Evalite's cache with one). */
  headers?: Record<string, string> | ((c: AskCase, result: ObservedAnswer) => Record<string, string> | undefined);
  /** Time allowed per judge attempt. @default 45000 */
  timeoutMs?: number;
}

/**
 * One judged answer metric for one case: the judge when configured (each of its steps with one
 * retry; a step that fails twice gives the heuristic, labeled), else the heuristic. Never throws
 * for a judge failure; throws NotApplicableError for a case the metric does not apply to.
 */
export async function triadScore(id: TriadMetricId, c: AskCase, result: ObservedAnswer, options: TriadOptions = {}): Promise<Grade> {
  const metric = ANSWER_METRICS[id];
  const why = notApplicable(id, c);
  if (why !== null) throw new NotApplicableError(id, c.id, why);
  if (result.error !== undefined) return failedGrade(id, c, result, metric.definition);
  if (metric.readsSources && !hasSourceText(result)) return notGivenGrade(id, c, metric.definition, NO_SOURCE_TEXT);
  const { judge } = options;
  if (!judge) return metric.heuristic(c, result);
  const headers = {
    ...(typeof options.headers === "function" ? options.headers(c, result) : options.headers),
    [JUDGE_PROMPT_HEADER]: judgePromptVersion(id),
  };
  const judgments: unknown[] = [];
  let attempts = 0;
  let cached = true;
  let retriedAfter: string | undefined;
  for (const step of metric.judge.steps) {
    if (judgments.length > 0 && metric.judge.done?.(judgments)) break;
    const earlier = [...judgments];
    const outcome = await askJudge({
      judge,
      schema: step.schema,
      name: step.name,
      description: step.description,
      system: step.system,
      prompt: step.prompt(c, result, earlier),
      problem: (value) => judgmentProblem(step, value, result, earlier),
      headers,
      timeoutMs: options.timeoutMs ?? 45_000,
    });
    if (!outcome.ok) return withJudgeFallback(metric.heuristic(c, result), judge, outcome.errors);
    judgments.push(outcome.value);
    attempts += outcome.attempts;
    cached &&= outcome.cached;
    retriedAfter ??= outcome.retriedAfter;
  }
  const grade = metric.judge.grade(judgments, c);
  grade.metadata.judgeModel = judgeId(judge);
  grade.metadata.judgePrompt = judgePromptVersion(id);
  grade.metadata.attempts = attempts;
  grade.metadata.cached = cached;
  if (retriedAfter !== undefined) grade.metadata.retriedAfter = retriedAfter;
  return grade;
}

function triadScorer(id: TriadMetricId, options: TriadOptions): Evalite.Scorer<AskCase, ObservedAnswer, unknown> {
  const metric = ANSWER_METRICS[id];
  return createScorer<AskCase, ObservedAnswer, unknown>({
    name: metric.name,
    description: `${metric.definition} (${options.judge ? `llm-judge ${judgeId(options.judge)}, heuristic fallback` : "heuristic: token overlap"})`,
    scorer: ({ input, output }) => triadScore(id, input, output, options),
  });
}

/** "Context relevance" (context-relevance.ts: when to use it and when not). */
export const contextRelevance = (options: TriadOptions = {}) => triadScorer("context-relevance", options);

/** "Faithfulness" (faithfulness.ts: when to use it and when not). */
export const faithfulness = (options: TriadOptions = {}) => triadScorer("faithfulness", options);

/** "Answer relevance" (answer-relevance.ts: when to use it and when not). */
export const answerRelevance = (options: TriadOptions = {}) => triadScorer("answer-relevance", options);

/** "Answer correctness" (answer-correctness.ts: when to use it and when not); give it `correctnessCases(cases)`. */
export const answerCorrectness = (options: TriadOptions = {}) => triadScorer("answer-correctness", options);

export { answerCorrectnessMetric } from "./answer-correctness.js";
export { claimsColumn } from "./claims-column.js";
export { answerRelevanceMetric, SHORT_ANSWER_TERMS } from "./answer-relevance.js";
export { contextRelevanceMetric } from "./context-relevance.js";
export { answerClaims, type Claim, faithfulnessMetric } from "./faithfulness.js";
export { type JudgeStep, judgePrompt, type TriadMetric, type TriadMetricId } from "./metric.js";
