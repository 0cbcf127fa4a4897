/**
 * `pnpm eval:export [--runId N] [--output folder]`: the Evalite UI as a static bundle
 * (helpers/ui-export.ts): the storage's newest run unless --runId names one, with a page at every
 * route, so any plain static file server serves every page, traces included:
 * `python3 -m http.server -d evalite-export 8080`, `npx serve evalite-export`, nginx, …
 *
 * Exit status: 0 exported; 2 bad arguments, no storage, or no such run (one line).
 */
import { existsSync } from "node:fs";
import { exportStaticUI } from "evalite/export-static";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { argumentsOrExit, parseCommandLine, positiveInteger, UsageError } from "../helpers/cli-args.js";
import { describeExportedRun, runToExport, writeRoutePages } from "../helpers/ui-export.js";

const USAGE = "Usage: pnpm eval:export [--runId N] [--output folder]";
const { values } = argumentsOrExit("eval:export", () =>
  parseCommandLine({ options: { runId: { type: "string" }, output: { type: "string" } }, allowPositionals: false }, USAGE),
);
const runId = argumentsOrExit("eval:export", () => (values.runId === undefined ? undefined : positiveInteger("runId", values.runId, 1)));
const output = values.output ?? "evalite-export";
const file = process.env.EVALITE_STORAGE ?? ".evalite/evalite.db";

function fail(message: string): never {
  process.stderr.write(`eval:export: ${message}\n`);
  process.exit(2);
}

if (!existsSync(file)) fail(`no Evalite storage at ${file}: run pnpm eval (or pnpm eval:watch) first`);
const storage = await createSqliteStorage(file);
try {
  const run = await runToExport(storage, runId);
  if (!run) fail(runId === undefined ? `${file} holds no run: run pnpm eval first` : `${file} has no run ${runId}`);
  const [latestFull] = await storage.runs.getMany({ runType: "full", limit: 1 });
  const suites = await storage.suites.getMany({ runIds: [run.id], statuses: ["success", "fail"] });
  // Evalite's own lines end with "or open index.html in a browser", which gives a blank page
  // (absolute asset paths under file://): keep its progress, say how to view it ourselves.
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!String(args[0]).includes("To view:")) log(...args);
  };
  try {
    await exportStaticUI({ storage, outputPath: output, runId: run.id });
  } finally {
    console.log = log;
  }
  const pages = await writeRoutePages(storage, run.id, output);
  console.log(describeExportedRun({ id: run.id, runType: run.runType, suites: suites.length }, latestFull?.id, output));
  console.log(
    `eval:export: ${pages} route pages written; serve the folder with any static file server, e.g. python3 -m http.server -d ${output} 8080`,
  );
} catch (error) {
  if (error instanceof UsageError) fail(error.message);
  throw error;
} finally {
  await storage.close();
}
