/**
 * How many cases Evalite runs at once (its `maxConcurrency`, Vitest's default 5): for a target
 * other than the in-process engine, at least as many as it takes calls at once
 * (EVAL_TARGET_CONCURRENCY), so that a remote target's calls fill its concurrency; a suite of
 * five cases at once would hold a target that takes sixteen to five. In-process rankings are run
 * one at a time whatever this is (helpers/retrieval-task.ts). Read leniently: global setup checks
 * the variable and stops a run whose value is malformed, with one line. No imports: evalite.config.ts
 * reads it.
 */
export const DEFAULT_CASE_CONCURRENCY = 5;

export function caseConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  if (!env.EVAL_TARGET?.trim()) return DEFAULT_CASE_CONCURRENCY;
  const raw = env.EVAL_TARGET_CONCURRENCY?.trim() ?? "";
  const n = /^\d+$/.test(raw) ? Number(raw) : 0;
  return Math.max(DEFAULT_CASE_CONCURRENCY, n);
}
