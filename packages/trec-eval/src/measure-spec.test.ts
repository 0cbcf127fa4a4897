import { describe, expect, it } from "vitest";
import { MeasureSpecError, parseCutoffs, parseLevels, parseMeasureArg, parseNumbers, parsePairs } from "./measure-spec.js";

describe("measure spec parsing", () => {
  it("splits name and parameters at the first dot", () => {
    expect(parseMeasureArg("P.5,10")).toEqual({ name: "P", params: "5,10" });
    expect(parseMeasureArg("iprec_at_recall..10,.20")).toEqual({ name: "iprec_at_recall", params: ".10,.20" });
    expect(parseMeasureArg("map")).toEqual({ name: "map" });
    expect(() => parseMeasureArg("P.")).toThrow(MeasureSpecError);
  });
  it("cut-offs: sorted, fractions truncated like atol, <= 0 and duplicates rejected", () => {
    expect(parseCutoffs("5,7,3", "P")).toEqual([3, 5, 7]);
    expect(parseCutoffs("10,20,23.4", "ndcg_cut")).toEqual([10, 20, 23]);
    expect(() => parseCutoffs("0,5", "P")).toThrow(/cut-offs must be >= 1/);
    expect(() => parseCutoffs("-5", "P")).toThrow(/>= 1/);
    expect(() => parseCutoffs("10,10.5", "P")).toThrow(/duplicate cut-off 10/);
    expect(() => parseCutoffs("5,x", "P")).toThrow(/'x' is not a number/);
    expect(() => parseCutoffs("1e2", "P")).toThrow(/not a number/);
  });
  it("levels are sorted numbers without duplicates; numbers keep their order", () => {
    expect(parseLevels(".10,.20,.25,.75,.50", "iprec_at_recall")).toEqual([0.1, 0.2, 0.25, 0.5, 0.75]);
    expect(() => parseLevels(".5,0.50", "Rprec_mult")).toThrow(/duplicate/);
    expect(parseNumbers("2,-1,0,0", "utility")).toEqual([2, -1, 0, 0]);
  });
  it("pairs are name=value", () => {
    expect(parsePairs("1=3,2=9,4=4.5", "ndcg")).toEqual([
      { name: "1", value: 3 },
      { name: "2", value: 9 },
      { name: "4", value: 4.5 },
    ]);
    expect(parsePairs("p=0.95", "rbp")).toEqual([{ name: "p", value: 0.95 }]);
    expect(() => parsePairs("1=3,2", "ndcg")).toThrow(/expected name=value/);
    expect(() => parsePairs("1=x", "ndcg")).toThrow(/not a number/);
  });
});
