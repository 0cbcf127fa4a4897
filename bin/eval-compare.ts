/**
 * `pnpm eval:compare <a.json> <b.json> [--force] [--json]`: per-metric deltas between two run
 * reports, per-case wins, losses and ties, a paired randomization test and a bootstrap CI per
 * metric, minimum-detectable-effect warnings; regressions first (helpers/gate/compare.ts).
 *
 * Exit status: 0 no significant regression; 1 at least one; 2 bad input, or runs whose index
 * fingerprint or fixtures differ (unless --force).
 */
import { ConfigError } from "@hybrid-search/eval-gate";
import { compareReports, formatComparison } from "@hybrid-search/eval-gate/compare";
import { readReport } from "@hybrid-search/eval-gate/report-file";

const USAGE = "Usage: pnpm eval:compare <a.json> <b.json> [--force] [--json]";

function main(argv: string[]): number {
  const flags = new Set(argv.filter((a) => a.startsWith("-")));
  const files = argv.filter((a) => !a.startsWith("-"));
  if (flags.has("--help") || flags.has("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const unknown = [...flags].filter((f) => f !== "--force" && f !== "--json");
  try {
    if (unknown.length > 0) throw new ConfigError(`unknown option ${unknown[0]}; ${USAGE}`);
    if (files.length !== 2) throw new ConfigError(`two reports are needed, got ${files.length}; ${USAGE}`);
    const a = { path: files[0]!, report: readReport(files[0]!) };
    const b = { path: files[1]!, report: readReport(files[1]!) };
    const comparison = compareReports(a.report, b.report, flags.has("--force"));
    if (comparison.fingerprintDifferences.length > 0 && !comparison.forced) {
      throw new ConfigError(
        `the runs measured different things, so per-case differences would not mean anything: ${comparison.fingerprintDifferences.join("; ")} (--force compares anyway)`,
      );
    }
    process.stdout.write(flags.has("--json") ? `${JSON.stringify(comparison, null, 2)}\n` : formatComparison(comparison, a, b));
    return comparison.metrics.some((m) => m.verdict === "regression") ? 1 : 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`eval:compare: ${error.message}\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
