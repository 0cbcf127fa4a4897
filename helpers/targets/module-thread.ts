/**
 * A target module in a worker thread of its own (module-worker.ts), so that its time limit holds
 * whatever it does: the suite's thread times each call, and a call that has not answered within
 * `EVAL_TARGET_TIMEOUT_MS` errors its case even when the module blocks its thread (a loop, a
 * synchronous read). A module that then does not answer a ping within a moment has blocked its
 * thread: the thread is stopped, the calls waiting on it fail with that line, and the next call
 * starts the module again (handing it the corpus again when it had been seeded).
 *
 * Outside a call a module can still end its thread — `process.exit`, an unhandled rejection, a
 * throw from a timer — which in the suite's own thread would have ended (or passed) the run: the
 * thread ends, and every call after it fails with one line saying how
 * (`module:x: the module exited (process.exit(3)) outside a call`), so the run fails; ending as it
 * loads is a ConfigError (exit 2). What the module prints goes to the suite's stdout and stderr,
 * every credential redacted in the thread before it leaves it.
 *
 * Why a thread and not a process: a message to a thread costs microseconds (a structured clone, no
 * serialisation through a pipe), the thread starts in about the time the module takes to load, and
 * the engine a module imports is the thread's own copy; `pnpm bench:target` measures what it adds
 * (docs/benchmarks.md). The thread is started from the compiled `module-worker.js` beside a compiled
 * suite (with `--conditions=compiled`, as its imports of the packages need), or the `.ts` file
 * through tsx's loader beside the sources (Vitest, tsx), as the engine's own threads are.
 */
import { Worker } from "node:worker_threads";
import { ConfigError } from "@hybrid-search/eval-gate";
import { redactor } from "@hybrid-search/target-contract/redact";
import type { Fingerprint, Mode } from "@hybrid-search/target-contract/types";
import { TargetError } from "./target.js";

/** What the thread is started with. */
export interface ModuleSetup {
  file: string;
  /** Values redacted from whatever the module prints (the thread redacts its own stdout and stderr). */
  secrets: string[];
  /** Set to 1 by the thread once its own exit handlers ran (graceful exit: `exitNow`). */
  exited: SharedArrayBuffer;
}

/** What a module's definition has, as the thread reports it once loaded. */
export interface ModuleShape {
  name: string;
  version?: string;
  fingerprint?: Fingerprint;
  trace: boolean;
  modes: Mode[];
  ask: boolean;
  expand: boolean;
  turn: boolean;
  /** Whether it takes documents, and can delete them; null when it takes none. */
  documents: { delete: boolean } | null;
}

export type CapabilityName = "search" | "ask" | "expand" | "turn" | "documents.seed" | "documents.delete";

export interface CallMessage {
  type: "call";
  id: number;
  capability: CapabilityName;
  mode?: Mode;
  request: unknown;
}

export type ToThread = CallMessage | { type: "abort"; id: number; reason: string } | { type: "ping"; id: number } | { type: "exit" };

export type FromThread =
  | { type: "loaded"; shape: ModuleShape }
  | { type: "load-failed"; problem: string }
  | { type: "reply"; id: number; value: unknown; ms: number }
  | { type: "threw"; id: number; error: string; returned?: boolean }
  | { type: "pong"; id: number };

/** How long a thread whose call timed out has to answer a ping before it counts as blocked. */
const PING_GRACE_MS = 1000;
/** How long the process, exiting, waits for a thread's own exit handlers. */
const EXIT_WAIT_MS = 2000;

interface Pending {
  resolve: (reply: { value: unknown; ms: number }) => void;
  reject: (error: TargetError) => void;
}

/** A thread that has been started: its worker, its calls waiting, and how it ended, once it has. */
interface Running {
  worker: Worker;
  pending: Map<number, Pending>;
  ended: string | null;
  exited: Int32Array;
}

/** Every running thread of this process, for the exit hook. */
const live = new Set<ModuleThread>();
let hooked = false;

/** One line: an error's name and first line. */
function firstLine(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split("\n")[0]}`;
  return String(error).split("\n")[0]!;
}

/** A target module's thread: started, called, stopped when blocked and started again, closed. */
export class ModuleThread {
  private running: Running | null = null;
  private starting: Promise<Running> | null = null;
  /** Why the module can no longer be called (it ended outside a call); null while it can. */
  private dead: string | null = null;
  private nextId = 0;
  /** The shape its definition had when it first loaded. */
  shape!: ModuleShape;
  /** While a timed-out call's thread is being checked for a block: later calls wait for the outcome. */
  private checking: Promise<void> | null = null;
  /** Calls replayed on a restarted thread before any other (the corpus it had been handed). */
  private replay: Array<{ capability: CapabilityName; request: unknown; timeoutMs: number }> = [];

  private constructor(
    private readonly file: string,
    private readonly secrets: string[],
  ) {}

  /**
   * Starts the module's thread and waits for it to load; a module that does not load is a
   * ConfigError naming it (`given`: how EVAL_TARGET named it), every secret redacted.
   */
  static async open(file: string, given: string, secrets: string[]): Promise<ModuleThread> {
    const thread = new ModuleThread(file, secrets);
    const running = await thread.start();
    if (running.ended !== null) throw new ConfigError(redactor(secrets)(`EVAL_TARGET ${given}: ${running.ended}`));
    return thread;
  }

  /** Starts a thread (first or again) and resolves once it has loaded the module or ended. */
  private start(): Promise<Running> {
    this.starting ??= new Promise<Running>((resolve) => {
      const exited = new SharedArrayBuffer(4);
      const setup: ModuleSetup = { file: this.file, secrets: this.secrets, exited };
      const worker = startWorker(setup);
      const running: Running = { worker, pending: new Map(), ended: null, exited: new Int32Array(exited) };
      let loaded = false;
      const end = (why: string): void => {
        if (running.ended !== null) return;
        running.ended = why;
        live.delete(this);
        for (const pending of running.pending.values()) pending.reject(new TargetError("died", why));
        running.pending.clear();
        if (!loaded) resolve(running);
        else if (this.running === running) {
          // Ended on its own, outside what the suite asked of it: no call of it can be trusted now.
          this.dead ??= why;
          this.running = null;
        }
      };
      worker.on("message", (message: FromThread) => {
        if (message.type === "loaded") {
          loaded = true;
          this.shape ??= message.shape;
          this.running = running;
          this.starting = null;
          live.add(this);
          hookExit();
          worker.unref();
          resolve(running);
        } else if (message.type === "load-failed") {
          end(message.problem);
          void worker.terminate();
        } else if (message.type === "reply" || message.type === "threw") {
          const pending = running.pending.get(message.id);
          if (!pending) return;
          running.pending.delete(message.id);
          if (running.pending.size === 0) worker.unref();
          if (message.type === "reply") pending.resolve({ value: message.value, ms: message.ms });
          else pending.reject(new TargetError(message.returned ? "schema" : "threw", message.error));
        } else if (message.type === "pong") this.pongs.get(message.id)?.();
      });
      worker.on("error", (error) =>
        end(loaded ? `the module threw outside a call: ${firstLine(error)}` : `loading the module failed: ${firstLine(error)}`),
      );
      worker.on("exit", (code) => {
        if (running.ended !== null) return;
        end(
          loaded ? `the module exited (process.exit(${code})) outside a call` : `the module exited (process.exit(${code})) while loading`,
        );
      });
    }).finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private readonly pongs = new Map<number, () => void>();

  /**
   * One call of `capability` with `request`, answered within `timeoutMs` or rejected with a
   * TargetError (`timeout`), whatever the module does meanwhile; `replay`: made again first on a
   * restarted thread (seeding).
   */
  async call(
    capability: CapabilityName,
    request: unknown,
    timeoutMs: number,
    options: { mode?: Mode; replay?: boolean } = {},
  ): Promise<{ value: unknown; ms: number }> {
    while (this.checking) await this.checking;
    if (this.dead !== null) throw new TargetError("died", `${this.dead}; no call of it can be answered now`);
    let running = this.running;
    if (running === null) {
      running = await this.start();
      if (running.ended !== null) throw new TargetError("died", `started again, ${running.ended}`);
      for (const earlier of this.replay) await this.send(running, earlier.capability, earlier.request, earlier.timeoutMs, {});
    }
    if (options.replay) this.replay = [{ capability, request, timeoutMs }];
    return this.send(running, capability, request, timeoutMs, options);
  }

  private send(
    running: Running,
    capability: CapabilityName,
    request: unknown,
    timeoutMs: number,
    options: { mode?: Mode },
  ): Promise<{ value: unknown; ms: number }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!running.pending.delete(id)) return;
        reject(new TargetError("timeout", `did not settle within ${timeoutMs} ms`));
        running.worker.postMessage({ type: "abort", id, reason: `no answer within ${timeoutMs} ms` } satisfies ToThread);
        this.checking ??= this.checkBlocked(running, timeoutMs).finally(() => {
          this.checking = null;
        });
      }, timeoutMs);
      running.pending.set(id, {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      running.worker.ref();
      running.worker.postMessage({
        type: "call",
        id,
        capability,
        ...(options.mode ? { mode: options.mode } : {}),
        request,
      } satisfies ToThread);
    });
  }

  /**
   * After a call timed out: a thread that does not answer a ping within a moment is blocked (a
   * loop, a synchronous wait), so it is stopped; the calls waiting on it fail, and the next call
   * starts it again.
   */
  private async checkBlocked(running: Running, timeoutMs: number): Promise<void> {
    if (running.ended !== null || this.running !== running) return;
    const id = this.nextId++;
    const answered = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.min(PING_GRACE_MS, timeoutMs));
      this.pongs.set(id, () => {
        clearTimeout(timer);
        resolve(true);
      });
      running.worker.postMessage({ type: "ping", id } satisfies ToThread);
    });
    this.pongs.delete(id);
    if (answered || running.ended !== null) return;
    const why = `did not settle within ${timeoutMs} ms, and the module blocked its thread (it did not answer within ${Math.min(PING_GRACE_MS, timeoutMs)} ms more): it was stopped, and the next call starts it again`;
    running.ended = why;
    this.running = null;
    live.delete(this);
    for (const pending of running.pending.values()) pending.reject(new TargetError("timeout", why));
    running.pending.clear();
    await running.worker.terminate();
  }

  /** Stops the thread, letting the module's own exit handlers run first. */
  async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    this.dead ??= "the module was closed";
    live.delete(this);
    if (!running || running.ended !== null) return;
    running.ended = "the module was closed";
    const exited = new Promise<void>((resolve) => running.worker.once("exit", () => resolve()));
    running.worker.postMessage({ type: "exit" } satisfies ToThread);
    const timer = setTimeout(() => void running.worker.terminate(), EXIT_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** This process is exiting: the thread's exit handlers run now, synchronously, waited for a moment at most. */
  exitNow(): void {
    const running = this.running;
    if (!running || running.ended !== null) return;
    running.ended = "the process exited";
    running.worker.postMessage({ type: "exit" } satisfies ToThread);
    Atomics.wait(running.exited, 0, 0, EXIT_WAIT_MS);
  }
}

/** One hook for every thread: the module's exit handlers (its temp folders' removal) run before this process ends. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", () => {
    for (const thread of live) thread.exitNow();
  });
}

/** The thread: `module-worker.js` beside a compiled suite, else `module-worker.ts` through tsx's loader. */
function startWorker(setup: ModuleSetup): Worker {
  const options = { workerData: setup };
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./module-worker.js", import.meta.url), { ...options, execArgv: ["--conditions=compiled"] });
  const entry = new URL("./module-worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  // A rejection here (tsx missing, a syntax error) is uncaught in the thread: its `error` event.
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: [] });
}
