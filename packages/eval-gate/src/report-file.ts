/**
 * Reading a run report back (`pnpm eval:compare`, tests): JSON, validated against the published
 * schema `report.schema.json` of this package (draft-07) with AJV. Anything else is a one-line
 * ConfigError. A version 1 report (before verdicts, ceilings and the case ratchet) is read with its
 * metrics under their current names (`METRIC_RENAMES`: MRR is MRR@10), so a comparison pairs the
 * same measurement across the rename; the fields version 2 added are absent from it.
 */
import { readFileSync } from "node:fs";
import { METRIC_RENAMES } from "./baseline-migration.js";
import { ConfigError } from "./errors.js";
import type { Report } from "./report.js";
import { reportSchemaCheck } from "./report-schema.js";

/** Problems of `value` as a report, in plain words; empty when it is one. */
export const reportProblems = reportSchemaCheck((ref) => ref(""));

function isReport(value: unknown): value is Report {
  return reportProblems(value).length === 0;
}

/** Problems named in the one-line error; the rest are counted. */
const SHOWN_PROBLEMS = 3;

export function readReport(path: string): Report {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`${path}: cannot read a report (${(error as Error).message.split("\n")[0]})`);
  }
  if (!isReport(value)) {
    const problems = reportProblems(value);
    const shown = problems.slice(0, SHOWN_PROBLEMS);
    throw new ConfigError(
      `${path}: not a pnpm eval report (packages/eval-gate/report.schema.json): ${shown.join("; ")}${problems.length > shown.length ? ` (and ${problems.length - shown.length} more problems)` : ""}`,
    );
  }
  return (value.schemaVersion as number) === 1 ? renamedMetrics(value) : value;
}

/** A version 1 report with its metrics (cases, aggregates, floor checks) under their current names. */
function renamedMetrics(report: Report): Report {
  const rename = <T extends { metric: string }>(m: T): T => ({ ...m, metric: METRIC_RENAMES[m.metric] ?? m.metric });
  return {
    ...report,
    cases: report.cases.map((c) => ({ ...c, metrics: c.metrics.map(rename) })),
    aggregates: report.aggregates.map((a) => ({ ...a, metrics: a.metrics.map(rename) })),
  };
}
