/**
 * The build step of this package's schema checks (bin/entry/build-validators.ts runs it after
 * `tsc -b`): the report's, the run info's, the skipped evals' and the baseline file's; writes their
 * standalone code to dist/validators/ (standalone-validators.ts). A check left out here still
 * works, compiled at run time.
 */
import { baselineCheckSource } from "./baseline-schema.js";
import { reportProblems } from "./report-file.js";
import { VALIDATORS_DIR } from "./report-schema.js";
import { runInfoProblems, skippedEvalProblems } from "./run-info.js";
import { writeValidators } from "./standalone-validators.js";

/** Writes the code of the gate's schema checks; returns how many were written. */
export function buildReportValidators(): number {
  return writeValidators(VALIDATORS_DIR, [
    ...[reportProblems, runInfoProblems, skippedEvalProblems].map((check) => check.source()),
    baselineCheckSource(),
  ]);
}
