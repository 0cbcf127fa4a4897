/**
 * The worker thread of an `AskThread` (started by answer/ask-thread.ts, never imported): opens the
 * index and answers each question after the one before it, so that each answer is timed alone. A
 * question's failure is answered as that request's error; a failure to open the index is uncaught,
 * which fails the thread and every question waiting on it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Engine } from "../engine.js";
import { workerFailure, type WorkerReply } from "../worker-client.js";
import type { AskResult } from "../types.js";
import type { AskThreadRequest, AskThreadSetup } from "./ask-thread.js";

if (parentPort === null) throw new Error("ask-worker.ts runs as the worker thread of an AskThread, not on its own");
const port = parentPort;
const { file, options } = workerData as AskThreadSetup;
const engine = Engine.open(file, options);

let previous: Promise<void> = Promise.resolve();
port.on("message", (request: AskThreadRequest) => {
  previous = previous.then(() => answer(request));
});

/** Answers one request; never rejects, so the next question is answered whatever this one did. */
async function answer(request: AskThreadRequest): Promise<void> {
  try {
    const result = await engine.ask(request.question, request.options);
    port.postMessage({ id: request.id, result } satisfies WorkerReply<{ result: AskResult }>);
  } catch (error) {
    // An answer that cannot be sent (a value that does not clone) fails its question too.
    port.postMessage({ id: request.id, error: workerFailure(error) } satisfies WorkerReply<{ result: AskResult }>);
  }
}
