/**
 * The report set of a run, beside the JSON report, each saying what the gate says:
 *
 * - **Markdown**: the verdict and its reasons first, then the regressed cases, the floors that
 *   fell and the ceilings exceeded, the evals the target could not run, the context, the means,
 *   and the known failures collapsed.
 * - **JUnit XML**: a failure only for what fails the run — a regressed case, a fallen (or missing)
 *   floor, an exceeded (or missing) ceiling; a case whose task threw is an error. A known failure
 *   (or a new one, not yet recorded) is `skipped` with its reasons, a pass is a pass. One
 *   testsuite for the floors, one for the ceilings, one for the evals the target could not run
 *   (each `skipped` with why; their floors and ceilings are not testcases), then one per suite
 *   that holds verdict units (a question's measurement suites give no testcases of their own);
 *   `classname` is the eval file relative to the repository root.
 * - **Badge** (shields.io endpoint): the verdict units' pass rate and the p95 latency; the colour is
 *   the gate's verdict — brightgreen for a pass, red for a failure, lightgrey when not gated.
 *   Written only for a full run: a filtered run's pass rate is not the suite's.
 */
import { stabilityLines } from "./judge-stability.js";
import { usageLines } from "./usage.js";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FloorCheck } from "./floors.js";
import type { CeilingCheck } from "./ceilings.js";
import { isChecked, pct, type Report, type ReportVerdict } from "./report.js";
import { type SkippedEval, skipCovering, skippedName } from "./run-info.js";
import { SHOWN_DOCUMENTS, type TargetCalls } from "./target-calls.js";

export interface ReportPaths {
  json: string;
  markdown: string;
  junit: string;
  /** null when the run was filtered: the badge is the full suite's. */
  badge: string | null;
}

/**
 * Writes `<dir>/<timestamp>.{json,md,junit.xml}`, and `<dir>/badge.json` (the latest full run's) when the run was not filtered.
 * Runs started in the same second (the timestamp's resolution) take `<timestamp>-2`, `-3`, …: the
 * JSON file is created exclusively, so two processes never both take a name; the badge is
 * written whole to a file of this process and renamed over the old one, so a reader or a
 * concurrent run never sees it half written.
 */
export function writeReportSet(dir: string, report: Report): ReportPaths {
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/:/g, "-").replace(/\.\d+Z$/, "Z");
  const json = `${JSON.stringify(report, null, 2)}\n`;
  let name = stamp;
  for (let i = 2; !createExclusive(join(dir, `${name}.json`), json); i++) name = `${stamp}-${i}`;
  const paths: ReportPaths = {
    json: join(dir, `${name}.json`),
    markdown: join(dir, `${name}.md`),
    junit: join(dir, `${name}.junit.xml`),
    badge: report.filter === null ? join(dir, "badge.json") : null,
  };
  writeFileSync(paths.markdown, markdownSummary(report));
  writeFileSync(paths.junit, junitXml(report));
  if (paths.badge) {
    const partial = `${paths.badge}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(badge(report), null, 2)}\n`);
    renameSync(partial, paths.badge);
  }
  return paths;
}

/** Writes `text` to a new file at `path`; false when the file exists. */
function createExclusive(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Badge
// ---------------------------------------------------------------------------------------------

export interface Badge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

/** Whether any floor or ceiling of the run's mode held a measurement of this run. */
export const gated = (report: Report): boolean =>
  report.gate.checked + report.gate.notRun + report.gate.ceilings.checked + report.gate.ceilings.notRun > 0 || report.gate.cases.recorded;

/** Each eval the target could not run, with how many of the mode's floors and ceilings its skip covers. */
export function skippedCounts(report: Pick<Report, "skipped" | "gate">): { skip: SkippedEval; floors: number; ceilings: number }[] {
  return report.skipped.map((skip) => {
    const covered = (c: { eval: string; slice: string; status: string }) =>
      c.status === "skipped" && skipCovering([skip], c.eval, c.slice) !== undefined;
    return { skip, floors: report.gate.checks.filter(covered).length, ceilings: report.gate.ceilings.checks.filter(covered).length };
  });
}

/**
 * Why nothing was gated, for the terminal and the Markdown alike; null when the run was gated. A
 * baseline can hold floors and ceilings for this mode and still gate nothing: when every one of
 * them belongs to an eval the target could not run.
 */
export function notGatedReason(report: Report): string | null {
  if (gated(report)) return null;
  const g = report.gate;
  if (g.skipped + g.ceilings.skipped === 0) return `no ${report.floorMode} floors, ceilings or cases in ${g.baseline}`;
  return `every ${report.floorMode} floor and ceiling in ${g.baseline} belongs to an eval the target cannot run (${g.skipped} floor(s), ${g.ceilings.skipped} ceiling(s) skipped)`;
}

/** The colour is the gate's verdict: brightgreen pass, red fail, lightgrey when nothing was gated. */
export function badge(report: Report): Badge {
  const rate = report.summary.passRate;
  const p95 = report.summary.p95LatencyMs;
  const color = report.status === "fail" ? "red" : report.status === "pass" ? "brightgreen" : "lightgrey";
  return {
    schemaVersion: 1,
    label: report.mode === "offline" ? "evals" : `evals (${report.mode.split("(")[0]})`,
    message: `${Math.round(rate * 100)}% pass${p95 === null ? "" : ` · p95 ${formatMs(p95)}`}${report.status === "pass" ? "" : report.status === "not-gated" ? " · not gated" : " · failing"}`,
    color,
  };
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

export function markdownSummary(report: Report): string {
  const lines: string[] = [];
  const out = (line = ""): number => lines.push(line);
  const g = report.gate;
  const regressions = report.verdicts.filter((v) => v.status === "regression");
  out(
    `# Eval run ${report.startedAt}: ${report.status === "not-gated" ? "NOT GATED" : report.status.toUpperCase()} (exit ${report.exitStatus})`,
  );
  out();
  for (const reason of report.statusReasons) out(`- ${reason}`);
  if (report.statusReasons.length > 0) out();
  out(
    `Cases: ${report.summary.cases}, ${report.summary.passed} pass (${pct(report.summary.passRate)}); ${g.cases.regressions} regressed, ${g.cases.knownFailures} known failure(s), ${g.cases.fixed} fixed, ${g.cases.newFailures} new failure(s).${report.filter === null ? "" : ` Filtered run (${cell(report.filter)}).`}`,
  );
  out();
  if (regressions.length > 0) {
    out(`## Regressions (${regressions.length}): cases that passed before`);
    out();
    for (const v of regressions)
      out(`- ${cell(v.key)}: ${cell(v.reasons.join("; "))}${v.diagnosis ? ` (diagnosis: ${v.diagnosis.verdict})` : ""}`);
    out();
  }
  if (g.failures.length > 0) {
    out(`## Floors that fell (${g.failures.length})`);
    out();
    out(`| eval | metric | slice | value | floor | Δ | n |`);
    out(`| --- | --- | --- | --- | --- | --- | --- |`);
    for (const c of g.failures)
      out(`| ${cell(c.eval)} | ${cell(c.metric)} | ${c.slice} | ${num(c.value)} | ${num(c.floor)} | ${signed(c.delta)} | ${c.n ?? "–"} |`);
    out();
  }
  if (g.ceilings.failures.length > 0) {
    out(`## Latency ceilings exceeded (${g.ceilings.failures.length})`);
    out();
    out(`| eval | slice | p95 | ceiling | n |`);
    out(`| --- | --- | --- | --- | --- |`);
    for (const c of g.ceilings.failures)
      out(
        `| ${cell(c.eval)} | ${c.slice} | ${c.p95Ms === null ? "not measured" : formatMs(c.p95Ms)} | ${formatMs(c.ceilingMs)} | ${c.n ?? "–"} |`,
      );
    out();
  }
  if (report.skipped.length > 0) {
    out(`## Skipped evals (${report.skipped.length}): the target cannot run them; not scored, their floors not checked`);
    out();
    for (const { skip, floors, ceilings } of skippedCounts(report)) {
      out(
        `- ${cell(skippedName(skip))}: ${cell(skip.reason)}${floors + ceilings > 0 ? ` (${floors} floor(s)${ceilings > 0 ? `, ${ceilings} latency ceiling(s)` : ""} skipped)` : ""}`,
      );
    }
    out();
  }
  contextTable(report, out);
  out(`## Evals`);
  out();
  out(`| eval | slice | metric | mean | floor | pass rate | n | not scored | p50 / p95 | ceiling |`);
  out(`| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
  const ceilingOf = new Map(g.ceilings.checks.map((c) => [`${c.eval}|${c.slice}`, c.ceilingMs]));
  for (const a of report.aggregates.filter((a) => a.base)) {
    for (const m of a.metrics) {
      const notScored =
        Object.entries(m.notScored)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "0";
      const latency = a.latency ? `${formatMs(a.latency.p50Ms)} / ${formatMs(a.latency.p95Ms)}` : "–";
      const ceiling = ceilingOf.get(`${a.eval}|${a.slice}`);
      out(
        `| ${cell(a.eval)} | ${a.slice} | ${cell(m.metric)} | ${num(m.mean)} | ${num(m.floor)} | ${pct(m.passRate)} | ${m.n} | ${notScored} | ${latency} | ${ceiling === undefined ? "–" : formatMs(ceiling)} |`,
      );
    }
  }
  out();
  if (report.variance) {
    out(`## Variance (up to ${report.variance.maxTrials} trials)`);
    out();
    for (const a of report.aggregates.filter((a) => a.base)) {
      for (const m of a.metrics) if (m.trialSd !== undefined) out(`- ${a.eval} › ${m.metric}: pooled trial SD ${m.trialSd.toFixed(3)}`);
    }
    out(`- cases whose outcome flipped between trials: ${report.variance.flipped.length}`);
    for (const c of report.variance.flipped) out(`  - ${c.suite} ${c.id}: ${c.trialOutcomes.join(" / ")}`);
    for (const line of stabilityLines(report.variance.judge ?? null)) out(line.startsWith("  ") ? `- ${line.trim()}` : `- ${line}`);
    out();
  }
  if (report.drafts) {
    const d = report.drafts;
    out(`## Drafts (${d.cases} case(s)): not gated, in no floor or mean`);
    out();
    out(`${d.passed} of ${d.units} verdict(s) pass, ${d.failed} fail, ${d.errored} error. Review them with pnpm eval:review.`);
    out();
    out(`| suite | category | pass | of |`);
    out(`| --- | --- | --- | --- |`);
    for (const suite of d.suites) {
      out(`| ${cell(suite.suite)} | all | ${suite.passed} | ${suite.units} |`);
      if (suite.categories.length > 1)
        for (const c of suite.categories) out(`| ${cell(suite.suite)} | ${cell(c.category)} | ${c.passed} | ${c.units} |`);
    }
    out();
  }
  if (report.warnings.length > 0) {
    out(`## Golden-set warnings (${report.warnings.length})`);
    out();
    for (const w of report.warnings) out(`- ${cell(w.suite)} ${w.id}: ${cell(w.message)}`);
    out();
  }
  collapsed(
    out,
    "Fixed: failed before, pass now",
    report.verdicts.filter((v) => v.status === "fixed"),
  );
  collapsed(
    out,
    "New failures (not yet recorded)",
    report.verdicts.filter((v) => v.status === "new-failure"),
  );
  collapsed(
    out,
    "Known failures",
    report.verdicts.filter((v) => v.status === "known-failure"),
  );
  return lines.join("\n");
}

/** A list in a `<details>` block, so a long list of known failures does not bury the verdict. */
function collapsed(out: (line?: string) => number, title: string, verdicts: readonly ReportVerdict[]): void {
  if (verdicts.length === 0) return;
  out(`<details><summary>${title} (${verdicts.length})</summary>`);
  out();
  for (const v of verdicts.slice(0, 500)) out(`- ${cell(v.key)} (${v.outcome}): ${cell(v.reasons.join("; ") || "passes")}`);
  if (verdicts.length > 500) out(`- … ${verdicts.length - 500} more in the JSON report`);
  out();
  out(`</details>`);
  out();
}

function contextTable(report: Report, out: (line?: string) => number): void {
  const f = report.fingerprint;
  const g = report.gate;
  out(`| | |`);
  out(`| --- | --- |`);
  out(`| commit | ${report.git.commit ?? "unknown"}${report.git.dirty ? " (uncommitted changes)" : ""} |`);
  out(`| mode | ${cell(report.mode)} (floors: ${cell(report.floorMode)}) |`);
  out(
    `| models | ${cell(
      Object.entries(report.models)
        .map(([role, id]) => `${role} ${id ?? "none"}`)
        .join(", "),
    )} |`,
  );
  out(
    `| index | corpus ${String(f.corpusHash ?? "?").slice(0, 12)}, ${cell(String(f.analyzer ?? "?"))}, embedder ${cell(String(f.embedder ?? "?"))} |`,
  );
  out(
    `| fixtures | ${report.fixtures.dataset} v${report.fixtures.version ?? "–"} (${report.fixtures.hash.slice(0, 12)}): ${report.fixtures.queries} queries (${report.fixtures.judgedQueries} judged)${report.fixtures.askCases === null ? "" : `, ${report.fixtures.askCases} ask cases`}, ${report.fixtures.documents ?? "?"} documents |`,
  );
  if (report.target) out(`| target calls | ${cell(targetCallsLine(report.target))} |`);
  if (Object.keys(report.engineOptions).length > 0) out(`| engine options | \`${cell(JSON.stringify(report.engineOptions))}\` |`);
  const marks = report.thresholds.passMarks;
  const own = Object.entries(marks.metrics).map(([m, v]) => `${m} ${v}`);
  out(
    `| cases | ${report.summary.cases}: ${report.summary.passed} pass, ${report.summary.failed} fail, ${report.summary.errored} error (questions: every expectation; other cases: pass mark ${marks.default} per metric${own.length > 0 ? `, ${cell(own.join(", "))}` : ""}) |`,
  );
  out(`| scores | ${report.summary.scores}, ${report.summary.notScored} not scored |`);
  const j = report.judge;
  if (j.mode !== "none")
    out(
      `| judge | ${j.mode}: ${j.llmJudge} llm-judge${j.cached ? ` (${j.cached} from the model cache)` : ""}, ${j.heuristic} heuristic${j.fallbacks > 0 ? ` (${j.fallbacks} fell back from a failed judge)` : ""} |`,
    );
  for (const line of j.calibration ?? []) out(`| judge's agreement | ${cell(line.replace(/^judge: /, ""))} |`);
  if (report.usage) out(`| model calls | ${cell(usageLines(report.usage)[0]!.replace(/^tokens: /, ""))} |`);
  const t = report.thresholds.evalite;
  out(
    t.threshold === null
      ? `| Evalite's mean | ${pct(report.evalite.mean)}, not the verdict (no threshold; --threshold N makes it part of it) |`
      : `| Evalite threshold | mean ${pct(report.evalite.mean)} vs ${t.threshold} % (${t.source}): ${report.evalite.thresholdMet === null ? "–" : report.evalite.thresholdMet ? "met" : "not met"}${t.binding ? "" : ", advisory"} |`,
  );
  const tol = report.thresholds.tolerance;
  out(
    gated(report)
      ? `| gate | ${g.status}: ${g.checked} floors checked, ${g.fell} fell, ${g.missing} missing, ${g.notRun} not run, ${g.skipped} skipped${
          g.notGated
            ? `, ${g.notGated} not gated (judged metrics whose judge falls short of κ 0.4 over 30 labels: ${cell(
                (report.judge.trust ?? [])
                  .filter((x) => !x.gated)
                  .map((x) => `${x.metric}, ${x.evidence}`)
                  .join("; "),
              )})`
            : ""
        }; tolerance ${tol.absolute} + ${tol.perSqrtN}/√n, slices n ≥ ${tol.minSliceN}; ${g.ceilings.checked} latency ceilings checked, ${g.ceilings.exceeded} exceeded; cases: ${g.cases.recorded ? "recorded" : "none recorded"} |`
      : `| gate | **NOT GATED**: ${cell(notGatedReason(report) ?? "")}; no mean was held to a floor |`,
  );
  out();
}

/** Another target's calls in one line: client and target time, unjudged results (the terminal prints the same). */
export function targetCallsLine(t: TargetCalls): string {
  const time = (what: string, x: TargetCalls["clientMs"]): string =>
    x === null
      ? `${what}: none reported`
      : `${what} p50 ${formatMs(x.p50Ms)}, p95 ${formatMs(x.p95Ms)}${x.n < t.calls ? ` (${x.n} of them)` : ""}`;
  const u = t.unjudged;
  const unjudged =
    u.results === 0
      ? "no result names a document the dataset does not hold"
      : `${u.results} result(s) in ${u.calls} call(s) name documents the dataset does not hold, scored as unjudged (not relevant): ${u.documents.join(", ")}${u.documents.length === SHOWN_DOCUMENTS ? `, … (the first ${SHOWN_DOCUMENTS} listed)` : ""}`;
  return `${t.target}: ${t.calls} ranking calls; ${time("client", t.clientMs)}; ${time("target's own time", t.serverMs)}; ${unjudged}`;
}

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const num = (x: number | null | undefined): string => (x === null || x === undefined ? "–" : x.toFixed(3));
const signed = (x: number | null): string => (x === null ? "missing" : `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`);
export const formatMs = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`);

// ---------------------------------------------------------------------------------------------
// JUnit XML
// ---------------------------------------------------------------------------------------------

/** Escapes text and attribute values; drops characters XML 1.0 cannot carry. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function junitXml(report: Report): string {
  const attr = (fields: Record<string, string | number>): string =>
    Object.entries(fields)
      .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
      .join("");
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skipped = 0;

  const checked = report.gate.checks.filter((c) => isChecked(c.status));
  const fellFloors = checked.filter((c) => c.status !== "pass");
  tests += checked.length;
  failures += fellFloors.length;
  suites.push(
    `  <testsuite${attr({ name: `Gate floors (${report.floorMode})`, tests: checked.length, failures: fellFloors.length, errors: 0 })}>\n` +
      checked
        .map(
          (c) => `    <testcase${attr({ classname: `gate.${c.eval}`, name: `${c.metric} | ${c.slice}` })}>${floorFailure(c)}</testcase>\n`,
        )
        .join("") +
      `  </testsuite>\n`,
  );
  const ceilings = report.gate.ceilings.checks.filter((c) => isChecked(c.status));
  const exceeded = ceilings.filter((c) => c.status !== "pass");
  tests += ceilings.length;
  failures += exceeded.length;
  suites.push(
    `  <testsuite${attr({ name: `Gate latency ceilings (${report.floorMode})`, tests: ceilings.length, failures: exceeded.length, errors: 0 })}>\n` +
      ceilings
        .map(
          (c) =>
            `    <testcase${attr({ classname: `gate.${c.eval}`, name: `p95 latency | ${c.slice}` })}>${ceilingFailure(c)}</testcase>\n`,
        )
        .join("") +
      `  </testsuite>\n`,
  );
  if (report.skipped.length > 0) {
    tests += report.skipped.length;
    skipped += report.skipped.length;
    suites.push(
      `  <testsuite${attr({ name: `Skipped evals (${report.floorMode})`, tests: report.skipped.length, failures: 0, errors: 0, skipped: report.skipped.length })}>\n` +
        report.skipped
          .map(
            (s) =>
              `    <testcase${attr({ classname: `gate.${s.eval}`, name: skippedName(s) })}><skipped${attr({ message: s.reason })}/></testcase>\n`,
          )
          .join("") +
        `  </testsuite>\n`,
    );
  }

  const bySuite = new Map<string, ReportVerdict[]>();
  for (const v of report.verdicts) bySuite.set(v.suite, [...(bySuite.get(v.suite) ?? []), v]);
  for (const [suite, verdicts] of bySuite) {
    const counts = { failures: 0, errors: 0, skipped: 0 };
    const body = verdicts
      .map((v) => {
        const time: Record<string, string> = v.latencyMs === null ? {} : { time: (v.latencyMs / 1000).toFixed(4) };
        const { element, kind } = verdictElement(v, attr);
        if (kind) counts[kind]++;
        return `    <testcase${attr({ classname: v.file, name: `${v.id}: ${v.label.slice(0, 160)}`, ...time })}>${element}</testcase>\n`;
      })
      .join("");
    tests += verdicts.length;
    failures += counts.failures;
    errors += counts.errors;
    skipped += counts.skipped;
    suites.push(
      `  <testsuite${attr({ name: suite, tests: verdicts.length, failures: counts.failures, errors: counts.errors, skipped: counts.skipped })}>\n${body}  </testsuite>\n`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attr({ name: "pnpm eval", tests, failures, errors, skipped, time: (report.durationMs / 1000).toFixed(3) })}>\n${suites.join("")}</testsuites>\n`;
}

/**
 * A unit's JUnit element: `<error>` when its task threw (Evalite failed the run), `<failure>` when
 * it regressed, `<skipped>` with the reasons when it fails as recorded (or newly, not yet recorded).
 */
function verdictElement(
  v: ReportVerdict,
  attr: (fields: Record<string, string | number>) => string,
): { element: string; kind: "failures" | "errors" | "skipped" | null } {
  const reasons = v.reasons.join("; ");
  const detail = xmlEscape([...v.reasons, ...(v.diagnosis ? [`diagnosis: ${v.diagnosis.verdict}`] : [])].join("\n"));
  if (v.outcome === "pass") return { element: "", kind: null };
  if (v.outcome === "error")
    return { element: `<error${attr({ message: reasons, type: "task-error" })}>${detail}</error>`, kind: "errors" };
  if (v.status === "regression")
    return {
      element: `<failure${attr({ message: `regression: passed before; ${reasons}`, type: "regression" })}>${detail}</failure>`,
      kind: "failures",
    };
  const why = v.status === "known-failure" ? "known failure" : "new failure, not yet recorded in the baseline";
  return { element: `<skipped${attr({ message: `${why}: ${reasons}` })}/>`, kind: "skipped" };
}

function floorFailure(c: FloorCheck): string {
  if (c.status === "pass") return "";
  const message =
    c.status === "missing"
      ? `not measured by this run (floor ${c.floor})`
      : `${c.value!.toFixed(4)} < floor ${c.floor} (${signed(c.delta)}, n=${c.n})`;
  return `<failure message="${xmlEscape(message)}" type="${c.status}"/>`;
}

function ceilingFailure(c: CeilingCheck): string {
  if (c.status === "pass") return "";
  const message =
    c.status === "missing"
      ? `no latency measured by this run (ceiling ${formatMs(c.ceilingMs)})`
      : `p95 ${formatMs(c.p95Ms!)} > ceiling ${formatMs(c.ceilingMs)} (n=${c.n})`;
  return `<failure message="${xmlEscape(message)}" type="${c.status}"/>`;
}
