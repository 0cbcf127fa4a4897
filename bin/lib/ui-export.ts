/**
 * `pnpm eval:export`: Evalite's static UI bundle of the storage's newest run, servable by any plain
 * static file server for every page, including a deep link to a trace.
 *
 * Evalite's export is a single-page app with one `index.html`: a static server answers
 * `/suite/<name>/eval/<i>?trace=2` with 404 unless it falls back to `index.html`. So the export
 * writes the same page at each route's path (`suite/<name>/index.html`,
 * `suite/<name>/eval/<i>/index.html`): every server serves a folder's `index.html`, and the page
 * loads its assets and data from absolute paths, so it works from any depth. (Opened from disk,
 * `file://`, the absolute paths point at the file system root: the page stays blank. Serve it.)
 *
 * Evalite exports the latest *full* run; watch mode stores its re-runs as *partial* runs (only
 * the suites that re-ran). This exports the newest run of either kind and says which it took.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Evalite } from "evalite";

export interface ExportedRunSummary {
  id: number;
  runType: "full" | "partial";
  suites: number;
}

/** The folders (relative to the export) that each get a copy of the app's `index.html`. */
export function routeFolders(suites: ReadonlyArray<{ name: string; evals: number }>): string[] {
  return suites.flatMap((s) => [
    join("suite", s.name),
    ...Array.from({ length: s.evals }, (_, i) => join("suite", s.name, "eval", String(i))),
  ]);
}

/** One line naming the run exported; for a partial run, that it holds only the re-run suites. */
export function describeExportedRun(run: ExportedRunSummary, latestFull: number | undefined, output: string): string {
  const what =
    run.runType === "full"
      ? `run #${run.id} (a full run, ${run.suites} suites)`
      : `run #${run.id} (a partial run: watch mode re-ran ${run.suites} suite${run.suites === 1 ? "" : "s"}, only those are in it${latestFull !== undefined ? `; the latest full run is #${latestFull}: --runId ${latestFull}` : ""})`;
  return `eval:export: ${what} → ${output}/`;
}

/**
 * The command `pnpm eval:export` and the docs give for serving an export: Python's static file
 * server (any plain static server works; this one is on most machines), on this machine only.
 * test/eval-export.test.ts runs exactly this command and fetches a deep link to a trace from it.
 */
export function serveCommand(folder: string, port = 8080): string[] {
  return ["python3", "-m", "http.server", "--bind", "127.0.0.1", "-d", folder, String(port)];
}

/** The newest run (any kind), or the one asked for; undefined when the storage has none. */
export async function runToExport(storage: Evalite.Storage, runId: number | undefined): Promise<Evalite.Storage.Entities.Run | undefined> {
  // By id: runs created within the same second tie on created_at, Evalite's default order.
  const [run] =
    runId !== undefined
      ? await storage.runs.getMany({ ids: [runId], limit: 1 })
      : await storage.runs.getMany({ limit: 1, orderBy: "id", orderDirection: "desc" });
  return run;
}

/** Writes the app's page at every route of the exported run's suites and evals. */
export async function writeRoutePages(storage: Evalite.Storage, runId: number, output: string): Promise<number> {
  const suites = await storage.suites.getMany({ runIds: [runId], statuses: ["success", "fail"] });
  const evals = suites.length > 0 ? await storage.evals.getMany({ suiteIds: suites.map((s) => s.id) }) : [];
  const page = readFileSync(join(output, "index.html"), "utf8");
  const folders = routeFolders(suites.map((s) => ({ name: s.name, evals: evals.filter((e) => e.suite_id === s.id).length })));
  for (const folder of folders) {
    mkdirSync(join(output, folder), { recursive: true });
    writeFileSync(join(output, folder, "index.html"), page);
  }
  return folders.length;
}
