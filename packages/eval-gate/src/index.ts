/**
 * @hybrid-search/eval-gate — gates an eval run on per-metric floors and writes its report set.
 *
 *   const analysis = analyzeRun(output, floorsOf);            // case records and aggregates
 *   const gate = checkFloors(baseline, mode, analysis.aggregates, analysis.ranEvals);
 *   writeReportSet("reports", buildReport({ ...inputs, analysis, gate }));
 *
 * Subpaths: `/baseline` (floors, ratchet), `/report` (analysis and the report), `/writers` (JSON,
 * Markdown, badge, JUnit), `/report-file` (reading a report back), `/compare` and `/stats`
 * (`pnpm eval:compare`), `/evalite-output` (Evalite's results as case records).
 */
export { ConfigError } from "./errors.js";
export type { Report, RunInfo } from "./report.js";
export type { Baseline } from "./baseline.js";
