/**
 * The suite's index: every run measures a fresh index of its dataset, built in a unique temp folder
 * that is removed when the process ends (normally, or on SIGINT/SIGTERM). A user's own index is
 * never opened.
 *
 * `helpers/global-setup.ts` builds it once per Evalite run (in the main process) and hands its
 * path to the eval files, which open it once per worker through `evalIndex()` (helpers/eval-index.ts).
 * An eval file run without that global setup builds a private one, once per process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type DocumentIds,
  type Document,
  Engine,
  type EngineOptions,
  type IndexFingerprint,
  type IndexReport,
} from "@hybrid-search/engine";

export interface SuiteFingerprint extends IndexFingerprint {
  /** Dataset name (`fixtures`, or the EVAL_DATASET folder name). */
  dataset: string;
  collection: string;
}

export interface TempIndex {
  dir: string;
  dbPath: string;
  collection: string;
  report: IndexReport;
  fingerprint: SuiteFingerprint;
  /** Indexes the source again (unchanged documents are skipped) and refreshes the fingerprint. */
  refresh(): Promise<IndexReport>;
  /** Removes the temp folder now (it is also removed at exit). */
  remove(): void;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** The folders to remove when the process exits or is interrupted, each by its remover. */
const pendingRemovals = new Set<() => void>();

/**
 * One listener per event for all of them, there only while a folder is pending: a process that
 * opens many temp indexes (a test worker, a watch session) would otherwise add one `exit`,
 * `SIGINT` and `SIGTERM` listener per index, and Node warns of a leak past ten.
 */
const removeAllPending = (): void => {
  for (const remove of [...pendingRemovals]) remove();
};
const onSignal = (signal: NodeJS.Signals): void => {
  const othersListening = process.listenerCount(signal) > 1;
  removeAllPending();
  // Alone, we must still end the process the way the signal would have.
  if (!othersListening) process.kill(process.pid, signal);
};
function listen(on: boolean): void {
  if (on) {
    process.on("exit", removeAllPending);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  } else {
    process.removeListener("exit", removeAllPending);
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  }
}

/** Removes `dir` when the process exits or is interrupted; returns the remover. */
export function removeOnExit(dir: string): () => void {
  const remove = (): void => {
    if (!pendingRemovals.delete(remove)) return;
    rmSync(dir, { recursive: true, force: true });
    if (pendingRemovals.size === 0) listen(false);
  };
  if (pendingRemovals.size === 0) listen(true);
  pendingRemovals.add(remove);
  return remove;
}

export interface BuildOptions {
  dataset: string;
  collection: string;
  engine?: EngineOptions;
  onMessage?: (line: string) => void;
  /** Further sources indexed into the same index, each as its own collection (a lane with several collections). */
  more?: ReadonlyArray<{ source: string; collection: string }>;
}

/**
 * Documents given as data (a dataset whose corpus is not a folder or JSONL file the engine reads):
 * `read` returns them afresh for each (re-)index, so a watch-mode rerun indexes edited documents.
 */
export interface DocumentsSource {
  read(): readonly Document[];
  ids: DocumentIds;
}

/** Builds a fresh index of `source` (folder, corpus.jsonl, or documents given as data) in a new temp folder. */
export async function buildTempIndex(source: string | DocumentsSource, options: BuildOptions): Promise<TempIndex> {
  const dir = mkdtempSync(join(tmpdir(), "hybrid-evals-"));
  const remove = removeOnExit(dir);
  const dbPath = join(dir, "index.db");
  try {
    const engine = Engine.open(dbPath, { ...options.engine, create: true });
    const index = async (): Promise<{ report: IndexReport; fingerprint: SuiteFingerprint }> => {
      const onMessage = options.onMessage ? { onMessage: options.onMessage } : {};
      const report =
        typeof source === "string"
          ? await engine.index(source, { collection: options.collection, ...onMessage })
          : await engine.indexDocuments(source.read(), { collection: options.collection, ids: source.ids, ...onMessage });
      for (const extra of options.more ?? []) await engine.index(extra.source, { collection: extra.collection, ...onMessage });
      return { report, fingerprint: { ...engine.fingerprint(), dataset: options.dataset, collection: options.collection } };
    };
    const first = await index();
    const built: TempIndex = {
      dir,
      dbPath,
      collection: options.collection,
      report: first.report,
      fingerprint: first.fingerprint,
      async refresh() {
        const next = await index();
        built.report = next.report;
        built.fingerprint = next.fingerprint;
        return next.report;
      },
      remove() {
        engine.close();
        remove();
      },
    };
    return built;
  } catch (error) {
    remove();
    throw error;
  }
}

/** One line that says what a run measures; printed at start and recorded with the results. */
export function describeFingerprint(f: SuiteFingerprint): string {
  return (
    `index: dataset ${f.dataset}, ${f.documents} documents / ${f.passages} passages, corpus ${f.corpusHash.slice(0, 12)}, ` +
    `${f.analyzer}, ${f.chunkers.join("+")}, embedder ${f.embedder} (${f.dimensions}d), schema v${f.schemaVersion}`
  );
}
