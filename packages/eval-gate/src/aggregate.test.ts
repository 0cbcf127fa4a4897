import { describe, expect, it } from "vitest";
import { aggregate, caseOutcomes, sliceKeys } from "./aggregate.js";
import { caseRecords, evaliteMean, suiteRecord } from "./evalite-output.js";
import { evalRow, find, output, row, suite } from "./test-data/gate.js";
import { analyzeRun } from "./analysis.js";

describe("reading Evalite's output", () => {
  it("takes Evalite's flat mean over evals that did not throw", () => {
    const out = output([suite("A", [row({ id: "1", scores: { m: 1, n: 0.5 } }), row({ id: "2", scores: {}, error: "boom" })])]);
    expect(evaliteMean(out)).toEqual({ mean: 0.75, scores: 2 });
    expect(evaliteMean(output([]))).toEqual({ mean: null, scores: 0 });
  });

  it("groups repeated rows of one input as trials, keyed by input id", () => {
    const s = suite("A", [row({ id: "q1", scores: { m: 1 } }), row({ id: "q1", scores: { m: 0 } }), row({ id: "q2", scores: { m: 1 } })]);
    const cases = caseRecords(s);
    expect(cases.map((c) => [c.id, c.trials.length])).toEqual([
      ["q1", 2],
      ["q2", 1],
    ]);
    // Inputs without an id: a string input is its own id; other inputs are numbered.
    const plain = suite("B", [evalRow({ input: "all queries", output: 1 }), evalRow({ input: { x: 1 }, output: 1 })]);
    expect(caseRecords(plain).map((c) => c.id)).toEqual(["all queries", "#2"]);
  });

  it("names a variant's dimension: tiers, presets (inputs with a question), others", () => {
    const tier = suiteRecord(suite("T [fast]", [row({ id: "1", scores: {} })], { group: "T", name: "fast" }));
    expect(tier).toMatchObject({ eval: "T", variant: { dimension: "tier", value: "fast" } });
    const ask = suite("Ask [slim]", [evalRow({ input: { id: "a1", question: "?" }, output: {} })], {
      group: "Ask",
      name: "slim",
    });
    expect(suiteRecord(ask).variant).toEqual({ dimension: "preset", value: "slim" });
    expect(suiteRecord(suite("X [v2]", [row({ id: "1", scores: {} })], { group: "X", name: "v2" })).variant).toEqual({
      dimension: "variant",
      value: "v2",
    });
  });

  it("takes latency from the output's elapsedMs when every row has it, else Evalite's duration", () => {
    expect(suiteRecord(suite("A", [row({ id: "1", scores: {}, elapsedMs: 2 })])).latencySource).toBe("elapsedMs");
    expect(suiteRecord(suite("A", [row({ id: "1", scores: {}, elapsedMs: 2 }), row({ id: "2", scores: {} })])).latencySource).toBe(
      "duration",
    );
  });
});

describe("case outcomes", () => {
  it("passes a case when every metric is scored and ≥ 0.5; says why otherwise", () => {
    const cases = caseOutcomes(
      caseRecords(
        suite("A", [
          row({ id: "ok", scores: { r: 0.5, n: 1 } }),
          row({ id: "low", scores: { r: 0.3, n: 1 } }),
          row({ id: "nojudge", scores: { r: 1, n: { score: 1, metadata: { status: "no-judge" } } } }),
          row({ id: "threw", scores: {}, error: "engine down" }),
        ]),
      ),
    );
    expect(cases.map((c) => [c.id, c.outcome])).toEqual([
      ["ok", "pass"],
      ["low", "fail"],
      ["nojudge", "fail"],
      ["threw", "error"],
    ]);
    expect(cases[1]!.reasons).toEqual(["r 0.300 < 0.5"]);
    expect(cases[2]!.reasons).toEqual(["n not scored (no-judge)"]);
    expect(cases[2]!.metrics.find((m) => m.metric === "n")).toMatchObject({ value: 0, passed: false, notScored: { "no-judge": 1 } });
    // A case whose task threw counts 0 on every metric of its suite, as "errored".
    expect(cases[3]!.reasons).toEqual(["the task threw: Error: engine down", "r not scored (errored)", "n not scored (errored)"]);
    expect(cases[3]!.metrics.map((m) => [m.metric, m.value, m.status])).toEqual([
      ["r", 0, "errored"],
      ["n", 0, "errored"],
    ]);
  });

  it("counts an errored case on the eval's floored metrics even when no case of the suite scored", () => {
    const cases = caseOutcomes(caseRecords(suite("A", [row({ id: "1", scores: {}, error: "x" })])), () => ["nDCG@10"]);
    expect(cases[0]!.metrics).toEqual([{ metric: "nDCG@10", value: 0, status: "errored", notScored: { errored: 1 }, passed: false }]);
  });

  it("with trials: the mean per metric, its SD, each trial's outcome and whether it flipped", () => {
    const s = suite("A", [
      row({ id: "q", scores: { m: 1 } }),
      row({ id: "q", scores: { m: 0 } }),
      row({ id: "q", scores: { m: 1 } }),
      row({ id: "r", scores: { m: 1 } }),
      row({ id: "r", scores: { m: 1 } }),
      row({ id: "r", scores: { m: 1 } }),
    ]);
    const [q, r] = caseOutcomes(caseRecords(s));
    expect(q!.metrics[0]).toMatchObject({ value: 2 / 3, trials: [1, 0, 1], passed: true });
    expect(q!.metrics[0]!.sd).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(q!.trialOutcomes).toEqual(["pass", "fail", "pass"]);
    expect(q!.flipped).toBe(true);
    expect(r!.flipped).toBe(false);
    const agg = aggregate([q!, r!], () => "duration");
    // Pooled trial SD: √((1/3 + 0) / 2).
    expect(find(agg, "A", "all", "m")!.trialSd).toBeCloseTo(Math.sqrt(1 / 6), 12);
  });
});

describe("slices and aggregates", () => {
  it("slice keys: all (or the variant), then language and category within it", () => {
    expect(sliceKeys({ variant: null, language: "de", category: "keyword" })).toEqual(["all", "language=de", "category=keyword"]);
    expect(sliceKeys({ variant: { dimension: "tier", value: "fast" }, language: "de" })).toEqual(["tier=fast", "tier=fast,language=de"]);
  });

  it("means, SD, pass rate, not-scored counts and latency percentiles per eval, slice and metric", () => {
    const out = output([
      suite("Search", [
        row({ id: "1", language: "en", category: "keyword", scores: { r: 1 }, elapsedMs: 10 }),
        row({ id: "2", language: "en", category: "paraphrase", scores: { r: 0 }, elapsedMs: 20 }),
        row({
          id: "3",
          language: "de",
          category: "keyword",
          scores: { r: { score: 0.9, metadata: { status: "skipped" } } },
          elapsedMs: 30,
        }),
        row({ id: "4", language: "de", category: "keyword", scores: { r: 0.5 }, elapsedMs: 40 }),
      ]),
      suite("Tiers [fast]", [row({ id: "1", language: "en", scores: { r: 1 } })], { group: "Tiers", name: "fast" }),
      suite("Tiers [thorough]", [row({ id: "1", language: "en", scores: { r: 0 } })], { group: "Tiers", name: "thorough" }),
    ]);
    const { aggregates, ranEvals } = analyzeRun(out, () => []);
    expect([...ranEvals]).toEqual(["Search", "Tiers"]);
    expect(find(aggregates, "Search", "all", "r")).toMatchObject({
      n: 4,
      mean: 0.375,
      min: 0,
      max: 1,
      passRate: 0.5,
      notScored: { skipped: 1 },
    });
    expect(find(aggregates, "Search", "all", "r")!.sd).toBeCloseTo(0.4787, 4);
    expect(find(aggregates, "Search", "language=de", "r")).toMatchObject({ n: 2, mean: 0.25 });
    expect(find(aggregates, "Search", "category=keyword", "r")).toMatchObject({ n: 3, mean: 0.5 });
    const all = aggregates.find((a) => a.eval === "Search" && a.slice === "all")!;
    expect(all.base).toBe(true);
    expect(all.latency).toEqual({ n: 4, p50Ms: 20, p95Ms: 40, source: "elapsedMs" });
    expect(aggregates.find((a) => a.slice === "language=de")!.base).toBe(false);
    // A variant group has one base slice per variant and no "all" across tiers.
    expect(aggregates.filter((a) => a.eval === "Tiers").map((a) => a.slice)).toEqual([
      "tier=fast",
      "tier=fast,language=en",
      "tier=thorough",
      "tier=thorough,language=en",
    ]);
    expect(find(aggregates, "Tiers", "tier=thorough", "r")!.mean).toBe(0);
  });
});
