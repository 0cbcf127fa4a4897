/**
 * `pnpm eval:compare <a.json> <b.json>`: is the change from run a to run b real or noise?
 *
 * Per suite and metric, the cases both runs scored are paired by case id and d_i = b_i − a_i (a
 * case's value is its mean over trials). For each: the mean of a and b and Δ = mean(d); wins
 * (d > 0), losses (d < 0) and ties (d = 0, within 1e-9); the paired randomization test's p-value
 * and its Holm adjustment over every metric compared; the bootstrap 95 % CI of Δ; the minimum
 * detectable effect and, when |Δ| is below it, a warning with the number of cases that would be
 * needed (stats.ts has the formulas). A metric is a **regression** when Δ < 0 with Holm-adjusted
 * p < 0.05, an **improvement** when Δ > 0 likewise; regressions are listed first.
 *
 * Only cases both runs actually scored are paired: a case whose value was not scored (the answer
 * failed, no judge, an error) in either run is left out of that metric and counted per run, never
 * compared as a real 0. A metric scored by different methods in the two runs (`heuristic` in one,
 * `llm-judge` in the other) measures two different things and is not compared unless forced.
 *
 * Runs are only comparable when they measured the same thing: a different index fingerprint
 * (schema, analyzer, chunkers, embedder, dimensions, corpus hash, dataset, collection) or fixture
 * set refuses the comparison with the differences, unless forced.
 *
 * Both runs must also have measured the same cases: a case (or a whole suite) one run has and the
 * other lacks is listed by suite and id and fails the comparison (`comparisonStatus`) — a run that
 * lost half its cases must not compare as "no regression" on the half that is left.
 */
import type { Report } from "./report.js";
import {
  bootstrapMeanCI,
  EXACT_LIMIT,
  holm,
  mean,
  minimumDetectableEffect,
  pairedRandomizationTest,
  percentile,
  requiredPairs,
  sd,
} from "./stats.js";
import { formatMs } from "./writers.js";

export const ALPHA = 0.05;
export const PERMUTATIONS = 10_000;
export const RESAMPLES = 10_000;

const FINGERPRINT_FIELDS = [
  "schemaVersion",
  "analyzer",
  "chunkers",
  "embedder",
  "dimensions",
  "corpusHash",
  "dataset",
  "collection",
] as const;

export interface MetricComparison {
  suite: string;
  metric: string;
  /** Cases both runs scored. */
  n: number;
  meanA: number;
  meanB: number;
  delta: number;
  wins: number;
  losses: number;
  ties: number;
  p: number;
  pMethod: "exact" | "monte-carlo";
  pHolm: number;
  ci: [number, number];
  sdDiff: number;
  mde: number;
  /** Set when |Δ| > 0 is smaller than the MDE: cases needed to detect Δ with power 0.8. */
  underpowered: { needed: number } | null;
  verdict: "regression" | "improvement" | "no significant change";
  /** The cases that lost most (up to 5). */
  worst: Array<{ id: string; delta: number }>;
  onlyInA: number;
  onlyInB: number;
  /** Cases left out because a run did not score them (failed, skipped, no judge, error). */
  notScoredA: number;
  notScoredB: number;
  /** Set when the two runs scored the metric by different methods (compared only when forced). */
  methods?: { a: string[]; b: string[] };
}

/** The cases of one suite that only one of the runs has (ids, sorted). */
export interface CaseSetDifference {
  suite: string;
  onlyInA: string[];
  onlyInB: string[];
}

export interface Comparison {
  fingerprintDifferences: string[];
  forced: boolean;
  metrics: MetricComparison[];
  /** Suites whose cases differ between the runs (a suite only one run measured included): each fails the comparison. */
  missingCases: CaseSetDifference[];
  /** Suite/metric pairs measured by only one of the runs. */
  unmatched: string[];
  /** Metrics left out because the runs scored them by different methods (without --force). */
  methodMismatch: Array<{ suite: string; metric: string; a: string[]; b: string[] }>;
  latency: Array<{ suite: string; a: { p50: number; p95: number } | null; b: { p50: number; p95: number } | null }>;
}

/** Differences that make two runs incomparable, as `field: a ≠ b`. */
export function fingerprintDifferences(a: Report, b: Report): string[] {
  const diffs: string[] = [];
  for (const field of FINGERPRINT_FIELDS) {
    const x = JSON.stringify(a.fingerprint[field] ?? null);
    const y = JSON.stringify(b.fingerprint[field] ?? null);
    if (x !== y) diffs.push(`${field}: ${x} ≠ ${y}`);
  }
  if (a.fixtures.hash !== b.fixtures.hash)
    diffs.push(`fixtures: ${a.fixtures.dataset} ${a.fixtures.hash.slice(0, 12)} ≠ ${b.fixtures.dataset} ${b.fixtures.hash.slice(0, 12)}`);
  return diffs;
}

export function compareReports(a: Report, b: Report, forced = false): Comparison {
  const valuesA = caseValues(a);
  const valuesB = caseValues(b);
  const rows: Array<Omit<MetricComparison, "pHolm" | "verdict">> = [];
  const unmatched: string[] = [];
  const methodMismatch: Comparison["methodMismatch"] = [];
  for (const [key, casesA] of valuesA) {
    const casesB = valuesB.get(key);
    if (!casesB) {
      unmatched.push(`${key.replace("\u0000", " › ")} (only in a)`);
      continue;
    }
    const [suite, metric] = key.split("\u0000") as [string, string];
    const methodsA = methodsOf(casesA);
    const methodsB = methodsOf(casesB);
    const methodsDiffer = methodsA.join() !== methodsB.join();
    if (methodsDiffer && !forced) {
      methodMismatch.push({ suite, metric, a: methodsA, b: methodsB });
      continue;
    }
    const scored = (v: CaseValue | undefined): v is CaseValue => v?.scored === true;
    const pairs = [...casesA]
      .filter(([id, x]) => scored(x) && scored(casesB.get(id)))
      .map(([id, x]) => ({ id, a: x.value, d: casesB.get(id)!.value - x.value }));
    const notScoredA = [...casesA.values()].filter((x) => !x.scored).length;
    const notScoredB = [...casesB.values()].filter((x) => !x.scored).length;
    if (pairs.length === 0) continue;
    const diffs = pairs.map((p) => p.d);
    const delta = mean(diffs);
    const sdDiff = sd(diffs);
    const mde = minimumDetectableEffect(sdDiff, diffs.length);
    const test = pairedRandomizationTest(diffs, PERMUTATIONS);
    rows.push({
      suite,
      metric,
      n: pairs.length,
      meanA: mean(pairs.map((p) => p.a)),
      meanB: mean(pairs.map((p) => p.a + p.d)),
      delta,
      wins: diffs.filter((d) => d > 1e-9).length,
      losses: diffs.filter((d) => d < -1e-9).length,
      ties: diffs.filter((d) => Math.abs(d) <= 1e-9).length,
      p: test.p,
      pMethod: test.method,
      ci: bootstrapMeanCI(diffs, RESAMPLES),
      sdDiff,
      mde,
      underpowered: Math.abs(delta) > 1e-12 && Math.abs(delta) < mde ? { needed: requiredPairs(sdDiff, delta) } : null,
      worst: pairs
        .filter((p) => p.d < -1e-9)
        .sort((x, y) => x.d - y.d)
        .slice(0, 5)
        .map((p) => ({ id: p.id, delta: p.d })),
      onlyInA: [...casesA.keys()].filter((id) => !casesB.has(id)).length,
      onlyInB: [...casesB.keys()].filter((id) => !casesA.has(id)).length,
      notScoredA,
      notScoredB,
      ...(methodsDiffer ? { methods: { a: methodsA, b: methodsB } } : {}),
    });
  }
  for (const key of valuesB.keys()) if (!valuesA.has(key)) unmatched.push(`${key.replace("\u0000", " › ")} (only in b)`);
  const adjusted = holm(rows.map((r) => r.p));
  const metrics: MetricComparison[] = rows.map((r, i) => {
    const pHolm = adjusted[i]!;
    const verdict = pHolm < ALPHA && r.delta < 0 ? "regression" : pHolm < ALPHA && r.delta > 0 ? "improvement" : "no significant change";
    return { ...r, pHolm, verdict };
  });
  const rank = { regression: 0, "no significant change": 1, improvement: 2 } as const;
  metrics.sort((x, y) => rank[x.verdict] - rank[y.verdict] || (x.verdict === "improvement" ? y.delta - x.delta : x.delta - y.delta));
  return {
    fingerprintDifferences: fingerprintDifferences(a, b),
    forced,
    metrics,
    missingCases: caseSetDifferences(a, b),
    unmatched,
    methodMismatch,
    latency: latencyRows(a, b),
  };
}

/** 1 when the comparison found a regression or cases one run lacks, else 0 (`pnpm eval:compare`'s exit status). */
export function comparisonStatus(c: Comparison): 0 | 1 {
  return c.metrics.some((m) => m.verdict === "regression") || c.missingCases.length > 0 ? 1 : 0;
}

/** Per suite of either run, the case ids only one of them has; suites whose cases match are left out. */
export function caseSetDifferences(a: Report, b: Report): CaseSetDifference[] {
  const idsA = caseIdsBySuite(a);
  const idsB = caseIdsBySuite(b);
  const none = new Set<string>();
  const only = (x: Set<string>, y: Set<string>): string[] => [...x].filter((id) => !y.has(id)).sort();
  return [...new Set([...idsA.keys(), ...idsB.keys()])]
    .map((suite) => {
      const inA = idsA.get(suite) ?? none;
      const inB = idsB.get(suite) ?? none;
      return { suite, onlyInA: only(inA, inB), onlyInB: only(inB, inA) };
    })
    .filter((d) => d.onlyInA.length + d.onlyInB.length > 0);
}

function caseIdsBySuite(report: Report): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of report.cases) out.set(c.suite, (out.get(c.suite) ?? new Set()).add(c.id));
  return out;
}

interface CaseValue {
  value: number;
  /** Every trial scored it (a not-scored value is not a measurement to compare). */
  scored: boolean;
  methods: string[];
}

/** suite + metric → case id → value, whether it was scored, and by which methods. */
function caseValues(report: Report): Map<string, Map<string, CaseValue>> {
  const out = new Map<string, Map<string, CaseValue>>();
  for (const c of report.cases) {
    for (const m of c.metrics) {
      const key = `${c.suite}\u0000${m.metric}`;
      const cases = out.get(key) ?? new Map<string, CaseValue>();
      cases.set(c.id, { value: m.value, scored: m.status === "scored", methods: Object.keys(m.methods ?? {}) });
      out.set(key, cases);
    }
  }
  return out;
}

/** The methods a run scored a metric by, over its scored cases, sorted. */
function methodsOf(cases: ReadonlyMap<string, CaseValue>): string[] {
  return [...new Set([...cases.values()].filter((v) => v.scored).flatMap((v) => v.methods))].sort();
}

function latencyRows(a: Report, b: Report): Comparison["latency"] {
  const la = engineLatency(a);
  const lb = engineLatency(b);
  return [...new Set([...la.keys(), ...lb.keys()])].map((suite) => ({ suite, a: la.get(suite) ?? null, b: lb.get(suite) ?? null }));
}

/** p50/p95 of the engine's own time per suite (suites whose outputs carry `elapsedMs`). */
function engineLatency(r: Report): Map<string, { p50: number; p95: number }> {
  const timed = new Set(r.evals.flatMap((e) => e.suites.filter((s) => s.latencySource === "elapsedMs").map((s) => s.name)));
  const bySuite = new Map<string, number[]>();
  for (const c of r.cases)
    if (timed.has(c.suite) && c.latencyMs !== null) bySuite.set(c.suite, [...(bySuite.get(c.suite) ?? []), c.latencyMs]);
  return new Map([...bySuite].map(([suite, xs]) => [suite, { p50: percentile(xs, 50), p95: percentile(xs, 95) }]));
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

export function formatComparison(c: Comparison, a: { path: string; report: Report }, b: { path: string; report: Report }): string {
  const lines: string[] = [];
  const describe = (label: string, r: { path: string; report: Report }): string => {
    const options = Object.keys(r.report.engineOptions).length > 0 ? `, engine options ${JSON.stringify(r.report.engineOptions)}` : "";
    return `${label} = ${r.path} (${r.report.mode}, commit ${r.report.git.commit?.slice(0, 12) ?? "unknown"}${r.report.git.dirty ? "+changes" : ""}, ${r.report.startedAt}${options})`;
  };
  lines.push(describe("a", a), describe("b", b));
  if (c.fingerprintDifferences.length > 0)
    lines.push(`fingerprints differ (compared anyway: --force): ${c.fingerprintDifferences.join("; ")}`);
  else
    lines.push(
      `fingerprint: same (corpus ${String(a.report.fingerprint.corpusHash ?? "?").slice(0, 12)}, embedder ${a.report.fingerprint.embedder ?? "?"}, dataset ${a.report.fixtures.dataset})`,
    );
  lines.push(
    `per metric, paired by case: Δ = b − a; p: randomization test (sign flips; exact up to ${EXACT_LIMIT} non-zero differences, else ${PERMUTATIONS.toLocaleString("en")} seeded), Holm-adjusted over ${c.metrics.length} metrics; 95 % CI: bootstrap (${RESAMPLES.toLocaleString("en")} resamples); MDE at α = 0.05, power 0.8`,
  );
  if (c.missingCases.length > 0) {
    lines.push(
      "",
      `CASES ONE RUN LACKS (${c.missingCases.length} suite(s)): compared only on the cases both have; this fails the comparison`,
    );
    const ids = (xs: readonly string[]): string =>
      `${xs
        .slice(0, MISSING_IDS_SHOWN)
        .map((id) => (id.length > 80 ? `${id.slice(0, 80)}…` : id))
        .join(", ")}${xs.length > MISSING_IDS_SHOWN ? `, … (${xs.length - MISSING_IDS_SHOWN} more)` : ""}`;
    for (const d of c.missingCases) {
      const parts = [
        d.onlyInA.length > 0 ? `${d.onlyInA.length} only in a (missing in b): ${ids(d.onlyInA)}` : "",
        d.onlyInB.length > 0 ? `${d.onlyInB.length} only in b (missing in a): ${ids(d.onlyInB)}` : "",
      ].filter((p) => p !== "");
      lines.push(`  ${d.suite}: ${parts.join("; ")}`);
    }
  }
  const groups = [
    ["REGRESSIONS", c.metrics.filter((m) => m.verdict === "regression")],
    ["NO SIGNIFICANT CHANGE", c.metrics.filter((m) => m.verdict === "no significant change")],
    ["IMPROVEMENTS", c.metrics.filter((m) => m.verdict === "improvement")],
  ] as const;
  for (const [title, rows] of groups) {
    lines.push("", `${title} (${rows.length})`);
    for (const m of rows) {
      lines.push(
        `  ${m.suite} › ${m.metric}: ${m.meanA.toFixed(3)} → ${m.meanB.toFixed(3)}  Δ ${signed(m.delta)}  95% CI [${signed(m.ci[0])}, ${signed(m.ci[1])}]  p ${pValue(m.p)} (Holm ${pValue(m.pHolm)})  wins ${m.wins} / losses ${m.losses} / ties ${m.ties}  n ${m.n}`,
      );
      if (m.verdict === "regression" && m.worst.length > 0)
        lines.push(`    lost most: ${m.worst.map((w) => `${w.id} ${signed(w.delta)}`).join(", ")}`);
      if (m.verdict === "no significant change" && m.p < ALPHA)
        lines.push(
          `    p < ${ALPHA} before adjusting for ${c.metrics.length} metrics compared at once: ${m.delta < 0 ? "a likely loss" : "a likely gain"}, not established`,
        );
      if (m.underpowered) {
        lines.push(
          `    warning: ${m.n} cases cannot reliably detect |Δ| = ${Math.abs(m.delta).toFixed(3)} (MDE ${m.mde.toFixed(3)}); about ${m.underpowered.needed.toLocaleString("en")} would be needed`,
        );
      }
      if (m.onlyInA + m.onlyInB > 0) lines.push(`    unpaired cases left out: ${m.onlyInA} only in a, ${m.onlyInB} only in b`);
      if (m.notScoredA + m.notScoredB > 0)
        lines.push(
          `    not scored, left out: ${m.notScoredA} in a, ${m.notScoredB} in b (failed, skipped, no judge or errored cases are not zeros)`,
        );
      if (m.methods)
        lines.push(
          `    warning: scored by ${m.methods.a.join("+") || "–"} in a and ${m.methods.b.join("+") || "–"} in b (compared only because of --force)`,
        );
    }
  }
  if (c.unmatched.length > 0) lines.push("", `measured by one run only: ${c.unmatched.join("; ")}`);
  if (c.methodMismatch.length > 0) {
    lines.push(
      "",
      `not compared, scored by different methods (--force compares them anyway): ${c.methodMismatch.map((m) => `${m.suite} › ${m.metric} (${m.a.join("+") || "–"} vs ${m.b.join("+") || "–"})`).join("; ")}`,
    );
  }
  if (c.latency.length > 0) {
    lines.push("", "latency (engine time), p50 / p95:");
    for (const l of c.latency)
      lines.push(
        `  ${l.suite}: ${l.a ? `${formatMs(l.a.p50)} / ${formatMs(l.a.p95)}` : "–"} → ${l.b ? `${formatMs(l.b.p50)} / ${formatMs(l.b.p95)}` : "–"}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

/** Case ids listed per suite and run before the rest are counted. */
const MISSING_IDS_SHOWN = 10;

const signed = (x: number): string => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;
const pValue = (p: number): string => (p < 0.0001 ? p.toExponential(1) : p.toFixed(4));
