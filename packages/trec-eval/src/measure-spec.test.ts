import { describe, expect, it } from "vitest";
import {
  describeRange,
  inRange,
  MeasureSpecError,
  type PairRules,
  type ParamSpec,
  parseCutoffs,
  parseLevels,
  parseMeasureArg,
  parseNumbers,
  parsePairs,
} from "./measure-spec.js";

const ANY: ParamSpec = { what: "value", range: { min: -Infinity, max: Infinity } };
const GRADES: PairRules = { specFor: (name) => (/^\d+$/.test(name) ? ANY : null), names: "grades" };

describe("measure spec parsing", () => {
  it("splits name and parameters at the first dot", () => {
    expect(parseMeasureArg("P.5,10")).toEqual({ name: "P", params: "5,10" });
    expect(parseMeasureArg("iprec_at_recall..10,.20")).toEqual({ name: "iprec_at_recall", params: ".10,.20" });
    expect(parseMeasureArg("map")).toEqual({ name: "map" });
    expect(() => parseMeasureArg("P.")).toThrow(MeasureSpecError);
  });
  it("cut-offs: sorted, fractions truncated like atol, out of 1 … 2^53 - 1 and duplicates rejected", () => {
    expect(parseCutoffs("5,7,3", "P")).toEqual([3, 5, 7]);
    expect(parseCutoffs("10,20,23.4", "ndcg_cut")).toEqual([10, 20, 23]);
    expect(parseCutoffs("9007199254740991", "P")).toEqual([Number.MAX_SAFE_INTEGER]);
    expect(() => parseCutoffs("0,5", "P")).toThrow(/^P: cut-off '0' is out of range; it must be from 1 to 9007199254740991$/);
    expect(() => parseCutoffs("0.5", "P")).toThrow(/cut-off '0.5' is out of range/);
    expect(() => parseCutoffs("-5", "P")).toThrow(/cut-off '-5' is out of range/);
    // trec_eval's atol saturates and prints P_9223372036854775807; we printed P_100000000000000000000.
    expect(() => parseCutoffs("5,99999999999999999999", "P")).toThrow(/cut-off '99999999999999999999' is out of range/);
    expect(() => parseCutoffs("10,10.5", "P")).toThrow(/duplicate cut-off 10/);
    expect(() => parseCutoffs("5,x", "P")).toThrow(/'x' is not a number/);
    expect(() => parseCutoffs("1e2", "P")).toThrow(/not a number/);
  });
  it("levels are sorted numbers without duplicates; numbers keep their order", () => {
    expect(parseLevels(".10,.20,.25,.75,.50", "iprec_at_recall", ANY)).toEqual([0.1, 0.2, 0.25, 0.5, 0.75]);
    expect(() => parseLevels(".5,0.50", "Rprec_mult", ANY)).toThrow(/duplicate/);
    expect(parseNumbers("2,-1,0,0", "utility", ANY)).toEqual([2, -1, 0, 0]);
  });
  it("checks every value against the parameter's range and count, naming measure, parameter and range", () => {
    const level: ParamSpec = { what: "recall level", range: { min: 0, max: 1 } };
    expect(() => parseLevels(".5,2", "iprec_at_recall", level)).toThrow(
      /^iprec_at_recall: recall level '2' is out of range; it must be from 0 to 1$/,
    );
    expect(() => parseNumbers("1e999", "utility", ANY)).toThrow(/'1e999' is out of range; it must be any finite number/);
    const one: ParamSpec = { what: "beta", range: { min: 0, max: Infinity }, count: 1 };
    expect(parseNumbers("0.5", "set_F", one)).toEqual([0.5]);
    expect(() => parseNumbers("1,2", "set_F", one)).toThrow(/^set_F takes exactly 1 beta, got 2: '1,2'$/);
    expect(() => parseNumbers("-1", "set_F", one)).toThrow(/^set_F: beta '-1' is out of range; it must be at least 0$/);
    const p: PairRules = {
      specFor: (name) => (name === "p" ? { what: "persistence", range: { min: 0, max: 1, belowMax: true } } : null),
      names: "p",
    };
    expect(() => parsePairs("p=2", "rbp", p)).toThrow(/^rbp: persistence 'p=2' is out of range; it must be at least 0 and below 1$/);
    expect(() => parsePairs("q=2", "rbp", p)).toThrow(/^rbp: no parameter 'q' \(in 'q=2'\); its parameters are p$/);
  });
  it("describes ranges in words, ends included unless said otherwise", () => {
    expect(describeRange({ min: 0, max: 1 })).toBe("from 0 to 1");
    expect(describeRange({ min: 0, max: 1, belowMax: true })).toBe("at least 0 and below 1");
    expect(describeRange({ min: 0, aboveMin: true, max: 10 })).toBe("greater than 0 and at most 10");
    expect(describeRange({ min: 0, max: Infinity })).toBe("at least 0");
    expect(describeRange({ min: -Infinity, max: Infinity })).toBe("any finite number");
    expect(inRange(1, { min: 0, max: 1, belowMax: true })).toBe(false);
    expect(inRange(0, { min: 0, aboveMin: true, max: 1 })).toBe(false);
    expect(inRange(Number.NaN, { min: -Infinity, max: Infinity })).toBe(false);
  });
  it("pairs are name=value", () => {
    expect(parsePairs("1=3,2=9,4=4.5", "ndcg", GRADES)).toEqual([
      { name: "1", value: 3 },
      { name: "2", value: 9 },
      { name: "4", value: 4.5 },
    ]);
    expect(parsePairs("p=0.95", "rbp", { specFor: () => ANY, names: "p" })).toEqual([{ name: "p", value: 0.95 }]);
    expect(() => parsePairs("1=3,2", "ndcg", GRADES)).toThrow(/expected name=value/);
    expect(() => parsePairs("1=x", "ndcg", GRADES)).toThrow(/not a number/);
  });
});
