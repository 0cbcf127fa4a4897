/**
 * `pnpm eval`: the Definition-of-Done run. Checks the dataset first (a malformed fixture stops
 * here with one line), then runs every eval once with Evalite and exits with its status:
 * 0 pass, 1 below the score threshold or an eval failed, 2 a configuration or fixture error.
 * Extra arguments go to `evalite run` (e.g. a file filter: `pnpm eval search`).
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { DatasetError, loadDataset } from "../helpers/dataset.js";
import { ConfigError, engineOptionsFromEnv } from "../helpers/engine-options.js";
import { formatFixtureError, isFixtureError } from "../helpers/fixtures.js";

const root = resolve(import.meta.dirname, "..");

function main(argv: string[]): number {
  try {
    engineOptionsFromEnv();
    const dataset = loadDataset();
    process.stdout.write(`eval: dataset ${dataset.name} (${dataset.cases.length} queries)\n`);
  } catch (error) {
    if (!isFixtureError(error) && !(error instanceof DatasetError) && !(error instanceof ConfigError)) throw error;
    process.stderr.write(`eval: ${isFixtureError(error) ? formatFixtureError(error) : (error as Error).message}\n`);
    return 2;
  }
  const evalite = join(root, "node_modules/.bin/evalite");
  const run = spawnSync(evalite, ["run", ...argv], { cwd: root, stdio: "inherit" });
  if (run.error) {
    process.stderr.write(`eval: could not start Evalite (${run.error.message}); run the set-up command in the README first\n`);
    return 2;
  }
  return run.status ?? 1;
}

process.exitCode = main(process.argv.slice(2));
