/**
 * @hybrid-search/eval-gate — gates an eval run on per-metric floors and writes its report set.
 *
 *   const recording = recordCreatedRuns(storage);             // give recording.storage to runEvalite
 *   const output = await exportRun(recording.storage, recording.createdRunIds[0]);
 *   const { baseline } = loadBaseline(path);                  // the floors file, checked by its schema
 *   const judged = judgeRun({ output, runInfo, skipped, ... }, baseline, options); // pure: the verdict
 *   if (judged.writeBaseline) writeBaseline(path, judged.baseline);
 *   writeReportSet("reports", judged.report);
 *   await markFailedSuites(recording.storage, output, suiteVerdicts(judged.report)); // ⊗ in Evalite's UI
 *
 * Subpaths: `/judge-run` (the verdict on a run, decided once), `/analysis` (a run's cases, units,
 * aggregates and faults), `/baseline` (the file: read, checked, migrated, written), `/floors`
 * (the check), `/ratchet` (raising, lowering, the log), `/evalite-storage` (this run read back
 * from Evalite's storage, the gate's verdicts written back as suite statuses), `/suite-verdicts`
 * (the gate's verdict per suite), `/evalite-output` (Evalite's results as case records),
 * `/run-info` (what the suite tells the gate about a run, and which evals its target could not
 * run), `/report` (the report; another target's calls: target-calls.ts), `/writers` (JSON,
 * Markdown, badge, JUnit), `/report-file` (reading a report back), `/compare` and `/stats`
 * (`pnpm eval:compare`). Evalite is a type-only dependency: the gate reads the `Evalite.Storage`
 * it is given and never runs Evalite.
 */
export { ConfigError, quoteInput } from "./errors.js";
export type { Report } from "./report.js";
export type { RunInfo } from "./run-info.js";
export type { Baseline } from "./baseline.js";
