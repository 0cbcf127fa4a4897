import { describe, expect, it } from "vitest";
import { compareReports, comparisonStatus, fingerprintDifferences, formatComparison } from "./compare.js";
import { output, reportOf, row, RUN_INFO, suite } from "./test-data/gate.js";

/** A run of n cases whose metric m is `value(i)`. */
const run = (n: number, value: (i: number) => number, name = "Search") =>
  reportOf(
    output([
      suite(
        name,
        Array.from({ length: n }, (_, i) => row({ id: `q${i}`, scores: { m: value(i), k: 0.5 }, elapsedMs: 2 + i })),
      ),
    ]),
  );

describe("pnpm eval:compare statistics", () => {
  it("identical runs: Δ 0, every case a tie, p = 1, no regression", () => {
    const a = run(30, (i) => (i % 3) / 2);
    const c = compareReports(a, a);
    expect(c.fingerprintDifferences).toEqual([]);
    expect(c.metrics.map((m) => [m.metric, m.delta, m.wins, m.losses, m.ties, m.p, m.verdict])).toEqual([
      ["m", 0, 0, 0, 30, 1, "no significant change"],
      ["k", 0, 0, 0, 30, 1, "no significant change"],
    ]);
    expect(c.metrics[0]!.ci).toEqual([0, 0]);
    expect(c.metrics[0]!.underpowered).toBeNull();
  });

  it("a clear drop is a regression with a small p and a CI below 0, listed first with the cases that lost most", () => {
    const a = run(40, (i) => 0.8 - (i % 4) * 0.05);
    const b = run(40, (i) => (i === 7 ? 0.9 : 0.5 - (i % 4) * 0.05));
    const c = compareReports(a, b);
    const m = c.metrics[0]!;
    expect(m).toMatchObject({
      suite: "Search",
      metric: "m",
      n: 40,
      wins: 1,
      losses: 39,
      ties: 0,
      pMethod: "monte-carlo",
      verdict: "regression",
    });
    expect(m.delta).toBeCloseTo((39 * -0.3 + (0.9 - 0.65)) / 40, 10);
    expect(m.p).toBeLessThan(0.001);
    expect(m.ci[1]).toBeLessThan(0);
    expect(m.worst).toHaveLength(5);
    expect(c.metrics[1]).toMatchObject({ metric: "k", verdict: "no significant change" });
    const text = formatComparison(c, { path: "a.json", report: a }, { path: "b.json", report: b });
    expect(text.indexOf("REGRESSIONS (1)")).toBeLessThan(text.indexOf("NO SIGNIFICANT CHANGE (1)"));
    expect(text).toMatch(
      /Search › m: 0\.725 → 0\.439 {2}Δ −0\.286 {2}95% CI \[−0\.\d{3}, −0\.\d{3}\] {2}p 1\.0e-4 \(Holm 0\.0002\) {2}wins 1 \/ losses 39 \/ ties 0 {2}n 40/,
    );
    expect(text).toContain("lost most: q");
    // Improvements are listed last, largest first.
    expect(compareReports(b, a).metrics[0]).toMatchObject({ metric: "k" });
    expect(compareReports(b, a).metrics[1]).toMatchObject({ metric: "m", verdict: "improvement" });
  });

  it("warns when the query set is too small to detect the observed effect", () => {
    const a = run(8, () => 0.5);
    const b = run(8, (i) => (i === 0 ? 0.9 : i === 1 ? 0.3 : 0.5));
    const m = compareReports(a, b).metrics.find((x) => x.metric === "m")!;
    // Δ = 0.2 / 8 = 0.025; s_d = √((0.16 + 0.04 − 8·0.025²)/7); exact test over 2 non-zero differences.
    expect(m).toMatchObject({ n: 8, wins: 1, losses: 1, ties: 6, pMethod: "exact", p: 1, verdict: "no significant change" });
    expect(m.delta).toBeCloseTo(0.025, 12);
    expect(m.mde).toBeCloseTo((2.801585 * Math.sqrt((0.2 - 8 * 0.025 ** 2) / 7)) / Math.sqrt(8), 6);
    expect(m.underpowered!.needed).toBeGreaterThan(8);
    expect(formatComparison(compareReports(a, b), { path: "a", report: a }, { path: "b", report: b })).toMatch(
      /warning: 8 cases cannot reliably detect \|Δ\| = 0\.025 \(MDE 0\.\d{3}\); about \d+ would be needed/,
    );
  });

  it("leaves out cases a run did not score instead of comparing them as zeros", () => {
    const a = run(20, () => 0.8);
    const failed = { score: 0, metadata: { status: "failed", error: "model failed" } };
    const b = reportOf(
      output([
        suite(
          "Search",
          Array.from({ length: 20 }, (_, i) => row({ id: `q${i}`, scores: { m: i < 12 ? failed : 0.8, k: 0.5 } })),
        ),
      ]),
    );
    const c = compareReports(a, b);
    const m = c.metrics.find((x) => x.metric === "m")!;
    expect(m).toMatchObject({ n: 8, notScoredA: 0, notScoredB: 12, delta: 0, verdict: "no significant change" });
    expect(formatComparison(c, { path: "a", report: a }, { path: "b", report: b })).toContain("not scored, left out: 0 in a, 12 in b");
  });

  it("does not compare a metric scored by different methods, unless forced", () => {
    const by = (method: string, score: number) => ({ score, metadata: { method, status: "scored" } });
    const a = reportOf(
      output([
        suite(
          "Triad",
          Array.from({ length: 10 }, (_, i) => row({ id: `a${i}`, scores: { faith: by("heuristic", 1) } })),
        ),
      ]),
    );
    const b = reportOf(
      output([
        suite(
          "Triad",
          Array.from({ length: 10 }, (_, i) => row({ id: `a${i}`, scores: { faith: by("llm-judge", 0.6) } })),
        ),
      ]),
    );
    const c = compareReports(a, b);
    expect(c.metrics).toEqual([]);
    expect(c.methodMismatch).toEqual([{ suite: "Triad", metric: "faith", a: ["heuristic"], b: ["llm-judge"] }]);
    expect(formatComparison(c, { path: "a", report: a }, { path: "b", report: b })).toMatch(
      /not compared, scored by different methods.*Triad › faith \(heuristic vs llm-judge\)/,
    );
    const forced = compareReports(a, b, true);
    expect(forced.metrics[0]).toMatchObject({ metric: "faith", methods: { a: ["heuristic"], b: ["llm-judge"] }, verdict: "regression" });
  });

  it("pairs cases by id and reports the unpaired ones and metrics only one run measured", () => {
    const a = run(10, () => 0.5);
    const b = reportOf(
      output([
        suite(
          "Search",
          Array.from({ length: 12 }, (_, i) => row({ id: `q${i + 2}`, scores: { m: 0.5, extra: 1 } })),
        ),
      ]),
    );
    const c = compareReports(a, b);
    expect(c.metrics.find((m) => m.metric === "m")).toMatchObject({ n: 8, onlyInA: 2, onlyInB: 4 });
    expect(c.unmatched).toEqual(["Search › k (only in a)", "Search › extra (only in b)"]);
    expect(c.missingCases).toEqual([{ suite: "Search", onlyInA: ["q0", "q1"], onlyInB: ["q10", "q11", "q12", "q13"] }]);
    expect(comparisonStatus(c)).toBe(1);
  });

  it("a run that lacks cases (or a suite) the other has fails the comparison, naming them, even with no regression", () => {
    const full = reportOf(
      output([
        suite(
          "Search",
          Array.from({ length: 30 }, (_, i) => row({ id: `q${String(i).padStart(2, "0")}`, scores: { m: 0.5 } })),
        ),
        suite("Vectors", [row({ id: "v1", scores: { m: 1 } })]),
      ]),
    );
    const half = { ...full, cases: full.cases.filter((c) => c.suite === "Search" && Number(c.id.slice(1)) % 2 === 0) };
    const c = compareReports(full, half);
    expect(c.metrics.every((m) => m.verdict !== "regression")).toBe(true);
    expect(c.missingCases).toEqual([
      { suite: "Search", onlyInA: Array.from({ length: 15 }, (_, i) => `q${String(2 * i + 1).padStart(2, "0")}`), onlyInB: [] },
      { suite: "Vectors", onlyInA: ["v1"], onlyInB: [] },
    ]);
    expect(comparisonStatus(c)).toBe(1);
    const text = formatComparison(c, { path: "a.json", report: full }, { path: "b.json", report: half });
    expect(text).toContain("CASES ONE RUN LACKS (2 suite(s)): compared only on the cases both have; this fails the comparison");
    expect(text).toContain("  Search: 15 only in a (missing in b): q01, q03, q05, q07, q09, q11, q13, q15, q17, q19, … (5 more)");
    expect(text).toContain("  Vectors: 1 only in a (missing in b): v1");
    // The other way round: b has cases a lacks.
    expect(compareReports(half, full).missingCases[1]).toEqual({ suite: "Vectors", onlyInA: [], onlyInB: ["v1"] });
    expect(comparisonStatus(compareReports(full, full))).toBe(0);
  });

  it("names every fingerprint or fixture difference that makes two runs incomparable", () => {
    const a = run(3, () => 1);
    const other = reportOf(output([suite("Search", [row({ id: "q0", scores: { m: 1 } })])]), {
      runInfo: { ...RUN_INFO, fingerprint: { ...RUN_INFO.fingerprint, corpusHash: "c".repeat(64), embedder: "google/text-embedding-004" } },
      fixturesHash: "d".repeat(64),
    });
    expect(fingerprintDifferences(a, other)).toEqual([
      `embedder: "offline/test" ≠ "google/text-embedding-004"`,
      `corpusHash: "${"a".repeat(64)}" ≠ "${"c".repeat(64)}"`,
      "fixtures: fixtures bbbbbbbbbbbb ≠ fixtures dddddddddddd",
    ]);
    expect(compareReports(a, other, true).forced).toBe(true);
  });
});
