/**
 * A remote target's rankings, asked for before the cases that read them start. Evalite runs at
 * most `maxConcurrency` of a file's suites at once, and at most `maxConcurrency` cases at once
 * across them, and starts a suite only when another has ended, so a target that takes
 * EVAL_TARGET_CONCURRENCY calls at once would sit partly idle while a suite's last cases finish
 * and the next one starts. An eval file names the rankings its suites will read
 * (`rankAhead(modes, cases)`); for a remote target (`reach: "remote"`: a service) every one of
 * them is asked for when the file starts, in the order its suites read them, through the run's
 * call cache (helpers/run-cache.ts: the same promise a case's `rank` then finds). The target's
 * client keeps EVAL_TARGET_CONCURRENCY requests in flight and queues the rest, and each case
 * finds its ranking answered or on its way.
 *
 * A call's time stays its own: the client times each request from sending it to having its body,
 * never the wait for a free slot or a retry's backoff (helpers/targets/http-target.ts).
 *
 * A target that runs in this process's thread (the in-process engine, a target module) is never
 * asked ahead: its calls are timed one at a time. Recorded runs are read, not called.
 */
import { beforeAll } from "vitest";
import type { RetrievalCase } from "./dataset.js";
import { evalTarget } from "./eval-index.js";
import { type RetrievalMode, rank, retrievalOptions } from "./retrieval-task.js";
import { type MeasuredTarget, providedTarget, type TargetInfo } from "./targets/eval-target.js";

/**
 * In an eval file, at its top level: when its file starts, asks a remote target for the
 * ranking of every case of `cases()` in each mode of `modes` it serves, in that order, with the
 * options every retrieval eval ranks with (`retrievalOptions`). Nothing is awaited and nothing
 * fails here: a ranking that fails fails the case that reads it, with its one line, as it would
 * have without being asked ahead.
 */
export function rankAhead(modes: readonly RetrievalMode[], cases: () => readonly RetrievalCase[]): void {
  const ahead = modesAhead(providedTarget(), modes);
  if (ahead.length === 0) return;
  beforeAll(async () => {
    askAhead(await evalTarget(), ahead, cases());
  });
}

/**
 * The modes of `modes` to ask a target for ahead, in their order: those it serves when it is
 * remote (a service); none for a target in this thread or a recording.
 */
export function modesAhead(target: Pick<TargetInfo, "reach" | "capabilities">, modes: readonly RetrievalMode[]): RetrievalMode[] {
  if (target.reach !== "remote") return [];
  return modes.filter((mode) => target.capabilities.modes.includes(mode));
}

/**
 * Asks `measured` for the ranking of each case of `cases` in each mode of `modes` (mode by mode,
 * cases in order) through the run's call cache, without waiting for any. Returns how many it
 * asked for. Each failure is handled here, so none is an unhandled rejection while no case reads
 * it yet; the case's `rank` gets the same promise and fails with it.
 */
export function askAhead(measured: MeasuredTarget, modes: readonly RetrievalMode[], cases: readonly RetrievalCase[]): number {
  const ignore = () => undefined;
  for (const mode of modes) for (const c of cases) rank(measured, mode, c, retrievalOptions(c)).catch(ignore);
  return modes.length * cases.length;
}
