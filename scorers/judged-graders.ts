/**
 * The graders a judge grades when one is configured: the RAG triad (triad/) and topic coverage
 * (completeness.ts). The suite registers them with the gate (bin/eval-verdict.ts hands them to
 * `judgeRun`), which counts their scores' methods into the run's judge mode (`llm-judge`,
 * `heuristic`, `mixed`): the gate names no grader of its own.
 */
export const JUDGED_GRADERS: readonly string[] = ["context-relevance", "faithfulness", "answer-relevance", "topic-coverage"];
