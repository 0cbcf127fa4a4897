/**
 * The graders a judge grades when one is configured: the RAG triad and answer correctness
 * (triad/), and topic coverage (completeness.ts). The suite registers them with the gate (bin/eval-verdict.ts hands them to
 * `judgeRun`), which counts their scores' methods into the run's judge mode (`llm-judge`,
 * `heuristic`, `mixed`): the gate names no grader of its own.
 */
import { createHash } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { JudgeMethod } from "@hybrid-search/eval-gate/calibration";
import { judgeId } from "./judge-call.js";
import { COMPLETENESS_SCHEMA, COMPLETENESS_SYSTEM } from "./completeness.js";
import { REFUSAL_JUDGE_SYSTEM } from "./refusal.js";
import { ANSWER_METRICS } from "./triad/index.js";
import { topicCoverageGrader } from "./answer/topic-coverage.js";

export const JUDGED_GRADERS: readonly string[] = [
  "context-relevance",
  "faithfulness",
  "answer-relevance",
  "answer-correctness",
  "topic-coverage",
];

/**
 * What the LLM judge is told, hashed: every judged metric's prompt version and each of its steps'
 * system prompt and JSON Schema (the triad's and answer correctness's, completeness's) and the
 * refusal judge's prompt. A calibration measured the judge with
 * these; when they change, its κ belongs to another judge, and the run's judge line says so.
 */
export function judgeConfigHash(model: string): string {
  const parts = [
    model,
    ...Object.values(ANSWER_METRICS).map((m) => [
      m.id,
      m.judge.version,
      ...m.judge.steps.flatMap((step) => [step.system, JSON.stringify(step.schema)]),
    ]),
    ["topic-coverage", COMPLETENESS_SYSTEM, JSON.stringify(COMPLETENESS_SCHEMA)],
    ["refusal", REFUSAL_JUDGE_SYSTEM],
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);
}

/** The Evalite scorer name of a judged grader (what reports, pass marks and floors call it). */
export function judgedGraderName(id: string): string {
  return id === "topic-coverage" ? topicCoverageGrader.name : (ANSWER_METRICS[id as keyof typeof ANSWER_METRICS]?.name ?? id);
}

/**
 * The version of the judged metrics' heuristics (triad/, answer/topic-coverage.ts): raised whenever
 * one of them scores differently, so that a calibration of an older heuristic is not read as this
 * one's κ (the heuristic's `judgeConfig`, as a judge model's prompts hash is its).
 */
export const HEURISTIC_VERSION = 2;

/** The judge methods a run has, each with what its calibration must have measured: the heuristic (its version), and the judge model (its prompts' hash) when one is configured. */
export function judgeMethods(judge: LanguageModelV3 | undefined): Array<JudgeMethod & { judgeConfig: string | null }> {
  return [
    { method: "heuristic", model: null, judgeConfig: `heuristic-v${HEURISTIC_VERSION}` },
    ...(judge ? [{ method: "llm-judge" as const, model: judgeId(judge), judgeConfig: judgeConfigHash(judgeId(judge)) }] : []),
  ];
}
