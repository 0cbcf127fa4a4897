import { describe, expect, it } from "vitest";
import { MEASURES, PRESETS, resolveMeasures } from "./registry.js";

const names = (requests: Parameters<typeof resolveMeasures>[0]) => resolveMeasures(requests).flatMap((i) => i.names);

describe("measure registry", () => {
  it("uses trec_eval's official set by default, in print order", () => {
    expect(resolveMeasures([]).map((i) => i.measure.id)).toEqual(PRESETS.official);
  });
  it("prints in registry order whatever the -m order", () => {
    expect(names([{ name: "P", params: "5" }, { name: "map" }])).toEqual(["map", "P_5"]);
  });
  it("names parameterised outputs as trec_eval does", () => {
    expect(names([{ name: "iprec_at_recall", params: ".1,.25" }])).toEqual(["iprec_at_recall_0.10", "iprec_at_recall_0.25"]);
    expect(names([{ name: "Rprec_mult", params: "5.0,0.2" }])).toEqual(["Rprec_mult_0.20", "Rprec_mult_5.00"]);
    expect(names([{ name: "ndcg", params: "1=3,2=9" }])).toEqual(["ndcg_1=3,2=9"]);
    expect(names([{ name: "utility", params: "2,-1,0,0" }])).toEqual(["utility_2,-1,0,0"]);
    expect(names([{ name: "relstring" }])).toEqual(["relstring"]);
    expect(names([{ name: "ndcg_cut", params: "10,23.4" }])).toEqual(["ndcg_cut_10", "ndcg_cut_23"]);
  });
  it("lets the first parameters given for a measure win, and presets include it", () => {
    expect(
      names([
        { name: "P", params: "5" },
        { name: "P", params: "10" },
      ]),
    ).toEqual(["P_5"]);
    expect(names([{ name: "all_trec" }, { name: "relstring", params: "20" }])).toContain("relstring_20");
  });
  it("rejects unknown and unsupported measures with the supported list", () => {
    expect(() => resolveMeasures([{ name: "mrr" }])).toThrow(/unsupported measure 'mrr' \(unknown measure\); supported: runid, num_q/);
    expect(() => resolveMeasures([{ name: "prefs_simp" }])).toThrow(/preference/);
    expect(() => resolveMeasures([{ name: "map", params: "5" }])).toThrow(/takes no parameters/);
    expect(() => resolveMeasures([{ name: "utility", params: "1,2" }])).toThrow(/exactly 4/);
  });
  it("has unique ids, and every preset names registered measures", () => {
    expect(new Set(MEASURES.map((m) => m.id)).size).toBe(MEASURES.length);
    for (const ids of Object.values(PRESETS)) for (const id of ids) expect(MEASURES.some((m) => m.id === id)).toBe(true);
  });
});
