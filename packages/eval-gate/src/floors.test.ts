import { describe, expect, it } from "vitest";
import { emptyBaseline, type Baseline } from "./baseline.js";
import { checkFloors, floored, floorFrom, floorMode, gateFailures } from "./floors.js";
import { changeContext, SEARCH_SLICES, sliceOf } from "./test-data/gate.js";
import { ratchet } from "./ratchet.js";

const slice = sliceOf;
const ctx = changeContext;
const run1 = SEARCH_SLICES;

describe("floors and tolerance", () => {
  it("a floor is the achievement less 0.01 + 0.1/√n, rounded down to 4 decimals, never below 0", () => {
    const t = emptyBaseline().tolerance;
    expect(floorFrom(0.64, 58, t)).toBe(0.6168); // 0.64 − 0.01 − 0.01313 = 0.61687
    expect(floorFrom(0.45, 12, t)).toBe(0.4111); // 0.45 − 0.01 − 0.02887
    expect(floorFrom(0.02, 1, t)).toBe(0);
    expect(floorFrom(0.5, 0, t)).toBe(0.39); // n = 0 is treated as 1
  });

  it("base slices always get floors; language and category slices from n ≥ 5", () => {
    const t = emptyBaseline().tolerance;
    expect(floored({ base: true, n: 1 }, t)).toBe(true);
    expect(floored({ base: false, n: 4 }, t)).toBe(false);
    expect(floored({ base: false, n: 5 }, t)).toBe(true);
  });

  it("keys floors by mode, and by dataset off the fixtures", () => {
    expect(floorMode("offline", "fixtures")).toBe("offline");
    expect(floorMode("offline", "scifact")).toBe("offline@scifact");
  });
});

describe("the gate", () => {
  const b: Baseline = emptyBaseline();
  ratchet(b, "offline", run1, ctx("initial"));

  it("passes the same results and names what fell, by how much", () => {
    expect(gateFailures(checkFloors(b, "offline", run1, new Set(["Search"])))).toEqual([]);
    const weak = [slice("Search", "all", 58, { nDCG: 0.5, MRR: 0.8 }), slice("Search", "language=de", 12, { nDCG: 0.45 })];
    const gate = checkFloors(b, "offline", weak, new Set(["Search"]));
    expect(gateFailures(gate)).toEqual([
      {
        key: "Search|nDCG|all",
        eval: "Search",
        metric: "nDCG",
        slice: "all",
        floor: 0.6168,
        value: 0.5,
        delta: 0.5 - 0.6168,
        n: 58,
        status: "fell",
      },
    ]);
  });

  it("a floor of an eval that ran but no longer measures it is missing (a failure); of an eval that did not run, not run", () => {
    const renamed = [slice("Search", "all", 58, { "nDCG@10": 0.64, MRR: 0.8 }), slice("Search", "language=de", 12, { "nDCG@10": 0.45 })];
    const gate = checkFloors(b, "offline", renamed, new Set(["Search"]));
    expect(gateFailures(gate).map((c) => [c.key, c.status])).toEqual([
      ["Search|nDCG|all", "missing"],
      ["Search|nDCG|language=de", "missing"],
    ]);
    expect(gate.unfloored).toEqual(["Search|nDCG@10|all", "Search|nDCG@10|language=de"]);
    const filtered = checkFloors(b, "offline", [], new Set());
    expect(filtered.checks.every((c) => c.status === "not-run")).toBe(true);
    expect(gateFailures(filtered)).toEqual([]);
  });

  it("a floor of an eval the target could not run is skipped, with the reason: neither missing nor passed", () => {
    const skip = { eval: "Search", reason: "target flaky does not serve mode search" };
    const gate = checkFloors(b, "offline", [], new Set(), [skip]);
    expect(gate.checks.map((c) => [c.key, c.status, c.value, c.reason])).toEqual([
      ["Search|nDCG|all", "skipped", null, skip.reason],
      ["Search|nDCG|language=de", "skipped", null, skip.reason],
      ["Search|MRR|all", "skipped", null, skip.reason],
    ]);
    expect(gateFailures(gate)).toEqual([]);
    // Another eval's skip covers nothing here: the floors are not run, as without it.
    const other = checkFloors(b, "offline", [], new Set(), [{ eval: "Vector search", reason: "x" }]);
    expect(other.checks.every((c) => c.status === "not-run" && c.reason === undefined)).toBe(true);
  });

  it("an offline run is never judged against a model configuration's floors", () => {
    expect(checkFloors(b, "google(a,b,c)", run1, new Set(["Search"])).checks).toEqual([]);
  });
});
