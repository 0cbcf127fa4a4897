import { describe, expect, it } from "vitest";
import { DEFAULT_ANALYZER, type QueryTerm } from "../text/analyze.js";
import { expandedQuery, languageMismatch, MAX_REPEATS, relevanceModel, rocchioVector } from "./feedback.js";

const term = (t: string): QueryTerm => ({ surface: t, alternatives: [[t]], kind: "word", stop: false });

describe("RM3 relevance model", () => {
  it("weighs each document's term shares by its first-pass score and leaves function words out", () => {
    const model = relevanceModel(
      [
        { text: "the trash keeps deleted files", language: "en", score: 3 },
        { text: "the trash empties itself", language: "en", score: 1 },
      ],
      DEFAULT_ANALYZER,
    );
    expect(model.has("the")).toBe(false);
    // trash: 3/4 · 1/5 + 1/4 · 1/4 (the document lengths count every token).
    expect(model.get("trash")).toBeCloseTo((3 / 4) * (1 / 5) + (1 / 4) * (1 / 4), 12);
    expect(model.get("keep")).toBeCloseTo((3 / 4) * (1 / 5), 12);
  });

  it("keeps the query's terms at weight λ/|Q| plus their model mass and adds the best feedback terms", () => {
    const model = new Map([
      ["trash", 0.4],
      ["retent", 0.3],
      ["day", 0.2],
      ["plan", 0.1],
    ]);
    const q = expandedQuery([term("trash"), term("free")], model, { docs: 10, terms: 2, originalWeight: 0.5 });
    expect(q.map((t) => [t.alternatives[0]![0], t.feedback])).toEqual([
      ["trash", false],
      ["free", false],
      ["retent", true],
      ["day", true],
    ]);
    expect(q[0]!.weight).toBeCloseTo(0.25 + 0.5 * 0.4, 12);
    expect(q[1]!.weight).toBeCloseTo(0.25, 12);
    expect(q[2]!.weight).toBeCloseTo(0.5 * 0.3, 12);
    expect(q[0]!.repeats).toBe(MAX_REPEATS);
    expect(q[3]!.repeats).toBe(1);
  });
});

describe("feedback's language gate", () => {
  it("feeds back only when the query's language is known and every feedback document is in it", () => {
    expect(languageMismatch("en", ["en", "en"])).toBeUndefined();
    expect(languageMismatch(undefined, ["en"])).toMatch(/query's language is unknown/);
    expect(languageMismatch("en", ["en", "de", undefined])).toMatch(
      /2 of the first pass's 3 top documents are not in the query's language \(en\)/,
    );
  });
});

describe("Rocchio", () => {
  it("adds β times the mean feedback vector to the unit query vector", () => {
    const v = rocchioVector(Float32Array.from([3, 4]), [Float32Array.from([1, 0]), Float32Array.from([0, 1])], 0.75);
    expect(v[0]).toBeCloseTo(0.6 + 0.375, 6);
    expect(v[1]).toBeCloseTo(0.8 + 0.375, 6);
  });

  it("is the unit query vector without feedback documents or with β 0", () => {
    expect([...rocchioVector(Float32Array.from([3, 4]), [], 0.75)]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect([...rocchioVector(Float32Array.from([3, 4]), [Float32Array.from([1, 0])], 0)]).toEqual([
      expect.closeTo(0.6, 6),
      expect.closeTo(0.8, 6),
    ]);
  });
});
