/**
 * @hybrid-search/eval-gate — gates an eval run on per-metric floors and writes its report set.
 *
 *   const recording = recordCreatedRuns(storage);             // give recording.storage to runEvalite
 *   const output = await exportRun(recording.storage, recording.createdRunIds[0]);
 *   const analysis = analyzeRun(output, floorsOf);            // case records and aggregates
 *   const skipped = readSkippedEvals(skipsFile);              // evals the target could not run
 *   const gate = checkFloors(baseline, mode, analysis.aggregates, analysis.ranEvals, skipped);
 *   const report = buildReport({ ...inputs, analysis, gate });
 *   writeReportSet("reports", report);
 *   await markFailedSuites(recording.storage, output, suiteVerdicts(report)); // ⊗ in Evalite's UI
 *
 * Subpaths: `/evalite-storage` (this run read back from Evalite's storage, the gate's verdicts
 * written back as suite statuses), `/suite-verdicts` (the gate's verdict per suite), `/evalite-output`
 * (Evalite's results as case records), `/run-info` (what the suite tells the gate about a run,
 * and which evals its target could not run), `/baseline` (floors, ratchet), `/report` (analysis
 * and the report; another target's calls: target-calls.ts), `/writers` (JSON, Markdown, badge,
 * JUnit), `/report-file` (reading a report back), `/compare` and `/stats`
 * (`pnpm eval:compare`). Evalite is a type-only dependency: the gate reads the `Evalite.Storage`
 * it is given and never runs Evalite.
 */
export { ConfigError, quoteInput } from "./errors.js";
export type { Report } from "./report.js";
export type { RunInfo } from "./run-info.js";
export type { Baseline } from "./baseline.js";
