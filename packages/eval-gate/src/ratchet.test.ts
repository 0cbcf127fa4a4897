import { describe, expect, it } from "vitest";
import { emptyBaseline } from "./baseline.js";
import { checkFloors, gateFailures } from "./floors.js";
import { changeContext, SEARCH_SLICES, sliceOf } from "./test-data/gate.js";
import { describeChanges, logChanges, lowerFloors, ratchet } from "./ratchet.js";

const slice = sliceOf;
const ctx = changeContext;
const run1 = SEARCH_SLICES;

describe("ratchet", () => {
  it("adds floors for new measurements, logs them, and leaves small slices unfloored", () => {
    const b = emptyBaseline();
    const changes = ratchet(b, "offline", run1, ctx("initial floors"));
    expect(b.floors.offline).toEqual({ Search: { nDCG: { all: 0.6168, "language=de": 0.4111 }, MRR: { all: 0.7768 } } });
    expect(changes.map((c) => [c.key, c.from, c.to])).toEqual([
      ["Search|nDCG|all", null, 0.6168],
      ["Search|MRR|all", null, 0.7768],
      ["Search|nDCG|language=de", null, 0.4111],
    ]);
    expect(b.log).toEqual([
      { date: "2026-11-29T12:00:00.000Z", commit: "abc123", mode: "offline", action: "raise", reason: "initial floors", changes },
    ]);
    ratchet(b, "offline", [slice("Search", "all", 58, { nDCG: 0.9 })], { ...ctx("uncommitted tuning"), dirty: true });
    expect(b.log[1]).toMatchObject({ commit: "abc123", dirty: true, reason: "uncommitted tuning" });
  });

  it("writes no floor of 0 (it could never fail) and does not list such a measurement as unfloored", () => {
    const b = emptyBaseline();
    const zero = [slice("Tier order", "all", 1, { ordered: 0 }), slice("Search", "all", 58, { nDCG: 0.64 })];
    const changes = ratchet(b, "offline", zero, ctx("initial"));
    expect(changes.map((c) => c.key)).toEqual(["Search|nDCG|all"]);
    expect(b.floors.offline?.["Tier order"]).toBeUndefined();
    expect(checkFloors(b, "offline", zero, new Set(["Tier order", "Search"])).unfloored).toEqual([]);
  });

  it("raises floors to a better run and never lowers one for a worse run", () => {
    const b = emptyBaseline();
    ratchet(b, "offline", run1, ctx("initial"));
    const better = [slice("Search", "all", 58, { nDCG: 0.7, MRR: 0.8 })];
    const raised = ratchet(b, "offline", better, ctx("ranking fix"));
    expect(raised).toEqual([{ key: "Search|nDCG|all", from: 0.6168, to: 0.6768, achieved: 0.7, n: 58 }]);
    const worse = [slice("Search", "all", 58, { nDCG: 0.3, MRR: 0.1 }), slice("Search", "language=de", 12, { nDCG: 0.1 })];
    expect(ratchet(b, "offline", worse, ctx("should not lower"))).toEqual([]);
    expect(b.floors.offline!.Search!.nDCG).toEqual({ all: 0.6768, "language=de": 0.4111 });
    expect(b.log.map((l) => l.reason)).toEqual(["initial", "ranking fix"]);
  });

  it("keeps modes apart: a model configuration's floors never touch offline's", () => {
    const b = emptyBaseline();
    ratchet(b, "offline", run1, ctx("offline"));
    ratchet(b, "google(a,b,c)", [slice("Search", "all", 58, { nDCG: 0.9 })], ctx("model"));
    expect(b.floors.offline!.Search!.nDCG!.all).toBe(0.6168);
    expect(b.floors["google(a,b,c)"]!.Search!.nDCG!.all).toBe(0.8768);
  });
});

describe("lowering a floor: explicit, with a reason, logged", () => {
  it("lowers the matched floors to this run's achievement less the tolerance", () => {
    const b = emptyBaseline();
    ratchet(b, "offline", run1, ctx("initial"));
    const weak = [slice("Search", "all", 58, { nDCG: 0.5, MRR: 0.9 }), slice("Search", "language=de", 12, { nDCG: 0.3 })];
    const changes = lowerFloors(b, "offline", ["Search|nDCG"], weak, new Set(["Search"]), ctx("new tokenizer trades nDCG for recall"));
    expect(changes.map((c) => [c.key, c.from, c.to])).toEqual([
      ["Search|nDCG|all", 0.6168, 0.4768],
      ["Search|nDCG|language=de", 0.4111, 0.2611],
    ]);
    expect(b.floors.offline!.Search!.MRR!.all).toBe(0.7768); // not matched, not raised either
    expect(b.log.at(-1)).toMatchObject({ action: "lower", reason: "new tokenizer trades nDCG for recall" });
    expect(gateFailures(checkFloors(b, "offline", weak, new Set(["Search"])))).toEqual([]);
  });

  it("removes matched floors the run no longer measures; refuses patterns that match nothing or did not run", () => {
    const b = emptyBaseline();
    ratchet(b, "offline", run1, ctx("initial"));
    const renamed = [slice("Search", "all", 58, { MRR: 0.8 })];
    const changes = lowerFloors(b, "offline", ["Search|nDCG|*"], renamed, new Set(["Search"]), ctx("metric renamed"));
    expect(changes.map((c) => [c.key, c.to])).toEqual([
      ["Search|nDCG|all", null],
      ["Search|nDCG|language=de", null],
    ]);
    expect(b.floors.offline!.Search).toEqual({ MRR: { all: 0.7768 } });
    expect(() => lowerFloors(b, "offline", ["Nope|x"], renamed, new Set(["Search"]), ctx("r"))).toThrow(
      '--lower-floor "Nope|x": no offline floor or ceiling matches (keys are eval|metric|slice; a ceiling\'s metric is "p95 ms")',
    );
    expect(() => lowerFloors(b, "offline", ["Search"], [], new Set(), ctx("r"))).toThrow(
      "this run did not measure Search; run its eval file to lower its floors",
    );
  });
});

describe("the log and the printed changes", () => {
  it("one run's changes are one log entry: floors, ceilings and cases together", () => {
    const b = emptyBaseline();
    const timed = { ...slice("S", "all", 9, { m: 0.5 }), latency: { n: 9, p50Ms: 2, p95Ms: 5, source: "elapsedMs" as const } };
    const changes = ratchet(b, "offline", [timed], ctx("first"));
    expect(changes.map((c) => c.key)).toEqual(["S|m|all", "S|p95 ms|all"]);
    expect(b.ceilings.offline).toEqual({ S: { all: 2000 } });
    logChanges(b, "offline", "raise", { cases: [{ key: "S|q1", from: null, to: "pass" }] }, ctx("first"));
    expect(b.log).toHaveLength(1);
    expect(b.log[0]).toMatchObject({ reason: "first", changes: [{ key: "S|m|all" }, { key: "S|p95 ms|all" }], cases: [{ key: "S|q1" }] });
    // Lowering matches ceilings by the metric "p95 ms": a run with a slower p95 loosens it.
    const slower = { ...timed, latency: { ...timed.latency, p95Ms: 900 } };
    expect(lowerFloors(b, "offline", ["S|p95 ms"], [slower], new Set(["S"]), ctx("slower"))).toEqual([
      { key: "S|p95 ms|all", from: 2000, to: 2700, achieved: 900, n: 9 },
    ]);
  });

  it("counts and prints floor and ceiling changes apart: a ceiling is not a floor, and its numbers are milliseconds", () => {
    const b = emptyBaseline();
    const timed = (p95Ms: number) => ({
      ...slice("S", "all", 9, { m: 0.5 }),
      latency: { n: 9, p50Ms: 2, p95Ms, source: "elapsedMs" as const },
    });
    const first = describeChanges(ratchet(b, "offline", [timed(5), { ...timed(5), eval: "T" }], ctx("first")));
    expect(first.summary).toBe("2 floor(s) added, 0 raised, 0 lowered, 0 removed; 2 ceiling(s) added, 0 tightened, 0 loosened, 0 removed");
    expect(first.lines).toEqual([
      "S|m|all new → 0.4566 (achieved 0.5000, n=9)",
      "T|m|all new → 0.4566 (achieved 0.5000, n=9)",
      "S|p95 ms|all new → 2000 ms (p95 5.0 ms, n=9)",
      "T|p95 ms|all new → 2000 ms (p95 5.0 ms, n=9)",
    ]);
    b.ceilings.offline!.S!.all = 9000; // a looser ceiling than this run earns: the next run tightens it
    const slower = lowerFloors(b, "offline", ["T|p95 ms"], [{ ...timed(900), eval: "T" }], new Set(["S", "T"]), ctx("slower"));
    const tightened = ratchet(b, "offline", [{ ...slice("S", "all", 9, { m: 0.9 }), latency: timed(1000).latency }], ctx("faster"));
    const next = describeChanges([...slower, ...tightened]);
    expect(next.summary).toBe("0 floor(s) added, 1 raised, 0 lowered, 0 removed; 0 ceiling(s) added, 1 tightened, 1 loosened, 0 removed");
    expect(next.lines).toEqual([
      "T|p95 ms|all 2000 ms → 2700 ms (p95 900.0 ms, n=9)",
      "S|m|all 0.4566 → 0.8566 (achieved 0.9000, n=9)",
      "S|p95 ms|all 9000 ms → 3000 ms (p95 1000.0 ms, n=9)",
    ]);
  });

  it("a mode may declare its own tolerance", () => {
    const b = { ...emptyBaseline(), modeTolerance: { model: { perSqrtN: 0.5 } } };
    ratchet(b, "model", [slice("S", "all", 25, { m: 0.8 })], ctx("model floors"));
    expect(b.floors.model!.S!.m!.all).toBe(0.69); // 0.8 − 0.01 − 0.5/5
  });
});
