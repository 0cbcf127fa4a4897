/**
 * The engine's worker threads: a sibling module started as a worker, and the client that sends it
 * requests and matches each reply to its request by id.
 *
 * The worker is loaded from beside the module that starts it: from the compiled engine (`dist/`,
 * the CLIs, `pnpm eval`) its JavaScript, as is; from the TypeScript sources (Vitest, tsx) its `.ts`
 * file, through tsx's loader registered inside the worker (Node 20 cannot run TypeScript, and a
 * worker does not inherit the loader of the thread that starts it).
 *
 * A request's failure inside the worker rejects that request with the worker's message. If the
 * worker dies (an uncaught error, a failed start, an exit), every pending request and every later
 * one is rejected: a caller waiting on the worker gets an error, never a hang.
 */
import { Worker } from "node:worker_threads";

/** A failure inside the worker, as it is sent back. */
export interface WorkerFailure {
  message: string;
  stack: string;
}

/** What a worker answers a request with: its reply, or its failure. */
export type WorkerReply<Reply> = ({ id: number } & Reply) | { id: number; error: WorkerFailure };

/** `error` as a worker sends it back. */
export function workerFailure(error: unknown): WorkerFailure {
  const e = error instanceof Error ? error : new Error(String(error));
  return { message: e.message, stack: e.stack ?? e.message };
}

/**
 * Starts `<name>.js` (or `<name>.ts` beside the sources) from the folder of `callerUrl` (the
 * caller's `import.meta.url`) as a worker thread, with `workerData`. No inherited options: the
 * CLIs' preloads (bin/check-build.mjs) and conditions are the main thread's.
 */
export function startSiblingWorker(callerUrl: string, name: string, workerData: unknown): Worker {
  const options = { workerData, execArgv: [] };
  if (!callerUrl.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  // A rejection here (tsx missing, a syntax error) is uncaught in the worker: its `error` event.
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** A request without its id (which the client gives it), for each member of a union. */
export type WithoutId<Request> = Request extends unknown ? Omit<Request, "id"> : never;

interface Pending<Reply> {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/**
 * Requests to a started worker, each answered by the reply with its id. `failed` prefixes every
 * error ("preparing passages on a worker thread failed: …"), so a caller's message says where.
 */
export class WorkerClient<Request extends { id: number }, Reply> {
  private readonly pending = new Map<number, Pending<Reply>>();
  private nextId = 0;
  private firstFailure: Error | undefined;
  private idleUnref = false;
  /** Resolves when the worker has exited, however. */
  readonly exited: Promise<number>;

  constructor(
    private readonly worker: Worker,
    private readonly failed: string,
  ) {
    this.exited = new Promise((resolve) => {
      worker.once("exit", (code) => {
        this.fail(new Error(`${failed}: the worker exited (code ${code}) before it answered`));
        resolve(code);
      });
    });
    worker.on("message", (reply: WorkerReply<Reply>) => {
      const pending = this.pending.get(reply.id);
      if (pending === undefined) return;
      this.pending.delete(reply.id);
      if (this.idleUnref && this.pending.size === 0) worker.unref();
      if ("error" in reply) {
        const error = new Error(`${failed}: ${reply.error.message}`);
        error.stack = `${error.name}: ${error.message}\n    in the worker: ${reply.error.stack}`;
        pending.reject(error);
      } else pending.resolve(reply);
    });
    worker.on("error", (error) => this.fail(new Error(`${failed}: ${error.message}`, { cause: error })));
    worker.on("messageerror", (error) => this.fail(new Error(`${failed}: a reply could not be read: ${error.message}`, { cause: error })));
  }

  /** The first failure of the worker, if any (its pending requests were rejected with it). */
  get failure(): Error | undefined {
    return this.firstFailure;
  }

  /** Sends `message` with the next id; resolves with the worker's reply to it. */
  request(message: WithoutId<Request>): Promise<Reply> {
    if (this.firstFailure) return Promise.reject(this.firstFailure);
    const id = this.nextId++;
    if (this.idleUnref && this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /**
   * From now on the worker keeps the process alive only while a request waits for its reply: an
   * idle worker nobody closed does not hold the process open, and a caller awaiting a reply is
   * never left with a process that exits under it.
   */
  unrefWhenIdle(): void {
    this.idleUnref = true;
    if (this.pending.size === 0) this.worker.unref();
  }

  /** Terminates the worker; any request still pending is rejected. */
  async close(): Promise<void> {
    this.fail(new Error(`${this.failed}: the worker was closed before it answered`));
    await this.worker.terminate();
    await this.exited;
  }

  /** Rejects every pending request, and every later one, with the first failure. */
  private fail(error: Error): void {
    this.firstFailure ??= error;
    for (const pending of this.pending.values()) pending.reject(this.firstFailure);
    this.pending.clear();
    // A worker that failed but still runs (a reply that could not be read) no longer holds the process.
    if (this.idleUnref) this.worker.unref();
  }
}
