/**
 * `ask()` on a worker thread: an Engine opened on the same index file in a thread of its own, for
 * a caller whose thread has other work to do meanwhile (the eval suite grades and records one
 * answer while the next is being written). The answers are the engine's: the same index, the same
 * parameters, the same code; each is timed on the thread (`elapsedMs`), one at a time, in the order
 * asked.
 *
 * Only the engine's offline components run there (its default embedder, reranker, expander and
 * extractive answerer): a model object cannot cross to another thread, so a caller with models
 * asks its own Engine. The thread is the sibling module `ask-worker`, started and spoken to as
 * every engine worker is (worker-client.ts): a failure of one question rejects that question with
 * the engine's message; a failure of the thread (the index cannot be opened, the thread dies)
 * rejects every question still waiting and every later one.
 */
import type { AskOptions, AskResult, EngineOptions } from "../types.js";
import { startSiblingWorker, WorkerClient } from "../worker-client.js";

/** The Engine options an answering thread is opened with: data only, so they can cross to it. */
export type AskThreadOptions = Pick<EngineOptions, "analyzer" | "chunker" | "hybrid" | "modelLimits" | "busyTimeoutMs">;

/** What the worker gets when it starts (`workerData`). */
export interface AskThreadSetup {
  file: string;
  options: AskThreadOptions;
}

export interface AskThreadRequest {
  id: number;
  question: string;
  options: AskOptions;
}

const FAILED = "answering on a worker thread failed";

export class AskThread {
  private readonly client: WorkerClient<AskThreadRequest, { result: AskResult }>;

  private constructor(setup: AskThreadSetup) {
    try {
      this.client = new WorkerClient(startSiblingWorker(import.meta.url, "ask-worker", setup), FAILED);
    } catch (error) {
      throw new Error(`${FAILED}: the worker could not start: ${(error as Error).message}`, { cause: error });
    }
    // An idle thread does not keep the process alive; one with a question to answer does.
    this.client.unrefWhenIdle();
  }

  /** Opens the index at `file` on a new worker thread (as `Engine.open(file, options)` would). */
  static open(file: string, options: AskThreadOptions = {}): AskThread {
    return new AskThread({ file, options });
  }

  /** `Engine.ask(question, options)`, answered on the thread after every question asked before it. */
  async ask(question: string, options: AskOptions = {}): Promise<AskResult> {
    return (await this.client.request({ question, options })).result;
  }

  /** The first failure of the thread, if any. */
  get failed(): Error | undefined {
    return this.client.failure;
  }

  /** Terminates the thread (closing its index); a question still waiting is rejected. */
  close(): Promise<void> {
    return this.client.close();
  }
}
