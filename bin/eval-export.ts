/**
 * `pnpm eval:export [--runId N] [--output folder]`: the Evalite UI as a static bundle
 * (bin/lib/ui-export.ts): the storage's newest run unless --runId names one, with a page at every
 * route, so any plain static file server serves every page, traces included:
 * `python3 -m http.server --bind 127.0.0.1 -d evalite-export 8080` (`serveCommand`, tested),
 * `npx serve evalite-export`, nginx, …
 *
 * Exit status: 0 exported; 2 bad arguments, no storage, or no such run (one line).
 */
import { existsSync } from "node:fs";
import { exportStaticUI } from "evalite/export-static";
import { createSqliteStorage } from "evalite/sqlite-storage";
import { type CommandIo, parseCommandLine, positiveInteger, processIo, UsageError } from "./lib/cli-args.js";
import { describeExportedRun, runToExport, serveCommand, writeRoutePages } from "./lib/ui-export.js";

const USAGE = "Usage: pnpm eval:export [--runId N] [--output folder]";
const OPTIONS = { runId: { type: "string" }, output: { type: "string" }, help: { type: "boolean", short: "h" } } as const;

/** Evalite's progress lines, without its last hint ("or open index.html"), which gives a blank page under file://. */
async function quietly<T>(io: CommandIo, run: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!String(args[0]).includes("To view:")) io.stdout(`${args.map(String).join(" ")}\n`);
  };
  try {
    return await run();
  } finally {
    console.log = log;
  }
}

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-export.ts does). */
export async function main(argv: string[], io: CommandIo = processIo(), env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let runId: number | undefined;
  let output: string;
  try {
    const { values } = parseCommandLine({ args: argv, options: OPTIONS, allowPositionals: false }, USAGE);
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    runId = values.runId === undefined ? undefined : positiveInteger("runId", values.runId, 1);
    output = values.output ?? "evalite-export";
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`eval:export: ${error.message}\n`);
    return 2;
  }
  const file = env.EVALITE_STORAGE ?? ".evalite/evalite.db";
  if (!existsSync(file)) {
    io.stderr(`eval:export: no Evalite storage at ${file}: run pnpm eval (or pnpm eval:watch) first\n`);
    return 2;
  }
  const storage = await createSqliteStorage(file);
  try {
    const run = await runToExport(storage, runId);
    if (!run) {
      io.stderr(`eval:export: ${runId === undefined ? `${file} holds no run: run pnpm eval first` : `${file} has no run ${runId}`}\n`);
      return 2;
    }
    const [latestFull] = await storage.runs.getMany({ runType: "full", limit: 1, orderBy: "id", orderDirection: "desc" });
    const suites = await storage.suites.getMany({ runIds: [run.id], statuses: ["success", "fail"] });
    await quietly(io, () => exportStaticUI({ storage, outputPath: output, runId: run.id }));
    const pages = await writeRoutePages(storage, run.id, output);
    io.stdout(`${describeExportedRun({ id: run.id, runType: run.runType, suites: suites.length }, latestFull?.id, output)}\n`);
    io.stdout(
      `eval:export: ${pages} route pages written; serve the folder with any static file server, e.g. ${serveCommand(output).join(" ")} (then open http://127.0.0.1:8080/)\n`,
    );
    return 0;
  } finally {
    await storage.close();
  }
}
