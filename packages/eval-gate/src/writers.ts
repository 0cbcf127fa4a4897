/**
 * The report set of a run, beside the JSON report: a Markdown summary, a shields.io endpoint badge
 * (`{ schemaVersion: 1, label, message, color }`: case pass rate and p95 latency) and a JUnit XML
 * file (one testsuite for the gate's floors, then one per Evalite suite with one testcase per case;
 * a case that did not pass is a `<failure>` with its reasons, a task that threw an `<error>`).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FloorCheck } from "./baseline.js";
import { pct, type Report } from "./report.js";

export interface ReportPaths {
  json: string;
  markdown: string;
  junit: string;
  badge: string;
}

/** Writes `<dir>/<timestamp>.{json,md,junit.xml}` and `<dir>/badge.json` (the latest run's). */
export function writeReportSet(dir: string, report: Report): ReportPaths {
  mkdirSync(dir, { recursive: true });
  const stamp = report.startedAt.replace(/:/g, "-").replace(/\.\d+Z$/, "Z");
  let name = stamp;
  for (let i = 2; existsSync(join(dir, `${name}.json`)); i++) name = `${stamp}-${i}`;
  const paths: ReportPaths = {
    json: join(dir, `${name}.json`),
    markdown: join(dir, `${name}.md`),
    junit: join(dir, `${name}.junit.xml`),
    badge: join(dir, "badge.json"),
  };
  writeFileSync(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(paths.markdown, markdownSummary(report));
  writeFileSync(paths.junit, junitXml(report));
  writeFileSync(paths.badge, `${JSON.stringify(badge(report), null, 2)}\n`);
  return paths;
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

/** Red when the run failed; otherwise by case pass rate: ≥ 90 % brightgreen, ≥ 75 % green, ≥ 50 % yellow, else orange. */
export function badge(report: Report): Badge {
  const rate = report.summary.passRate;
  const p95 = report.summary.p95LatencyMs;
  const color = report.status !== "pass" ? "red" : rate >= 0.9 ? "brightgreen" : rate >= 0.75 ? "green" : rate >= 0.5 ? "yellow" : "orange";
  return {
    schemaVersion: 1,
    label: report.mode === "offline" ? "evals" : `evals (${report.mode.split("(")[0]})`,
    message: `${Math.round(rate * 100)}% pass${p95 === null ? "" : ` · p95 ${formatMs(p95)}`}${report.status === "pass" ? "" : " · failing"}`,
    color,
  };
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

export function markdownSummary(report: Report): string {
  const lines: string[] = [];
  const out = (line = ""): number => lines.push(line);
  out(`# Eval run ${report.startedAt}: ${report.status.toUpperCase()} (exit ${report.exitStatus})`);
  out();
  for (const reason of report.statusReasons) out(`- ${reason}`);
  if (report.statusReasons.length > 0) out();
  const f = report.fingerprint;
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
  if (Object.keys(report.engineOptions).length > 0) out(`| engine options | \`${cell(JSON.stringify(report.engineOptions))}\` |`);
  out(
    `| cases | ${report.summary.cases}: ${report.summary.passed} pass, ${report.summary.failed} fail, ${report.summary.errored} error (pass mark ${report.thresholds.casePassMark} per metric) |`,
  );
  out(`| scores | ${report.summary.scores}, ${report.summary.notScored} not scored |`);
  const j = report.judge;
  if (j.mode !== "none")
    out(
      `| judge | ${j.mode}: ${j.llmJudge} llm-judge, ${j.heuristic} heuristic${j.fallbacks > 0 ? ` (${j.fallbacks} fell back from a failed judge)` : ""} |`,
    );
  const t = report.thresholds.evalite;
  out(
    `| Evalite threshold | mean ${pct(report.evalite.mean)} vs ${t.threshold ?? "–"} % (${t.source}): ${report.evalite.thresholdMet === null ? "–" : report.evalite.thresholdMet ? "met" : "not met"}${t.binding ? "" : ", advisory"} |`,
  );
  const tol = report.thresholds.tolerance;
  const g = report.gate;
  out(
    g.checked + g.notRun === 0
      ? `| gate | **NOT GATED**: no ${cell(report.floorMode)} floors in ${cell(g.baseline)}; no mean was held to a floor |`
      : `| gate | ${g.status}: ${g.checked} floors checked, ${g.fell} fell, ${g.missing} missing, ${g.notRun} not run; tolerance ${tol.absolute} + ${tol.perSqrtN}/√n, slices n ≥ ${tol.minSliceN} |`,
  );
  out();
  if (report.gate.failures.length > 0) {
    out(`## Floors that fell`);
    out();
    out(`| eval | metric | slice | value | floor | Δ | n |`);
    out(`| --- | --- | --- | --- | --- | --- | --- |`);
    for (const c of report.gate.failures)
      out(`| ${cell(c.eval)} | ${cell(c.metric)} | ${c.slice} | ${num(c.value)} | ${num(c.floor)} | ${signed(c.delta)} | ${c.n ?? "–"} |`);
    out();
  }
  out(`## Evals`);
  out();
  out(`| eval | slice | metric | mean | floor | pass rate | n | not scored | p50 / p95 |`);
  out(`| --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
  for (const a of report.aggregates.filter((a) => a.base)) {
    for (const m of a.metrics) {
      const notScored =
        Object.entries(m.notScored)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ") || "0";
      const latency = a.latency ? `${formatMs(a.latency.p50Ms)} / ${formatMs(a.latency.p95Ms)}` : "–";
      out(
        `| ${cell(a.eval)} | ${a.slice} | ${cell(m.metric)} | ${num(m.mean)} | ${num(m.floor)} | ${pct(m.passRate)} | ${m.n} | ${notScored} | ${latency} |`,
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
    out();
  }
  const notPassed = report.cases.filter((c) => c.outcome !== "pass");
  out(`## Cases that did not pass (${notPassed.length})`);
  out();
  for (const c of notPassed.slice(0, 200)) out(`- ${cell(c.suite)} ${c.id} (${c.outcome}): ${cell(c.reasons.join("; "))}`);
  if (notPassed.length > 200) out(`- … ${notPassed.length - 200} more in the JSON report`);
  out();
  return lines.join("\n");
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

  const checked = report.gate.checks.filter((c) => c.status !== "not-run");
  const gateFailures = checked.filter((c) => c.status !== "pass");
  tests += checked.length;
  failures += gateFailures.length;
  suites.push(
    `  <testsuite${attr({ name: `Gate floors (${report.floorMode})`, tests: checked.length, failures: gateFailures.length, errors: 0 })}>\n` +
      checked
        .map(
          (c) => `    <testcase${attr({ classname: `gate.${c.eval}`, name: `${c.metric} | ${c.slice}` })}>${floorFailure(c)}</testcase>\n`,
        )
        .join("") +
      `  </testsuite>\n`,
  );

  for (const group of report.evals) {
    for (const suite of group.suites) {
      const cases = report.cases.filter((c) => c.suite === suite.name);
      const failed = cases.filter((c) => c.outcome === "fail").length;
      const errored = cases.filter((c) => c.outcome === "error").length;
      tests += cases.length;
      failures += failed;
      errors += errored;
      const body = cases
        .map((c) => {
          const time: Record<string, string> = c.latencyMs === null ? {} : { time: (c.latencyMs / 1000).toFixed(4) };
          const detail = xmlEscape(
            c.metrics.map((m) => `${m.metric} = ${m.value.toFixed(3)}${m.status === "scored" ? "" : ` (${m.status})`}`).join("\n"),
          );
          const inner =
            c.outcome === "pass"
              ? ""
              : `<${c.outcome === "error" ? "error" : "failure"}${attr({ message: c.reasons.join("; "), type: c.outcome === "error" ? "task-error" : "below-pass-mark" })}>${detail}</${c.outcome === "error" ? "error" : "failure"}>`;
          return `    <testcase${attr({ classname: `${suite.file}`, name: `${c.id}: ${c.label.slice(0, 160)}`, ...time })}>${inner}</testcase>\n`;
        })
        .join("");
      suites.push(
        `  <testsuite${attr({ name: suite.name, tests: cases.length, failures: failed, errors: errored })}>\n${body}  </testsuite>\n`,
      );
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attr({ name: "pnpm eval", tests, failures, errors, time: (report.durationMs / 1000).toFixed(3) })}>\n${suites.join("")}</testsuites>\n`;
}

function floorFailure(c: FloorCheck): string {
  if (c.status === "pass") return "";
  const message =
    c.status === "missing"
      ? `not measured by this run (floor ${c.floor})`
      : `${c.value!.toFixed(4)} < floor ${c.floor} (${signed(c.delta)}, n=${c.n})`;
  return `<failure message="${xmlEscape(message)}" type="${c.status}"/>`;
}
