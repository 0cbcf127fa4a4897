import { describe, expect, it } from "vitest";
import { countScore } from "@hybrid-search/eval-gate/score-status";
import { NO_TIME } from "./observed.js";
import { anchorsKeptScore, queryAnchors, schemaValidScore, variantScore, type ExpansionOutput } from "./expansion.js";
import { formatLanguageMatrix, languageRecallMatrix } from "./language-matrix.js";
import { latencyBudget, latencyBudgetScore } from "./latency.js";
import { presetOrderScore, tierOrderScore } from "./tier-order.js";

const inUnit = (x: number): boolean => Number.isFinite(x) && x >= 0 && x <= 1;

describe("latencyBudgetScore", () => {
  it.each([
    [0, 1000, 1],
    [1000, 1000, 1],
    [1500, 1000, 0.5],
    [2000, 1000, 0],
    [9999, 1000, 0],
  ])("%d ms against %d ms → %d", (elapsed, budget, score) => {
    expect(latencyBudgetScore(elapsed, budget).score).toBeCloseTo(score, 12);
  });
  it("stays in [0, 1] and rejects nonsense instead of scoring it", () => {
    for (let i = 0; i < 200; i++) expect(inUnit(latencyBudgetScore(Math.random() * 1e5, 1 + Math.random() * 1e4).score)).toBe(true);
    expect(() => latencyBudgetScore(Number.NaN, 1000)).toThrow(RangeError);
    expect(() => latencyBudgetScore(10, 0)).toThrow(RangeError);
  });
  it("a call without a time (a recording that holds none) is not scored, never within budget, and says why", async () => {
    const scorer = latencyBudget<unknown, { elapsedMs: number | null }, unknown>(1000);
    const result = await scorer({ input: {}, output: { elapsedMs: null }, expected: {} } as never);
    // A status other than "scored" makes the gate count it as not scored (packages/eval-gate/src/score-status.ts).
    expect(result).toMatchObject({ score: 0, metadata: { status: "unknown", reason: NO_TIME, elapsedMs: null } });
    expect(countScore({ name: "Latency", score: result.score ?? 0, metadata: result.metadata })).toMatchObject({
      status: "unknown",
      error: NO_TIME,
    });
  });
});

describe("tierOrderScore", () => {
  it("is 1 only when thorough ≥ balanced ≥ fast and names each violation", () => {
    expect(tierOrderScore("nDCG@10", { fast: 0.5, balanced: 0.5, thorough: 0.7 }).score).toBe(1);
    const bad = tierOrderScore("nDCG@10", { fast: 0.6, balanced: 0.5, thorough: 0.4 });
    expect(bad.score).toBe(0);
    expect(bad.metadata.violations).toEqual(["balanced < fast by 0.1000", "thorough < balanced by 0.1000"]);
    expect(() => tierOrderScore("x", { fast: Number.NaN, balanced: 0, thorough: 0 })).toThrow(RangeError);
  });
});

describe("presetOrderScore", () => {
  it("is 1 only when quality ≥ balanced ≥ slim (ties count as ordered) and names each violation", () => {
    expect(presetOrderScore("expectations met", { slim: 0.4, balanced: 0.4, quality: 0.8 })).toMatchObject({
      score: 1,
      metadata: { convention: "1 when quality ≥ balanced ≥ slim, else 0" },
    });
    const bad = presetOrderScore("expectations met", { slim: 0.8, balanced: 0.6, quality: 0.7 });
    expect(bad.score).toBe(0);
    expect(bad.metadata.violations).toEqual(["balanced < slim by 0.2000"]);
  });
});

describe("languageRecallMatrix", () => {
  it("counts relevant and found documents per (query language, document language)", () => {
    const lang = (d: string) => d.split("/")[0]!;
    const m = languageRecallMatrix(
      [
        { queryLanguage: "en", ranking: ["de/a", "en/b", "fr/x"], judgments: { "de/a": 3, "fr/c": 2, "en/b": 1, "it/n": 0 } },
        { queryLanguage: "en", ranking: ["fr/c"], judgments: { "fr/c": 1 } },
      ],
      lang,
      2,
    );
    expect(m.en).toEqual({
      de: { relevant: 1, found: 1, recall: 1 },
      fr: { relevant: 2, found: 1, recall: 0.5 },
      en: { relevant: 1, found: 1, recall: 1 },
    });
    expect(formatLanguageMatrix(m, 2).split("\n")).toEqual([
      "| Recall@2: query ↓ document → | de         | en         | fr         |",
      "| ---------------------------- | ---------- | ---------- | ---------- |",
      "| en                           | 1.00 (1/1) | 1.00 (1/1) | 0.50 (1/2) |",
    ]);
  });
});

describe("expansion scorers", () => {
  const out = (expansion: ExpansionOutput["expansion"], extra: Partial<ExpansionOutput> = {}): ExpansionOutput => ({
    query: 'DEC-0054 "trash retention" policy',
    expansion,
    expander: "test",
    ...extra,
  });

  it("finds identifiers and quoted phrases", () => {
    expect(queryAnchors('DEC-0054 "trash retention" policy config.yaml E4012 v1.2.3')).toEqual([
      "trash retention",
      "DEC-0054",
      "config.yaml",
      "E4012",
      "v1.2.3",
    ]);
    expect(queryAnchors("how do I cancel")).toEqual([]);
  });

  it("scores kept anchors as a share of (anchors × queries)", () => {
    const kept = anchorsKeptScore(
      out({ lexicalQueries: ["DEC0054 trash retention", "dec 0054 trash-retention policy"], vectorQueries: ["DEC-0054 trash retention"] }),
    );
    expect(kept.score).toBe(1);
    const lost = anchorsKeptScore(out({ lexicalQueries: ["decision 54 trash"], vectorQueries: ["DEC-0054 trash retention"] }));
    expect(lost.score).toBeCloseTo(2 / 4, 12);
    expect(lost.metadata.lost).toEqual([
      '"trash retention" missing from "decision 54 trash"',
      '"DEC-0054" missing from "decision 54 trash"',
    ]);
    expect(() => anchorsKeptScore({ ...out({ lexicalQueries: ["x"], vectorQueries: ["x"] }), query: "plain words" })).toThrow(
      /no identifier or quoted phrase/,
    );
  });

  it("counts variants that differ beyond case and punctuation", () => {
    expect(variantScore(out({ lexicalQueries: ['dec-0054 "Trash Retention" policy'], vectorQueries: ["x"] }), "lexical").score).toBe(0);
    expect(variantScore(out({ lexicalQueries: ["DEC-0054 deleted files"], vectorQueries: ["x"] }), "lexical").score).toBe(1);
    expect(
      variantScore(out({ lexicalQueries: ["q"], vectorQueries: ['DEC-0054 "trash retention" policy'], hyde: "A passage." }), "vector")
        .score,
    ).toBe(1);
  });

  it("reports schema errors, including a model output the engine rejected", () => {
    const validate = (v: unknown) =>
      (v as { lexicalQueries: string[] }).lexicalQueries.length === 0
        ? [{ instancePath: "/lexicalQueries", message: "must NOT have fewer than 1 items" }]
        : [];
    expect(schemaValidScore(out({ lexicalQueries: ["a"], vectorQueries: ["b"] }), validate).score).toBe(1);
    const bad = schemaValidScore(out({ lexicalQueries: [], vectorQueries: ["b"] }), validate);
    expect(bad).toEqual({
      score: 0,
      metadata: expect.objectContaining({ valid: false, errors: ["/lexicalQueries must NOT have fewer than 1 items"] }),
    });
    const rejected = schemaValidScore(
      out({ lexicalQueries: ["q"], vectorQueries: ["q"] }, { fallback: { reason: "schema", errors: [{ instancePath: "/hyde" }] } }),
      validate,
    );
    expect(rejected.score).toBe(0);
  });

  it("an expander that failed (query ran unexpanded) is not scored on any expansion metric, never a pass", () => {
    const validate = () => [];
    const unexpanded = { lexicalQueries: ['DEC-0054 "trash retention" policy'], vectorQueries: ['DEC-0054 "trash retention" policy'] };
    const failed = out(unexpanded, { fallback: { reason: "model call failed: 500 Internal Server Error" } });
    for (const score of [
      schemaValidScore(failed, validate),
      variantScore(failed, "lexical"),
      variantScore(failed, "vector"),
      anchorsKeptScore(failed),
    ]) {
      expect(score).toEqual({
        score: 0,
        metadata: expect.objectContaining({ status: "failed", fallback: "model call failed: 500 Internal Server Error" }),
      });
    }
    // Rejected output (not JSON, or off-schema) is invalid, scored 0; keeping identifiers is then not measured.
    const rejected = out(unexpanded, {
      fallback: { reason: "model output is not JSON: Sure!", errors: [{ instancePath: "", message: "is not JSON" }] },
    });
    expect(schemaValidScore(rejected, validate)).toEqual({ score: 0, metadata: expect.objectContaining({ valid: false }) });
    expect(anchorsKeptScore(rejected)).toEqual({ score: 0, metadata: expect.objectContaining({ status: "failed" }) });
  });
});
