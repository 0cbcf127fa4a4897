import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emptyBaseline } from "./baseline.js";
import { ratchet } from "./ratchet.js";
import { evalRow, failedTests, output, reportOf, row, suite } from "./test-data/gate.js";
import { analyzeRun } from "./analysis.js";
import { reportProblems } from "./report-file.js";
import { badge, junitXml, markdownSummary, notGatedReason, writeReportSet, xmlEscape } from "./writers.js";

const dir = mkdtempSync(join(tmpdir(), "writers-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NASTY = `q-<&>"' \u0001 end`;
const out = output([
  suite("Search (BM25)", [
    row({ id: "q1", language: "en", category: "keyword", scores: { "nDCG@10": 0.9, "MRR@10": 1 }, elapsedMs: 4 }),
    row({ id: NASTY, language: "de", category: "keyword", scores: { "nDCG@10": 0.2, "MRR@10": 0.5 }, elapsedMs: 9 }),
    row({ id: "q3", language: "de", scores: {}, error: "engine <down> & out" }),
  ]),
  suite(
    "Answers [slim]",
    [
      evalRow({
        input: { id: "a1", question: "How?", language: "en", category: "answerable" },
        output: { text: "…" },
        duration: 40,
        scores: [
          {
            id: 1,
            name: "Faithfulness",
            score: 1,
            metadata: { status: "no-judge", method: "llm-judge" },
            createdAt: "2026-11-29 12:00:00",
          },
        ],
      }),
    ],
    { group: "Answers", name: "slim" },
  ),
]);

/** Parses XML with Python's standard library (a real parser, not ours); returns its summary or throws. */
function parseXml(xml: string): { tests: string; failures: string; errors: string; skipped: string; suites: string[]; cases: number } {
  const script = `import sys, json, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.read())
print(json.dumps({"tests": root.get("tests"), "failures": root.get("failures"), "errors": root.get("errors"), "skipped": root.get("skipped"), "suites": [s.get("name") for s in root.findall("testsuite")], "cases": len(root.findall("testsuite/testcase"))}))`;
  const r = spawnSync("python3", ["-c", script], { input: xml, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`not well-formed XML: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe("the report", () => {
  it("is valid against packages/eval-gate/report.schema.json, and a broken one is not", () => {
    const report = reportOf(out);
    expect(reportProblems(report)).toEqual([]);
    expect(reportProblems({ ...report, schemaVersion: 3 })[0]).toMatch(/schemaVersion/);
    // Version 2 needs what version 1 did not have; a version 1 report still validates (eval:compare reads both).
    const { verdicts: _v, warnings: _w, filter: _f, ...v1 } = report;
    expect(reportProblems(v1)).toEqual(['top level: missing required fields "filter", "verdicts", "warnings"']);
    const { passMarks: _p, ceilingTolerance: _c, ...thresholds } = report.thresholds;
    const { ceilings: _g, cases: _k, ...gate } = report.gate;
    expect(reportProblems({ ...v1, schemaVersion: 1, thresholds: { ...thresholds, casePassMark: 0.5 }, gate })).toEqual([]);
    expect(reportProblems({ ...report, cases: [{ ...report.cases[0], outcome: "maybe" }] }).length).toBeGreaterThan(0);
  });

  it("fails the run when an eval threw, and records Evalite's threshold as advisory", () => {
    const report = reportOf(out, { evalite: failedTests(1) });
    expect(report).toMatchObject({
      status: "fail",
      exitStatus: 1,
      statusReasons: [
        "1 eval(s) failed: Search (BM25)",
        "1 eval(s) could score no case: Answers [slim] (1 case(s), not scored: no-judge 1)",
        '1 case(s) errored: the target, a model or the task failed (Search (BM25) 1): "the task threw: Error: engine <down> & out" ×1',
      ],
    });
    // Evalite's own mean takes the stored scores as they are, the no-judge 1 included: (0.9 + 1 + 0.2 + 0.5 + 1) / 5.
    expect(report.evalite).toMatchObject({ exitStatus: 1, mean: 0.72, scores: 5, thresholdMet: true, failedSuites: ["Search (BM25)"] });
    expect(report.summary).toMatchObject({ cases: 4, passed: 1, failed: 2, errored: 1, notScored: 3 });
    // A no-judge score never passes and never counts as 1.
    expect(report.cases.find((c) => c.id === "a1")).toMatchObject({ outcome: "fail", reasons: ["Faithfulness not scored (no-judge)"] });
  });

  it("Evalite's threshold gates only when given on the command line", () => {
    const clean = output([suite("S", [row({ id: "1", scores: { m: 0.6 } })])]);
    expect(reportOf(clean)).toMatchObject({
      status: "pass",
      evalite: { mean: 0.6, thresholdMet: false },
      thresholds: { evalite: { threshold: 70, binding: false } },
    });
    expect(reportOf(clean, { threshold: 80 })).toMatchObject({
      status: "fail",
      statusReasons: ["Evalite's mean 60.0 % is below --threshold 80 %"],
    });
    expect(reportOf(clean, { threshold: 50 }).status).toBe("pass");
  });

  it("names fallen floors first and fails; an Evalite exit without a failed suite still fails", () => {
    const baseline = emptyBaseline();
    const strong = output([
      suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 1 } }), row({ id: "q2", scores: { "nDCG@10": 1 } })]),
    ]);
    ratchet(baseline, "offline", analyzeRun(strong, () => []).aggregates, { date: "d", commit: null, reason: "r" });
    const weak = output([
      suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 0.2 } }), row({ id: "q2", scores: { "nDCG@10": 1 } })]),
    ]);
    const report = reportOf(weak, { baseline });
    expect(report.status).toBe("fail");
    expect(report.gate.failures).toEqual([
      expect.objectContaining({ key: "Search (BM25)|nDCG@10|all", value: 0.6, floor: 0.9192, status: "fell" }),
    ]);
    expect(report.aggregates[0]!.metrics[0]).toMatchObject({ metric: "nDCG@10", floor: 0.9192 });
    expect(reportOf(strong, { baseline, evalite: failedTests(1) }).statusReasons).toEqual([
      "1 test(s) failed with no failed eval in Evalite's results",
    ]);
    expect(reportOf(strong, { baseline, evalite: { failedTests: 0, unloadedFiles: ["evals/broken.eval.ts"] } })).toMatchObject({
      status: "fail",
      statusReasons: ["1 eval file(s) did not load: evals/broken.eval.ts"],
      evalite: { exitStatus: 1 },
    });
    expect(reportOf(strong, { baseline }).status).toBe("pass");
  });
});

describe("no silent pass", () => {
  /** A case whose one score was not scored, for `status` (`skipped`: nothing failed; `failed`: the target or a model did). */
  const unscored = (id: string, status = "skipped") =>
    evalRow({
      input: { id },
      output: {},
      duration: 5,
      scores: [{ id: 1, name: "Schema valid", score: 0, metadata: { status }, createdAt: "2026-11-29 12:00:00" }],
    });

  it("a run that could score nothing fails, naming why, though no floor fell (a mode without floors)", () => {
    const report = reportOf(output([suite("Query expansion", [unscored("q1"), unscored("q2")]), suite("Keeps ids", [unscored("q3")])]));
    expect(report.gate.checked).toBe(0);
    expect(report).toMatchObject({
      status: "fail",
      exitStatus: 1,
      statusReasons: ["nothing could be scored: 3 case(s), not scored: skipped 3"],
    });
    expect(reportOf(output([suite("Errored", [row({ id: "q1", scores: {}, error: "boom" })])]))).toMatchObject({
      status: "fail",
      statusReasons: [
        "nothing could be scored: 1 case(s), no scores at all",
        '1 case(s) errored: the target, a model or the task failed (Errored 1): "the task threw: Error: boom" ×1',
      ],
    });
  });

  it("an eval none of whose cases could be scored fails the run, even when others scored", () => {
    const report = reportOf(
      output([
        suite("Search (BM25)", [row({ id: "q1", scores: { "MRR@10": 1 } })]),
        suite("Query expansion", [unscored("q1"), unscored("q2")]),
      ]),
    );
    expect(report).toMatchObject({
      status: "fail",
      statusReasons: ["1 eval(s) could score no case: Query expansion (2 case(s), not scored: skipped 2)"],
    });
  });

  it("one scored case is enough: the rest count as 0 and the floors judge the mean — unless the target or a model failed", () => {
    const partly = evalRow({
      input: { id: "q9" },
      output: {},
      duration: 5,
      scores: [{ id: 2, name: "Schema valid", score: 1, createdAt: "2026-11-29 12:00:00" }],
    });
    expect(reportOf(output([suite("Query expansion", [unscored("q1"), partly])])).status).toBe("pass");
    expect(reportOf(output([suite("Query expansion", [unscored("q1", "failed"), partly])])).statusReasons).toEqual([
      '1 case(s) errored: the target, a model or the task failed (Query expansion 1): "Schema valid failed" ×1',
    ]);
  });
});

/** `out`'s cases recorded as they were in a run where q1, the nasty one and a1 passed and q3 failed. */
function recordedBaseline() {
  const b = emptyBaseline();
  b.cases.offline = { "Search (BM25)": { pass: ["q1", NASTY], fail: ["q3"] }, "Answers [slim]": { pass: [], fail: ["a1"] } };
  return b;
}

describe("evals the target could not run", () => {
  const vsearch = { eval: "Vector search", reason: "target flaky does not serve mode vsearch" };
  const fast = { eval: "Thoroughness", variant: "fast", reason: "target flaky does not serve mode fast" };
  const tier = (name: string, score: number) =>
    suite(`Thoroughness [${name}]`, [row({ id: "q1", scores: { "nDCG@10": score }, elapsedMs: 3 })], { group: "Thoroughness", name });
  /** Floors (and a ceiling) set on a run that measured every eval and tier. */
  function floorsOfAFullRun() {
    const baseline = emptyBaseline();
    const full = output([
      suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 1 }, elapsedMs: 3 })]),
      suite("Vector search", [row({ id: "q1", scores: { "nDCG@10": 1 }, elapsedMs: 3 })]),
      tier("fast", 1),
      tier("balanced", 1),
    ]);
    ratchet(baseline, "offline", analyzeRun(full, () => []).aggregates, { date: "d", commit: null, reason: "r" });
    return baseline;
  }
  // The target lacks vsearch and the fast tier: those evals did not run.
  const partial = output([suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 1 }, elapsedMs: 3 })]), tier("balanced", 1)]);

  it("are in the report with their reasons; their floors and ceilings are skipped, never missing, never passed", () => {
    const baseline = floorsOfAFullRun();
    const report = reportOf(partial, { baseline, skipped: [vsearch, fast] });
    expect(reportProblems(report)).toEqual([]);
    expect(report.skipped).toEqual([vsearch, fast]);
    expect(report).toMatchObject({ status: "pass", statusReasons: [] });
    expect(report.gate).toMatchObject({ checked: 2, fell: 0, missing: 0, notRun: 0, skipped: 2, failures: [] });
    expect(report.gate.checks.filter((c) => c.status === "skipped").map((c) => [c.key, c.reason, c.value])).toEqual([
      ["Vector search|nDCG@10|all", vsearch.reason, null],
      ["Thoroughness|nDCG@10|tier=fast", fast.reason, null],
    ]);
    expect(report.gate.ceilings).toMatchObject({ checked: 2, skipped: 2, missing: 0, failures: [] });
    expect(report.summary.evals).toBe(2);
    // Unreported, the same run would hold the fast tier's floor as missing: a failure.
    expect(reportOf(partial, { baseline }).gate).toMatchObject({ missing: 1, notRun: 1, skipped: 0 });
  });

  it("JUnit: one skipped testcase per skipped eval with its reason; their floors are not testcases", () => {
    const xml = junitXml(reportOf(partial, { baseline: floorsOfAFullRun(), skipped: [vsearch, fast] }));
    const parsed = parseXml(xml);
    expect(parsed.suites).toContain("Skipped evals (offline)");
    expect(parsed).toMatchObject({ failures: "0", errors: "0", skipped: "2" });
    expect(xml).toContain(
      '<testcase classname="gate.Vector search" name="Vector search"><skipped message="target flaky does not serve mode vsearch"/></testcase>',
    );
    expect(xml).toContain(
      '<testcase classname="gate.Thoroughness" name="Thoroughness [fast]"><skipped message="target flaky does not serve mode fast"/></testcase>',
    );
    expect(xml).toContain('<testsuite name="Gate floors (offline)" tests="2" failures="0" errors="0">');
    expect(xml).not.toContain('name="nDCG@10 | tier=fast"');
    // No skip, no such testsuite.
    expect(parseXml(junitXml(reportOf(partial))).suites).not.toContain("Skipped evals (offline)");
  });

  it("Markdown: a section naming each skipped eval, why, and how many floors it skips; the gate row counts them", () => {
    const md = markdownSummary(reportOf(partial, { baseline: floorsOfAFullRun(), skipped: [vsearch, fast] }));
    expect(md).toContain("## Skipped evals (2): the target cannot run them; not scored, their floors not checked");
    expect(md).toContain("- Vector search: target flaky does not serve mode vsearch (1 floor(s), 1 latency ceiling(s) skipped)");
    expect(md).toContain("- Thoroughness [fast]: target flaky does not serve mode fast (1 floor(s), 1 latency ceiling(s) skipped)");
    expect(md).toMatch(/\| gate \| pass: 2 floors checked, 0 fell, 0 missing, 0 not run, 2 skipped;/);
    expect(markdownSummary(reportOf(partial))).not.toContain("## Skipped evals");
  });

  it("a run whose every floored eval was skipped is not gated, and the Markdown and badge say why", () => {
    // Floors and ceilings only for vsearch and the fast tier; the target runs neither.
    const baseline = emptyBaseline();
    const measured = output([suite("Vector search", [row({ id: "q1", scores: { "nDCG@10": 1 }, elapsedMs: 3 })]), tier("fast", 1)]);
    ratchet(baseline, "offline", analyzeRun(measured, () => []).aggregates, { date: "d", commit: null, reason: "r" });
    const unfloored = output([suite("Query expansion", [row({ id: "q1", scores: { "Schema valid": 1 }, elapsedMs: 3 })])]);
    const report = reportOf(unfloored, { baseline, skipped: [vsearch, fast] });
    expect(report.gate).toMatchObject({ checked: 0, skipped: 2, ceilings: { checked: 0, skipped: 2 } });
    const why = notGatedReason(report);
    expect(why).toMatch(
      /^every offline floor and ceiling in \S+ belongs to an eval the target cannot run \(2 floor\(s\), 2 ceiling\(s\) skipped\)$/,
    );
    expect(markdownSummary(report)).toContain(`| gate | **NOT GATED**: ${why}; no mean was held to a floor |`);
    expect(badge(report)).toMatchObject({ color: "lightgrey", message: expect.stringMatching(/ · not gated$/) });
    // Without floors for the mode at all, the reason says that instead; a gated run has none.
    expect(notGatedReason(reportOf(unfloored))).toMatch(/^no offline floors, ceilings or cases in /);
    expect(notGatedReason(reportOf(partial, { baseline: floorsOfAFullRun(), skipped: [vsearch, fast] }))).toBeNull();
  });
});

describe("report writers", () => {
  it("JUnit XML: a failure only for a regression, a known or new failure skipped with its reasons, an error for a task that threw", () => {
    const fresh = parseXml(junitXml(reportOf(out, { evalite: failedTests(1) })));
    expect(fresh).toEqual({
      tests: "4",
      failures: "0",
      errors: "1",
      skipped: "2",
      suites: ["Gate floors (offline)", "Gate latency ceilings (offline)", "Search (BM25)", "Answers [slim]"],
      cases: 4,
    });
    const xml = junitXml(reportOf(out, { evalite: failedTests(1), baseline: recordedBaseline() }));
    expect(parseXml(xml)).toMatchObject({ tests: "4", failures: "1", errors: "1", skipped: "1" });
    expect(xml).toContain("q-&lt;&amp;&gt;&quot;&apos;  end");
    expect(xml).toContain('<failure message="regression: passed before; nDCG@10 0.200 &lt; 0.5" type="regression">');
    expect(xml).toContain('<skipped message="known failure: Faithfulness not scored (no-judge)"/>');
    expect(xml).toContain(
      '<error message="the task threw: Error: engine &lt;down&gt; &amp; out; nDCG@10 not scored (errored); MRR@10 not scored (errored)" type="task-error">',
    );
    // classname: the eval file relative to the repository root, the same on every runner.
    expect(xml).toContain('classname="evals/search-bm25-.eval.ts"');
    expect(xml).not.toContain('classname="/repo');
  });

  it("a clean run's JUnit file holds no failure although cases fail as recorded", () => {
    const known = output([
      suite("Search (BM25)", [row({ id: "q1", scores: { "nDCG@10": 0.1 } }), row({ id: "q2", scores: { "nDCG@10": 1 } })]),
    ]);
    const b = emptyBaseline();
    b.cases.offline = { "Search (BM25)": { pass: ["q2"], fail: ["q1"] } };
    const report = reportOf(known, { baseline: b });
    expect(report).toMatchObject({ status: "pass", gate: { cases: { knownFailures: 1, regressions: 0 } } });
    expect(parseXml(junitXml(report))).toMatchObject({ failures: "0", errors: "0", skipped: "1" });
  });

  it("xmlEscape drops what XML 1.0 cannot carry", () => {
    expect(xmlEscape("a\u0000b\u0008c\td\ne\uFFFEf😀")).toBe("abc\td\nef😀");
  });

  it("badge.json: pass rate and p95 latency; the colour is the gate's verdict", () => {
    expect(badge(reportOf(out, { evalite: failedTests(1) }))).toEqual({
      schemaVersion: 1,
      label: "evals",
      message: "25% pass · p95 40 ms · failing",
      color: "red",
    });
    const good = output([suite("S", [row({ id: "1", scores: { m: 1 }, elapsedMs: 3 }), row({ id: "2", scores: { m: 0 }, elapsedMs: 3 })])]);
    expect(badge(reportOf(good))).toEqual({
      schemaVersion: 1,
      label: "evals",
      message: "50% pass · p95 3.0 ms · not gated",
      color: "lightgrey",
    });
    const b = emptyBaseline();
    b.cases.offline = { S: { pass: ["1"], fail: ["2"] } };
    // Half the cases fail as recorded: the gate passes, and so does the badge's colour.
    expect(badge(reportOf(good, { baseline: b }))).toEqual({
      schemaVersion: 1,
      label: "evals",
      message: "50% pass · p95 3.0 ms",
      color: "brightgreen",
    });
  });

  it("the Markdown summary: the verdict first, then regressions, floors, context, aggregates, known failures collapsed", () => {
    const md = markdownSummary(reportOf(out, { evalite: failedTests(1), baseline: recordedBaseline() }));
    expect(md).toMatch(/^# Eval run 2026-11-29T12:00:00.000Z: FAIL \(exit 1\)/);
    expect(md).toContain("- 1 case(s) regressed");
    const regressions = md.indexOf("## Regressions (1)");
    expect(regressions).toBeGreaterThan(0);
    expect(md).toContain(`- Search (BM25)\\|${NASTY}: nDCG@10 0.200 < 0.5`);
    expect(md.indexOf("| commit | 0123456789abcdef0123456789abcdef01234567 |")).toBeGreaterThan(regressions);
    expect(md).toContain("| Search (BM25) | all | nDCG@10 | 0.367 | – | 33.3 % | 3 | errored 1 | 4.0 ms / 9.0 ms | – |");
    expect(md).toContain("| Answers | preset=slim | Faithfulness | 0.000 | – | 0.0 % | 1 | no-judge 1 |");
    expect(md).toContain("| Evalite threshold | mean 72.0 % vs 70 % (evalite.config.ts): met, advisory |");
    const report = reportOf(out);
    const none = { ...report, thresholds: { ...report.thresholds, evalite: { threshold: null, source: "none" as const, binding: false } } };
    expect(markdownSummary(none)).toContain(
      "| Evalite's mean | 72.0 %, not the verdict (no threshold; --threshold N makes it part of it) |",
    );
    expect(md).toContain("<details><summary>Known failures (2)</summary>");
    expect(md).toContain("- Search (BM25)\\|q3 (error): the task threw: Error: engine <down> & out");
    expect(md.indexOf("<details><summary>Known failures")).toBeGreaterThan(md.indexOf("## Evals"));
    // Nothing recorded for the mode: said loudly, not as a passed gate.
    expect(markdownSummary(reportOf(out))).toContain(
      "| gate | **NOT GATED**: no offline floors, ceilings or cases in evals/baseline.json; no mean was held to a floor |",
    );
  });

  it("the Markdown summary's order: verdict and reasons, regressions, floors that fell, then the rest; fixed and known failures collapsed last", () => {
    const rows = (...values: number[]) =>
      output([
        suite(
          "Search (BM25)",
          values.map((v, i) => row({ id: `q${i + 1}`, scores: { "nDCG@10": v } })),
        ),
      ]);
    const baseline = emptyBaseline();
    ratchet(baseline, "offline", analyzeRun(rows(1, 1, 0.1, 0.1), () => []).aggregates, { date: "d", commit: null, reason: "r" });
    baseline.cases.offline = { "Search (BM25)": { pass: ["q1", "q2"], fail: ["q3", "q4"] } };
    // q2 regresses, q3 still fails, q4 is fixed; the mean 0.425 falls below its floor 0.49.
    const report = reportOf(rows(1, 0, 0.1, 0.6), { baseline });
    expect(report.gate.cases).toMatchObject({ regressions: 1, knownFailures: 1, fixed: 1, newFailures: 0 });
    const md = markdownSummary(report);
    const at = (text: string): number => {
      expect(md, text).toContain(text);
      return md.indexOf(text);
    };
    const order = [
      at("# Eval run 2026-11-29T12:00:00.000Z: FAIL (exit 1)"),
      at("- 1 case(s) regressed"),
      at("## Regressions (1): cases that passed before"),
      at("- Search (BM25)\\|q2: nDCG@10 0.000 < 0.5"),
      at("## Floors that fell (1)"),
      at("| Search (BM25) | nDCG@10 | all | 0.425 | 0.490 |"),
      at("## Evals"),
      at("<details><summary>Fixed: failed before, pass now (1)</summary>"),
      at("- Search (BM25)\\|q4 (pass): passes"),
      at("<details><summary>Known failures (1)</summary>"),
      at("- Search (BM25)\\|q3 (fail): nDCG@10 0.100 < 0.5"),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // JUnit agrees: the regression and the floor fail, the known failure is skipped, the fixed case passes.
    const xml = junitXml(report);
    expect(parseXml(xml)).toMatchObject({ failures: "2", errors: "0", skipped: "1" });
    expect(xml).toMatch(/<testcase classname="[^"]*" name="q4: [^"]*"[^>]*><\/testcase>/);
  });

  it("writes the set: <timestamp>.json, .md, .junit.xml, and badge.json only for a full run, never overwriting a report", () => {
    const report = reportOf(out);
    const first = writeReportSet(dir, report);
    const second = writeReportSet(dir, report);
    expect(first.json).toBe(join(dir, "2026-11-29T12-00-00Z.json"));
    expect(second.json).toBe(join(dir, "2026-11-29T12-00-00Z-2.json"));
    expect(first.junit).toBe(join(dir, "2026-11-29T12-00-00Z.junit.xml"));
    expect(first.badge).toBe(join(dir, "badge.json"));
    // The badge is written beside and renamed into place: no partial file is left.
    expect(readdirSync(dir).filter((f) => !f.startsWith("2026-11-29T12-00-00Z"))).toEqual(["badge.json"]);
    expect(reportProblems(JSON.parse(readFileSync(first.json, "utf8")))).toEqual([]);
    expect(readFileSync(first.markdown, "utf8")).toContain("# Eval run");
    const filteredDir = join(dir, "filtered");
    const filtered = writeReportSet(filteredDir, reportOf(out, { filter: "search" }));
    expect(filtered.badge).toBeNull();
    expect(existsSync(join(filteredDir, "badge.json"))).toBe(false);
  });
});
