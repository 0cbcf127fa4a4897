/**
 * `pnpm eval:compare <a.json> <b.json> [--force] [--json]`: per-metric deltas between two run
 * reports, per-case wins, losses and ties, a paired randomization test and a bootstrap CI per
 * metric, minimum-detectable-effect warnings; regressions first (@hybrid-search/eval-gate/compare).
 *
 * Exit status: 0 no significant regression and the same cases in both; 1 at least one regression,
 * or cases (suites) one report has and the other lacks; 2 bad input, or runs whose index
 * fingerprint or fixtures differ (unless --force).
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import { compareReports, comparisonStatus, formatComparison } from "@hybrid-search/eval-gate/compare";
import { readReport } from "@hybrid-search/eval-gate/report-file";
import { type CommandIo, parseCommandLine, processIo, UsageError } from "./lib/cli-args.js";

const USAGE = "Usage: pnpm eval:compare <a.json> <b.json> [--force] [--json]";
const OPTIONS = { force: { type: "boolean" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;

/** Runs one command line and returns its exit status; never exits the process (bin/entry/eval-compare.ts does). */
export function main(argv: string[], io: CommandIo = processIo()): number {
  try {
    const { values, positionals: files } = parseCommandLine({ args: argv, options: OPTIONS, allowPositionals: true }, USAGE);
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (files.length !== 2) throw new UsageError(`two reports are needed, got ${files.length}; ${USAGE}`);
    const a = { path: files[0]!, report: readReport(files[0]!) };
    const b = { path: files[1]!, report: readReport(files[1]!) };
    const comparison = compareReports(a.report, b.report, values.force === true);
    if (comparison.fingerprintDifferences.length > 0 && !comparison.forced) {
      throw new ConfigError(
        `the runs measured different things, so per-case differences would not mean anything: ${comparison.fingerprintDifferences.join("; ")} (--force compares anyway)`,
      );
    }
    io.stdout(values.json ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison, a, b));
    return comparisonStatus(comparison);
  } catch (error) {
    if (!(error instanceof ConfigError) && !(error instanceof UsageError)) throw error;
    io.stderr(`eval:compare: ${error.message}\n`);
    return 2;
  }
}
