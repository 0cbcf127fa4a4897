/**
 * The in-process engine's answers, written on threads of their own while this one grades. An
 * offline `ask()` is CPU work (retrieval, reranking, the extractive answerer): on the eval worker's
 * thread it ran between the cases' grading, recording and Evalite's messages, one case after
 * another, so on two cores one did all of that while the other mostly waited. Here the answer
 * evals name the questions they will ask (`answerAhead(presets, cases)`), and when their file
 * starts a run of at least `ANSWER_THREADS_MIN_ASKS` answers, every one of them is asked of an
 * `AskThread` (the engine opened on the run's index in a worker thread; `answerThreads()` of them,
 * taking the questions in turn), in the order the suites read them, through the run's call cache
 * (helpers/run-cache.ts, `askOnce`): a case finds its answer written or on its way, and every
 * suite that grades it shares it.
 *
 * The answers are the engine's own: the same index file, the same parameters (EVAL_ENGINE_OPTIONS),
 * the same code, the same answers (packages/engine/test/ask-thread.test.ts compares them).
 * Each is timed on its thread (`elapsedMs`), one at a time there, while the rest of the run goes on
 * around it, as an answer on the worker's thread was timed among the cases around it.
 *
 * Only when the engine answers offline: a model object cannot cross to another thread, and a
 * model's answer is a wait on the network, which Evalite's concurrent cases already overlap.
 * Another target answers for itself (helpers/rank-ahead.ts asks an HTTP target ahead).
 */
import { availableParallelism } from "node:os";
import { afterAll, beforeAll, inject } from "vitest";
import { AskThread } from "@hybrid-search/engine";
import type { AskResponse, Preset } from "@hybrid-search/target-contract/types";
import { askOnce, askRequest } from "./ask-task.js";
import type { AnswerThreadsMode } from "./engine-options.js";
import { evalIndex, evalTarget } from "./eval-index.js";
import type { AskCase } from "./fixture-files.js";
import { type EvalModels, evalModels } from "./models.js";
import { trialHeader } from "./run-cache.js";
import { runPlan } from "./run-plan.js";
import { type MeasuredTarget, providedTarget, type TargetInfo } from "./targets/eval-target.js";
import { engineAsk } from "./targets/kinds/in-process.js";
import type { Reply, TargetAsk } from "./targets/target.js";

/**
 * In an eval file, at its top level: when the file starts, asks the engine on threads of its own
 * for the answer of every case of `cases()` at each of `presets`, each trial (EVAL_TRIALS), when
 * `answersAhead` says so and `EVAL_ANSWER_THREADS` does (`threadsPay`). Nothing is awaited and
 * nothing fails here: an answer that fails fails the cases that read it, with its one line, and a
 * target or index that cannot be opened fails the cases as it would have. If the threads themselves fail (one cannot start, or dies), the
 * questions they had not answered are answered on this thread, as without them, and the run says
 * so in one line. The threads are closed when the file ends.
 */
export function answerAhead(presets: readonly Preset[], cases: () => readonly AskCase[]): void {
  if (!answersAhead(providedTarget(), evalModels().engine)) return;
  let threads: AskThread[] = [];
  let started: Promise<void> = Promise.resolve();
  // Closing rejects the questions nobody read (a filtered run): those are not answered again.
  let closing = false;
  beforeAll(() => {
    const asked = cases();
    const trials = Number(inject("trialCount") ?? 1);
    if (!threadsPay(runPlan().answerThreads, asked.length * presets.length * trials)) return;
    closing = false;
    // Not awaited: the cases wait for what they read (their answer), not for every thread to start.
    started = startThreads(asked, trials).catch(() => undefined);
  });
  afterAll(async () => {
    closing = true;
    await started;
    await Promise.all(threads.map((thread) => thread.close()));
    threads = [];
  });

  async function startThreads(asked: readonly AskCase[], trials: number): Promise<void> {
    const [measured, { dbPath }] = await Promise.all([evalTarget(), evalIndex()]);
    const { modelLimits } = evalModels().engine;
    const options = { ...runPlan().engineOptions, ...(modelLimits ? { modelLimits } : {}) };
    const own = (request: TargetAsk) => measured.target.ask(request);
    try {
      for (let i = 0; i < answerThreads(); i++) threads.push(AskThread.open(dbPath, options));
    } catch (error) {
      threadsFailed(error as Error);
      return;
    }
    const asks = threads.map((thread) => orOwn(engineAsk(thread), () => (closing ? undefined : thread.failed), own));
    askAnswersAhead(measured, asks, presets, asked, trials);
  }
}

/**
 * `ask`, answered by `own` instead once the thread behind it has failed (`failed()`): a question's
 * own failure (the engine's message) still fails it.
 */
export function orOwn(
  ask: (request: TargetAsk) => Promise<Reply<AskResponse>>,
  failed: () => Error | undefined,
  own: (request: TargetAsk) => Promise<Reply<AskResponse>>,
): (request: TargetAsk) => Promise<Reply<AskResponse>> {
  return (request) =>
    ask(request).catch((error: unknown) => {
      const failure = failed();
      if (failure === undefined) throw error;
      threadsFailed(failure);
      return own(request);
    });
}

let saidFailed = false;

function threadsFailed(error: Error): void {
  if (saidFailed) return;
  saidFailed = true;
  process.stderr.write(`eval: ${error.message.split("\n")[0]}; the answers are written on the eval worker's thread instead\n`);
}

/**
 * Asks for the answer of each case of `cases` at each of `presets`, each of `trials`, through the
 * run's call cache (`askOnce`, the key a case's `askCase` finds), each of `asks` taking the next
 * question in turn; without waiting for any. Returns how many it asked for. Each failure is
 * handled here, so none is an unhandled rejection while no case reads it yet; the case gets the
 * same promise and fails with it.
 */
export function askAnswersAhead(
  measured: MeasuredTarget,
  asks: ReadonlyArray<(request: TargetAsk) => Promise<Reply<AskResponse>>>,
  presets: readonly Preset[],
  cases: readonly AskCase[],
  trials: number,
): number {
  const ignore = () => undefined;
  let n = 0;
  // In turn, in the order the suites read the questions, so the threads write them in that order.
  for (const c of cases)
    for (const preset of presets)
      for (let trial = 1; trial <= trials; trial++)
        askOnce(measured, askRequest(c, preset, trialHeader(trial)), asks[n++ % asks.length]!).catch(ignore);
  return n;
}

/**
 * Answers asked from which `auto` writes them on threads. Measured on 20,000 documents (load about
 * 1, never against always, docs/benchmarks.md): at 2,000 questions the threads took 0.68–0.93× the
 * time; at 800 and at 200 no less time; on the fixtures' 30 questions more (5.0–5.3 s against
 * 4.2–4.3 s). And each answer is timed on a thread that shares the cores with the grading, and a
 * new thread's first answers compile the engine's code afresh: the p50 answer latency was 2–3×
 * the worker thread's. So below this the answers stay where their latency is the engine's alone.
 */
export const ANSWER_THREADS_MIN_ASKS = 1_000;

/**
 * Whether `mode` writes `asks` answers on threads: `always`; `auto` from `ANSWER_THREADS_MIN_ASKS`
 * when the process may use two cores or more (on one, a thread only competes with the grading).
 */
export function threadsPay(mode: AnswerThreadsMode, asks: number, cores: number = availableParallelism()): boolean {
  if (asks === 0 || mode === "never") return false;
  return mode === "always" || (asks >= ANSWER_THREADS_MIN_ASKS && cores >= 2);
}

/**
 * How many threads answer: two, or one where the process may use one core. On the two cores these
 * were measured on, two threads wrote 2,000 answers while the eval worker graded them and Evalite's
 * main process recorded them; a third only took cores from both (docs/benchmarks.md).
 */
export function answerThreads(): number {
  return Math.min(2, availableParallelism());
}

/**
 * Whether the answers are computed on a thread of their own: for the engine on the suite's own
 * index (an `AskThread` opens that index) when it answers with its offline components only (no
 * model in its options).
 */
export function answersAhead(target: Pick<TargetInfo, "suiteIndex">, engine: EvalModels["engine"]): boolean {
  const { embedder, reranker, expander, languageModels } = engine;
  const models = [embedder, reranker, expander, ...Object.values(languageModels ?? {})];
  return target.suiteIndex && models.every((model) => model === undefined);
}
