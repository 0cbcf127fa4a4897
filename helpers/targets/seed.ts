/**
 * Seeding an HTTP target with the dataset's corpus (`EVAL_TARGET_SEED=<collection>`), and removing
 * it after the run: global setup seeds after /health, every search and ask is scoped to the
 * collection (helpers/targets/http-target.ts), and the collection is deleted when the run ends —
 * normally, when it fails, on SIGINT/SIGTERM, or on any other exit — unless
 * `EVAL_TARGET_KEEP_SEED=1`. Every outcome is said in one line; a failed seed stops the run (exit
 * 2), a failed delete is a warning naming the collection and what to do, never passed over, and
 * leaves the run's verdict as it is (what was measured stands).
 *
 * The corpus is read by the data layer's own reader (helpers/datasets/documents.ts), so the
 * document ids are the ids the judgments use: a fixture document's path (`en/billing/refunds.md`),
 * a BEIR record's `_id`.
 */
import { createHash } from "node:crypto";
import { ConfigError } from "@hybrid-search/eval-gate";
import type { DocumentsRequest, DocumentsResponse, Fingerprint, HealthResponse } from "@hybrid-search/target-contract/types";
import type { Dataset } from "../dataset.js";
import { corpusDocuments } from "../datasets/documents.js";
import type { SeedConfig } from "./settings.js";
import { TargetError } from "./target.js";

export type { SeedConfig };

/** What seeding needs of a target: a service (the contract's, or one an adapter describes) or a target module. */
export interface SeedableTarget {
  readonly name: string;
  /** What it said of itself (its /health, or a module's or an adapter's as a /health would say it). */
  readonly health: HealthResponse;
  /** Where it is, for messages: a service's origin, a module's path. */
  readonly origin: string;
  /** Why it takes no documents, when its capabilities say so and /health is not what says it (an adapter, a module). */
  readonly noDocuments?: string;
  /** Why the run cannot remove a collection it seeded, when it cannot (an adapter without a delete request). */
  readonly cannotDelete?: string;
  /** How a user removes a seeded collection by hand, when not by the contract's DELETE /documents (an adapter's delete request). */
  removal?(collection: string): string;
  /** What it holds now (after a seed changed it). */
  readHealth(): Promise<HealthResponse>;
  /**
   * The collection holds exactly `corpus` afterwards (the contract's PUT /documents). Refused before sending when
   * the body is larger than the target's `limits.documentsBytes` (the contract's 64 MiB when it names none).
   */
  putDocuments(collection: string, corpus: Omit<DocumentsRequest, "collection">): Promise<DocumentsResponse>;
  /** The contract's DELETE /documents?collection=…; `sync` for a process about to exit (no retries). */
  deleteDocuments(collection: string, options?: { sync?: boolean }): Promise<DocumentsResponse> | DocumentsResponse;
}

export interface SeedIo {
  /** What happened, as expected (stdout). */
  say(line: string): void;
  /** What went wrong or needs the user's attention (stderr). */
  warn(line: string): void;
}

export interface SeedSession {
  readonly collection: string;
  /** Documents the collection holds after the seed. */
  readonly documents: number;
  /** What the target reports it has indexed after the seed. */
  readonly fingerprint: Fingerprint;
  /** Seeds the corpus again, read afresh (a watch-mode rerun measures edited documents). Throws ConfigError as the first seed does. */
  reseed(): Promise<void>;
  /** Deletes the collection unless kept, and says how that went. Never throws; the first release (of either kind) is the only one. */
  release(): Promise<void>;
  /** The same, synchronously, for a process that is exiting (`why`: what ended it). */
  releaseSync(why: string): void;
}

/** What a seed sends: the dataset's documents, read by the data layer (helpers/datasets/documents.ts) whatever its format. */
export type ContractDocuments = Omit<DocumentsRequest, "collection">;

/** Ids and documents of the dataset's corpus, as the dataset gives them. */
export function datasetDocuments(dataset: Dataset): ContractDocuments {
  return corpusDocuments(dataset.corpusSource);
}

/** A fingerprint a target reported; undefined for the placeholder of one that reports none (a module or an adapter without one). */
function reportedFingerprint(value: Fingerprint): Fingerprint | undefined {
  return typeof value === "string" && value.startsWith("not reported") ? undefined : value;
}

/** What a target that reports no fingerprint holds after a seed: exactly the corpus it was handed, named by its hash. */
function seededFingerprint(corpus: ContractDocuments): Fingerprint {
  return { corpusHash: createHash("sha256").update(JSON.stringify(corpus)).digest("hex") };
}

/** A fingerprint as /health gives it, or undefined when `value` is not one. */
function fingerprintIn(value: unknown): Fingerprint | undefined {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "object" && value !== null && typeof (value as { corpusHash?: unknown }).corpusHash === "string")
    return value as Fingerprint;
  return undefined;
}

/**
 * Seeds `target` with the dataset's corpus into `seed.collection`. A target without the
 * `documents` capability, a corpus over its body limit, a PUT that fails or a target that then
 * holds another number of documents is a ConfigError (one line, exit 2); what a failed PUT may
 * have written is deleted first (unless kept).
 */
export async function seedTarget(target: SeedableTarget, dataset: Dataset, seed: SeedConfig, io: SeedIo): Promise<SeedSession> {
  const { collection } = seed;
  const where = `collection ${collection} of target ${target.name} (${target.origin})`;
  const deleteHint = target.removal?.(collection) ?? `DELETE ${target.origin}/documents?collection=${encodeURIComponent(collection)}`;
  /** Why the run cannot remove what it seeds, when it cannot (no delete request or function). */
  const cannotDelete = target.cannotDelete;
  if (!target.health.capabilities.documents)
    throw new ConfigError(
      `EVAL_TARGET_SEED: target ${target.name} (${target.origin}) does not take documents (${target.noDocuments ?? "its /health says capabilities.documents: false"}); index the dataset into it yourself and unset EVAL_TARGET_SEED`,
    );

  let fingerprint: Fingerprint = target.health.fingerprint;
  let documents = 0;

  /** After a failed seed: removes what the PUT may have written, and says how that went (a clause of the error). */
  const cleanUp = async (): Promise<string> => {
    if (seed.keep) return `; whatever it seeded is kept (EVAL_TARGET_KEEP_SEED=1)`;
    if (cannotDelete) return `; whatever it seeded stays on the target (${cannotDelete})`;
    try {
      await target.deleteDocuments(collection);
      return "; whatever it seeded was deleted";
    } catch (error) {
      return `; deleting whatever it seeded failed too (${(error as Error).message}): remove it with ${deleteHint}`;
    }
  };

  const put = async (): Promise<void> => {
    const corpus = datasetDocuments(dataset);
    const what = `${corpus.documents.length} documents of dataset ${dataset.name}`;
    const started = performance.now();
    let reply: DocumentsResponse;
    try {
      reply = await target.putDocuments(collection, corpus);
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      const tooLarge = error.reason === "too large" || error.reason === "http 413";
      const hint = tooLarge
        ? "; one PUT /documents seeds a whole collection: raise the target's limit (engine serve --max-documents-body <bytes>), or index the corpus into the target yourself and unset EVAL_TARGET_SEED"
        : "";
      // Refused before sending: nothing reached the target, nothing to delete.
      const cleanup = error.reason === "too large" ? "" : await cleanUp();
      throw new ConfigError(`EVAL_TARGET_SEED: seeding ${where} with the ${what} failed: ${error.message}${hint}${cleanup}`);
    }
    if (reply.documents !== corpus.documents.length) {
      const cleanup = await cleanUp();
      throw new ConfigError(
        `EVAL_TARGET_SEED: after seeding ${where} with the ${what}, the target says the collection holds ${reply.documents}; its scores would not be the dataset's${cleanup}`,
      );
    }
    documents = reply.documents;
    fingerprint =
      fingerprintIn(reply.fingerprint) ?? reportedFingerprint((await target.readHealth()).fingerprint) ?? seededFingerprint(corpus);
    io.say(
      `eval: seeded ${where} with the ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s; ${seed.keep ? "kept after the run (EVAL_TARGET_KEEP_SEED=1)" : cannotDelete ? `left on the target after the run (${cannotDelete})` : "deleted after the run"}`,
    );
  };

  await put();

  let released = false;
  /** A collection left behind: one line saying so, what is left and what to do; the run's verdict stands (it measured what it measured). */
  const notDeleted = (what: string): void =>
    io.warn(
      `eval: WARNING: the seeded ${where} was not deleted (${what}); remove it with ${deleteHint} (with the run's token or cookie), or a later run with EVAL_TARGET_SEED=${collection} replaces and deletes it; this run's verdict does not depend on it`,
    );
  const outcome = (reply: DocumentsResponse): void => {
    if (reply.documents === 0) io.say(`eval: deleted the seeded ${where}`);
    else notDeleted(`the target says it still holds ${reply.documents} documents`);
  };
  const failed = (error: unknown): void => notDeleted((error as Error).message);
  const kept = (): void => io.say(`eval: kept the seeded ${where} (EVAL_TARGET_KEEP_SEED=1); remove it with ${deleteHint}`);
  /** What the run cannot remove: one line, once, at the end; nothing is attempted. */
  const leftBehind = (): void =>
    io.warn(
      `eval: WARNING: the seeded ${where} stays on the target (${cannotDelete}); remove it the service's own way; this run's verdict does not depend on it`,
    );
  return {
    collection,
    get documents() {
      return documents;
    },
    get fingerprint() {
      return fingerprint;
    },
    reseed: put,
    async release() {
      if (released) return;
      released = true;
      if (seed.keep) return kept();
      if (cannotDelete) return leftBehind();
      try {
        outcome(await target.deleteDocuments(collection));
      } catch (error) {
        failed(error);
      }
    },
    releaseSync(why) {
      if (released) return;
      released = true;
      if (seed.keep) return kept();
      if (cannotDelete) return leftBehind();
      io.warn(`eval: ${why}: deleting the seeded ${where}`);
      try {
        const reply = target.deleteDocuments(collection, { sync: true });
        // A module cannot answer synchronously: its promise is a failure of its own (rejected with why).
        if (reply instanceof Promise) {
          reply.catch(() => undefined);
          throw new TargetError("unsupported", "a process that is exiting cannot wait for a module's documents.delete");
        }
        outcome(reply);
      } catch (error) {
        failed(error);
      }
    },
  };
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * Deletes the seeded collection however the process ends before the run's teardown does: on
 * SIGINT/SIGTERM (then ends the process as the signal would, unless another listener does) and on
 * any exit. Synchronously: Vitest exits the process a millisecond after a signal, and an `exit`
 * listener cannot wait for a promise. Returns the function that removes these listeners.
 */
export function guardSeed(session: SeedSession): () => void {
  const onExit = (): void => session.releaseSync("the run ended before its teardown");
  const onSignal = (signal: NodeJS.Signals): void => {
    session.releaseSync(`interrupted (${signal})`);
    unguard();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const unguard = (): void => {
    process.off("exit", onExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  process.on("exit", onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return unguard;
}
