/**
 * The graders a judge grades when one is configured: the RAG triad (triad/) and topic coverage
 * (completeness.ts). The suite registers them with the gate (bin/eval-verdict.ts hands them to
 * `judgeRun`), which counts their scores' methods into the run's judge mode (`llm-judge`,
 * `heuristic`, `mixed`): the gate names no grader of its own.
 */
import { createHash } from "node:crypto";
import { COMPLETENESS_SCHEMA, COMPLETENESS_SYSTEM } from "./completeness.js";
import { REFUSAL_JUDGE_SYSTEM } from "./refusal.js";
import { TRIAD } from "./triad/index.js";
import { topicCoverageGrader } from "./answer/topic-coverage.js";

export const JUDGED_GRADERS: readonly string[] = ["context-relevance", "faithfulness", "answer-relevance", "topic-coverage"];

/**
 * What the LLM judge is told, hashed: every judged metric's system prompt and JSON Schema (the
 * triad's, completeness's) and the refusal judge's prompt. A calibration measured the judge with
 * these; when they change, its κ belongs to another judge, and the run's judge line says so.
 */
export function judgeConfigHash(model: string): string {
  const parts = [
    model,
    ...Object.values(TRIAD).map((m) => [m.id, m.judge.system, JSON.stringify(m.judge.schema)]),
    ["topic-coverage", COMPLETENESS_SYSTEM, JSON.stringify(COMPLETENESS_SCHEMA)],
    ["refusal", REFUSAL_JUDGE_SYSTEM],
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);
}

/** The Evalite scorer name of a judged grader (what reports, pass marks and floors call it). */
export function judgedGraderName(id: string): string {
  return id === "topic-coverage" ? topicCoverageGrader.name : (TRIAD[id as keyof typeof TRIAD]?.name ?? id);
}
