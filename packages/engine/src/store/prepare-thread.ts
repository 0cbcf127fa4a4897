/**
 * A worker thread that prepares a large index run's passages (store/prepare.ts: terms, offline
 * vectors) while the run's own thread writes them into SQLite.
 *
 * The worker is the sibling module `prepare-worker`, started and spoken to as every engine worker
 * is (worker-client.ts): every request is answered in order; a request's failure inside the worker
 * rejects that request with the worker's message; if the worker dies, every pending request and
 * every later one is rejected, so a run waiting on it gets an error, never a hang. `close()`
 * terminates it; the index run calls it at its end and on error.
 */
import { availableParallelism } from "node:os";
import type { AnalyzerConfig } from "../text/analyze.js";
import type { IndexWorkerMode } from "../types.js";
import { startSiblingWorker, WorkerClient, type WorkerReply } from "../worker-client.js";
import type { DocumentTerms, TermsJob } from "./prepare.js";

/**
 * `auto` prepares on a worker thread when the run prepares at least `WORKER_MIN_TEXTS` texts and
 * the process may use two CPUs or more, else on its own thread; `always` and `never` force one
 * way. The index is the same either way.
 */
export const INDEX_WORKER_MODES: readonly IndexWorkerMode[] = ["auto", "always", "never"];

/**
 * Texts (passages analyzed plus texts embedded on the worker) from which `auto` uses a worker.
 * Starting one and moving every text to it and back costs; below this a run is short anyway, and
 * without a free core the worker only competes with the writes (measured: docs/benchmarks.md).
 */
export const WORKER_MIN_TEXTS = 10_000;

export function useIndexWorker(mode: IndexWorkerMode, texts: number): boolean {
  if (mode !== "auto") return mode === "always";
  return texts >= WORKER_MIN_TEXTS && availableParallelism() >= 2;
}

/** What the worker gets when it starts (`workerData`). */
export interface PrepareSetup {
  analyzer: AnalyzerConfig;
  /** Dimensions of the offline embedder the worker builds, or null: terms only. */
  dimensions: number | null;
}

export type PrepareRequest = { id: number; kind: "terms"; jobs: TermsJob[] } | { id: number; kind: "embed"; texts: string[] };

export type PrepareReply = WorkerReply<{ terms: DocumentTerms[] } | { vectors: Float32Array }>;

type Answer = { terms: DocumentTerms[] } | { vectors: Float32Array };

const FAILED = "preparing passages on a worker thread failed";

let running = 0;

/**
 * Workers this thread has started and that have not exited yet: after an index run, failed or
 * not, none of its own (test/parallel-index.test.ts). Counted here because the process's thread
 * count also holds every other thread (Vitest's other workers, a vector scan's helper).
 */
export function runningPrepareWorkers(): number {
  return running;
}

export class PrepareThread {
  private readonly client: WorkerClient<PrepareRequest, Answer>;
  /** Resolves when the worker has exited, however. */
  readonly exited: Promise<number>;

  constructor(setup: PrepareSetup) {
    try {
      this.client = new WorkerClient(startSiblingWorker(import.meta.url, "prepare-worker", setup), FAILED);
    } catch (error) {
      throw new Error(`${FAILED}: the worker could not start: ${(error as Error).message}`, { cause: error });
    }
    running++;
    this.exited = this.client.exited.then((code) => {
      running--;
      return code;
    });
  }

  /** The first failure of the worker, if any (its pending requests were rejected with it). */
  get failed(): Error | undefined {
    return this.client.failure;
  }

  async terms(jobs: TermsJob[]): Promise<DocumentTerms[]> {
    const reply = await this.client.request({ kind: "terms", jobs });
    if (!("terms" in reply) || reply.terms.length !== jobs.length) throw new Error(`${FAILED}: a terms request got another reply`);
    return reply.terms;
  }

  /** The vectors of `texts`, one after another in one array. */
  async embed(texts: string[]): Promise<Float32Array> {
    const reply = await this.client.request({ kind: "embed", texts });
    if (!("vectors" in reply)) throw new Error(`${FAILED}: an embedding request got another reply`);
    return reply.vectors;
  }

  /** Terminates the worker; any request still pending is rejected. */
  async close(): Promise<void> {
    await this.client.close();
    await this.exited;
  }
}

/**
 * Feeds a `PrepareThread` for one run: every terms batch at once (the run writes them in order as
 * they come back), then the embedding batches from the front, at most `window` of them
 * outstanding, so that the run's thread, once it has written every passage, takes the remaining
 * ones from the back (`takeLast`) and the two threads meet in the middle.
 */
export class PreparationQueue {
  private readonly termResults: Array<Promise<DocumentTerms[]> | undefined>;
  /** Whether each terms request has been answered (or has failed). */
  private readonly termsSettled: boolean[];
  private readonly embedResults: Array<Promise<void> | undefined>;
  private front = 0;
  private back: number;
  private outstanding = 0;

  constructor(
    private readonly thread: PrepareThread,
    termJobs: readonly TermsJob[][],
    private readonly embedJobs: readonly string[][],
    private readonly onVectors: (batch: number, vectors: Float32Array) => void,
    private readonly window = 4,
  ) {
    this.termsSettled = termJobs.map(() => false);
    this.termResults = termJobs.map((jobs, i) => {
      const result = thread.terms(jobs);
      const settled = (): void => void (this.termsSettled[i] = true);
      result.then(settled, settled);
      return result;
    });
    this.embedResults = new Array(embedJobs.length);
    this.back = embedJobs.length;
    this.refill();
  }

  /** The terms of terms batch `i` (each may be taken once). */
  async terms(i: number): Promise<DocumentTerms[]> {
    const result = this.termResults[i];
    if (result === undefined) throw new Error(`terms batch ${i} was taken already`);
    this.termResults[i] = undefined;
    return result;
  }

  /** Whether terms batch `i` can be taken without waiting. */
  termsReady(i: number): boolean {
    return this.termsSettled[i] === true;
  }

  /** An embedding batch nobody computes yet, from the back, for the caller to compute; undefined when none is left. */
  takeLast(): number | undefined {
    if (this.front >= this.back) return undefined;
    return --this.back;
  }

  /** Waits for the embedding batches given to the worker (rejects with its failure). */
  async finished(): Promise<void> {
    await Promise.all(this.embedResults.filter((p) => p !== undefined));
  }

  private refill(): void {
    while (this.outstanding < this.window && this.front < this.back) {
      const i = this.front++;
      this.outstanding++;
      const result = this.thread.embed(this.embedJobs[i]!).then((vectors) => {
        this.outstanding--;
        this.onVectors(i, vectors);
        this.refill();
      });
      this.embedResults[i] = handled(result);
    }
  }
}

/** `promise`, marked as handled: a failure is seen when the run awaits it, not reported as unhandled before. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
