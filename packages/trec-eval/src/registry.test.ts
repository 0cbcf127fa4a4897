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
  it("refuses out-of-range parameters in one line naming the measure, the parameter and the range", () => {
    // trec_eval takes all of these and prints nonsense (rbp.p=2: -3.25) or empty strings.
    const cases: Array<[string, string, RegExp]> = [
      ["rbp", "p=2", /^rbp: persistence 'p=2' is out of range; it must be at least 0 and below 1$/],
      ["rbp_resid", "p=1", /^rbp_resid: persistence 'p=1' is out of range; it must be at least 0 and below 1$/],
      ["Rprec_mult", "-1", /^Rprec_mult: multiple of R '-1' is out of range; it must be greater than 0 and at most 10000$/],
      ["iprec_at_recall", "2", /^iprec_at_recall: recall level '2' is out of range; it must be from 0 to 1$/],
      ["11pt_avg", ".5,1.5", /^11pt_avg: recall level '1.5' is out of range; it must be from 0 to 1$/],
      ["set_F", "-1", /^set_F: beta '-1' is out of range; it must be at least 0$/],
      ["relstring", "-1", /^relstring: length '-1' is out of range; it must be from 1 to 9007199254740991$/],
      ["relstring", "10,20", /^relstring takes exactly 1 length, got 2: '10,20'$/],
      ["utility", "1,2", /^utility takes exactly 4 coefficients, got 2: '1,2'$/],
      ["P", "99999999999999999999", /^P: cut-off '99999999999999999999' is out of range; it must be from 1 to 9007199254740991$/],
      ["P", "0", /^P: cut-off '0' is out of range/],
      ["ndcg", "-1=5", /^ndcg: no parameter '-1' \(in '-1=5'\); its parameters are grades from 0 to 2147483647 \(grade=gain\)$/],
      ["G", "p=0.5", /^G: no parameter 'p'/],
      ["ndcg_cut", "10,5,10", /^ndcg_cut: duplicate cut-off 10/],
    ];
    for (const [name, params, message] of cases) expect(() => resolveMeasures([{ name, params }]), `${name}.${params}`).toThrow(message);
  });
  it("accepts the edges of each range", () => {
    expect(names([{ name: "rbp", params: "p=0" }])).toEqual(["rbp_p=0"]);
    expect(names([{ name: "iprec_at_recall", params: "0,1" }])).toEqual(["iprec_at_recall_0.00", "iprec_at_recall_1.00"]);
    expect(names([{ name: "Rprec_mult", params: "10000" }])).toEqual(["Rprec_mult_10000.00"]);
    expect(names([{ name: "set_F", params: "0" }])).toEqual(["set_F_0"]);
    expect(names([{ name: "relstring", params: "1" }])).toEqual(["relstring_1"]);
    expect(names([{ name: "P", params: "9007199254740991" }])).toEqual(["P_9007199254740991"]);
    expect(names([{ name: "ndcg", params: "0=0,2147483647=-1.5" }])).toEqual(["ndcg_0=0,2147483647=-1.5"]);
  });
  it("declares a parameter spec for every measure that takes numbers, and its defaults pass it", () => {
    for (const m of MEASURES) {
      if (m.params === "levels" || m.params === "numbers") expect(m.param, m.id).toBeDefined();
      expect(() => resolveMeasures([{ name: m.id }]), m.id).not.toThrow();
    }
  });
  it("has unique ids, and every preset names registered measures", () => {
    expect(new Set(MEASURES.map((m) => m.id)).size).toBe(MEASURES.length);
    for (const ids of Object.values(PRESETS)) for (const id of ids) expect(MEASURES.some((m) => m.id === id)).toBe(true);
  });
});
