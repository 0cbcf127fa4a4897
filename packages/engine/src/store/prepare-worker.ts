/**
 * The worker thread of a large index run (started by store/prepare-thread.ts, never imported):
 * answers each request, in the order they come, with the passages' terms or vectors. One analyzer
 * config object serves the whole run, so the analysis memo (keyed by it) fills once, as on the
 * run's own thread. A failure is answered as an error of that request; the thread stays up until
 * the run terminates it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { HashedNgramEmbedder } from "../embed/hashed-ngram.js";
import { documentTerms, embedPacked } from "./prepare.js";
import { workerFailure } from "../worker-client.js";
import type { PrepareReply, PrepareRequest, PrepareSetup } from "./prepare-thread.js";

const port = parentPort;
if (port === null) throw new Error("prepare-worker.ts runs as a worker thread of an index run, not on its own");
const { analyzer, dimensions } = workerData as PrepareSetup;
const embedder = dimensions === null ? undefined : new HashedNgramEmbedder({ dimensions });

port.on("message", (request: PrepareRequest) => {
  let reply: PrepareReply;
  try {
    if (request.kind === "terms") {
      reply = { id: request.id, terms: request.jobs.map((job) => documentTerms(job, analyzer)) };
    } else {
      if (embedder === undefined) throw new Error("this run's worker thread was started without an embedder");
      const vectors = embedPacked(embedder, request.texts);
      port.postMessage({ id: request.id, vectors } satisfies PrepareReply, [vectors.buffer as ArrayBuffer]);
      return;
    }
  } catch (error) {
    reply = { id: request.id, error: workerFailure(error) };
  }
  port.postMessage(reply);
});
