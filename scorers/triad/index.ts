/**
 * The RAG triad — context relevance, faithfulness, answer relevance — for one answer
 * (`ObservedAnswer`) to a case (`AskCase`). Each metric is one object in its own file (metric.ts says
 * what one holds); `TRIAD` lists them in report order. Each is judged by a language model when one
 * is configured (`{ judge: LanguageModelV3 }`, ready to call: nothing here reads keys or the
 * environment) and by its keyless heuristic otherwise; every score's metadata says which:
 * `method: "llm-judge"` or `method: "heuristic"`. Heuristic and judge scores are not comparable,
 * which is why the method is on every score and the run states its mode.
 *
 * Policies:
 * - **Applies to** cases that expect an answer (`expectedRefusal` not true). For a case that
 *   should be refused the triad measures nothing useful (low context relevance is then correct),
 *   so the scorers throw `NotApplicableError`, like every grader: filter with `triadCases(cases)`.
 *   No made-up number enters Evalite's mean.
 * - **Failed answer** (`result.error`): score 0, `status: "failed"`, no judge call.
 * - **No source text**: faithfulness and context relevance read what the answer was written from;
 *   when no source of the answer carries its text (it has none, or the target gave ids only), they
 *   are not scored (`status: "unknown"`, "no source text"), never a 0 for what could not be judged
 *   (a mean over no source is no number). That nothing was retrieved is the retrieval evals' and
 *   the diagnosis's to say.
 * - **The judge**: one call through judge-call.ts (`generateObject` with the metric's JSON Schema,
 *   temperature 0, one retry with an `x-judge-attempt: 2` header, then the heuristic, labeled
 *   `fallbackFrom: "llm-judge"` with both attempts' errors — never a 0, 1 or NaN standing in for
 *   a failed judgment). The judge's output is validated again with Ajv against the schema, then by
 *   the metric's own check (what a schema cannot say). `headers` (per call) reach
 *   `generateObject`, so an eval can make Evalite's cache keys of trials distinct.
 * - **Run mode** (heuristic, llm-judge or mixed) is the gate's to state: it reads every score's
 *   `method` back from the run.
 *
 * A new triad metric: one file beside these exporting its `TriadMetric`, its id in
 * `TriadMetricId` (metric.ts), one entry in `TRIAD`, and an Evalite scorer below.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ValidateFunction } from "ajv";
import { compileValidator } from "@hybrid-search/eval-gate/standalone-validators";
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { hasSourceText, NO_SOURCE_TEXT, type ObservedAnswer } from "../observed.js";
import { failedGrade, type Grade, NotApplicableError, notGivenGrade } from "../answer/grade.js";
import type { AskCase } from "../ask-case.js";
import { judgedGrade, judgeId } from "../judge-call.js";
import { answerRelevanceMetric } from "./answer-relevance.js";
import { contextRelevanceMetric } from "./context-relevance.js";
import { faithfulnessMetric } from "./faithfulness.js";
import { judgePrompt, type TriadMetric, type TriadMetricId } from "./metric.js";

/** The triad's metrics, in report order. */
export const TRIAD: Readonly<Record<TriadMetricId, TriadMetric>> = {
  "context-relevance": contextRelevanceMetric,
  faithfulness: faithfulnessMetric,
  "answer-relevance": answerRelevanceMetric,
};

/** Whether the triad applies: the case expects an answer. */
export function triadAppliesTo(c: AskCase): boolean {
  return c.expectedRefusal !== true;
}

/** The cases the triad applies to: give the triad's eval only these. */
export function triadCases<T extends AskCase>(cases: readonly T[]): T[] {
  return cases.filter(triadAppliesTo);
}

// Compiled on first use: an offline run, which judges heuristically, never loads Ajv.
const validators = new Map<TriadMetricId, ValidateFunction>();

/**
 * Checks a judge's output: the metric's JSON Schema, then the metric's own check. Returns the
 * problem in words, or null when valid.
 */
export function judgmentProblem(id: TriadMetricId, value: unknown, result: ObservedAnswer): string | null {
  const metric = TRIAD[id];
  let validate = validators.get(id);
  if (!validate) validators.set(id, (validate = compileValidator({ options: { allErrors: true }, schema: metric.judge.schema })));
  if (!validate(value))
    return `does not match the schema: ${(validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim()).join("; ")}`;
  return metric.judge.check?.(value, result) ?? null;
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
 * One triad metric for one case: the judge when configured (one retry, then the heuristic,
 * labeled), else the heuristic. Never throws for a judge failure; throws NotApplicableError for
 * a case that expects a refusal.
 */
export async function triadScore(id: TriadMetricId, c: AskCase, result: ObservedAnswer, options: TriadOptions = {}): Promise<Grade> {
  const metric = TRIAD[id];
  if (!triadAppliesTo(c)) throw new NotApplicableError(id, c.id, "the case expects a refusal, and the RAG triad measures answers");
  if (result.error !== undefined) return failedGrade(id, c, result, metric.definition);
  if (metric.readsSources && !hasSourceText(result)) return notGivenGrade(id, c, metric.definition, NO_SOURCE_TEXT);
  const { judge } = options;
  if (!judge) return metric.heuristic(c, result);
  return judgedGrade(
    {
      judge,
      schema: metric.judge.schema,
      name: id.replace("-", "_"),
      description: `${metric.name} judgment`,
      system: metric.judge.system,
      prompt: judgePrompt(result, c),
      problem: (value) => judgmentProblem(id, value, result),
      headers: typeof options.headers === "function" ? options.headers(c, result) : options.headers,
      timeoutMs: options.timeoutMs ?? 45_000,
    },
    (judgment) => metric.judge.grade(judgment, c),
    () => metric.heuristic(c, result),
  );
}

function triadScorer(id: TriadMetricId, options: TriadOptions): Evalite.Scorer<AskCase, ObservedAnswer, unknown> {
  const metric = TRIAD[id];
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

export { answerRelevanceMetric } from "./answer-relevance.js";
export { contextRelevanceMetric } from "./context-relevance.js";
export { answerClaims, type Claim, faithfulnessMetric, SUPPORT_SHARE } from "./faithfulness.js";
export { judgePrompt, type TriadMetric, type TriadMetricId } from "./metric.js";
