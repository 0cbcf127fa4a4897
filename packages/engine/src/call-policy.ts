/**
 * One policy for every AI SDK call the engine makes — answers (`generateText`), query expansion
 * (`generateObject`), embeddings (`embedMany`) and reranking (`rerank`): the AI SDK retries a
 * failed or rate-limited call up to `maxRetries` times with backoff (honouring `retry-after`), and
 * the whole call, retries included, is given up after `timeoutMs`. The timeout aborts the call's
 * signal and also stops waiting for it, so a model that ignores its abort signal cannot hang a query.
 * `selectModels` reads both from ENGINE_TIMEOUT_MS and ENGINE_MAX_RETRIES.
 */
import type { CallPolicy } from "./types.js";

export const DEFAULT_CALL_POLICY: CallPolicy = { timeoutMs: 60_000, maxRetries: 2 };

/** What an AI SDK call takes from the policy: pass both to `generateText`, `embedMany`, `rerank`… */
export interface CallSettings {
  maxRetries: number;
  abortSignal: AbortSignal;
}

/** Runs one AI SDK call under `policy`; rejects with a timeout error naming the limit when it runs out. */
export async function callWithPolicy<T>(policy: CallPolicy, call: (settings: CallSettings) => PromiseLike<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${policy.timeoutMs} ms (the call timeout, ENGINE_TIMEOUT_MS)`);
      controller.abort(error);
      reject(error);
    }, policy.timeoutMs);
  });
  try {
    return await Promise.race([call({ maxRetries: policy.maxRetries, abortSignal: controller.signal }), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Throws RangeError unless `policy` holds a positive integer timeout and a non-negative integer retry count. */
export function checkCallPolicy(policy: CallPolicy, name: string): void {
  if (policy === null || typeof policy !== "object") throw new TypeError(`Expected "${name}" to be { timeoutMs, maxRetries }`);
  if (!Number.isInteger(policy.timeoutMs) || policy.timeoutMs < 1)
    throw new RangeError(`Expected "${name}.timeoutMs" to be a positive integer, got ${policy.timeoutMs}`);
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0)
    throw new RangeError(`Expected "${name}.maxRetries" to be a non-negative integer, got ${policy.maxRetries}`);
}
