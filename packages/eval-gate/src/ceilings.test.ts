import { describe, expect, it } from "vitest";
import type { SliceAggregate } from "./aggregate.js";
import { ceilingFrom, checkCeilings, type Ceilings, loosenCeilings, tightenCeilings, unceiled } from "./ceilings.js";

const T = { factor: 3, minMs: 1000 };
const slice = (evalKey: string, p95Ms: number, source: "elapsedMs" | "duration" = "elapsedMs", s = "all"): SliceAggregate => ({
  eval: evalKey,
  slice: s,
  base: true,
  n: 30,
  latency: { n: 30, p50Ms: p95Ms / 2, p95Ms, source },
  metrics: [],
});

describe("latency ceilings", () => {
  it("earns max(3 × p95, 1000 ms), rounded up", () => {
    expect(ceilingFrom(9.1, T)).toBe(1000);
    expect(ceilingFrom(2500.2, T)).toBe(7501);
  });

  it("a run whose p95 is above its ceiling fails it; a ceiling of an eval that ran without latency is missing", () => {
    const ceilings: Ceilings = { Ask: { "preset=quality": 1000 }, Search: { all: 1000 }, Other: { all: 1000 } };
    const checks = checkCeilings(
      ceilings,
      [slice("Ask", 1800, "elapsedMs", "preset=quality"), slice("Search", 9)],
      new Set(["Ask", "Search"]),
    );
    expect(checks.map((c) => [c.key, c.status, c.p95Ms])).toEqual([
      ["Ask|p95 ms|preset=quality", "exceeded", 1800],
      ["Search|p95 ms|all", "pass", 9],
      ["Other|p95 ms|all", "not-run", null],
    ]);
    const none = checkCeilings({ Search: { all: 1000 } }, [{ ...slice("Search", 1), latency: null }], new Set(["Search"]));
    expect(none[0]!.status).toBe("missing");
  });

  it("a ceiling of an eval (or variant) the target could not run is skipped, with the reason; the other variants are checked", () => {
    const skip = { eval: "Ask", variant: "quality", reason: "target flaky does not answer questions" };
    const checks = checkCeilings(
      { Ask: { "preset=quality": 1000, "preset=slim": 1000 } },
      [slice("Ask", 500, "elapsedMs", "preset=slim")],
      new Set(["Ask"]),
      [skip],
    );
    expect(checks.map((c) => [c.key, c.status, c.reason])).toEqual([
      ["Ask|p95 ms|preset=quality", "skipped", skip.reason],
      ["Ask|p95 ms|preset=slim", "pass", undefined],
    ]);
  });

  it("--update-baseline adds and tightens only down to what the run earns (never below 3 × p95); engine-timed slices only", () => {
    const ceilings: Ceilings = { Ask: { all: 30_000 }, Slow: { all: 1000 } };
    const changes = tightenCeilings(
      ceilings,
      [slice("Ask", 2000), slice("Slow", 900), slice("New", 5), slice("Harness", 5, "duration")],
      T,
    );
    expect(changes).toEqual([
      { key: "Ask|p95 ms|all", from: 30_000, to: 6000, achieved: 2000, n: 30 },
      { key: "New|p95 ms|all", from: null, to: 1000, achieved: 5, n: 30 },
    ]);
    // Slow's p95 (900 ms) earns 2700 ms: more than its ceiling, so it is not loosened by the update.
    expect(ceilings).toEqual({ Ask: { all: 6000 }, Slow: { all: 1000 }, New: { all: 1000 } });
    expect(unceiled({}, [slice("Ask", 1), slice("Harness", 1, "duration")])).toEqual(["Ask|p95 ms|all"]);
  });

  it("--lower-floor loosens a matched ceiling to what the run earns, and removes one no longer measured", () => {
    const ceilings: Ceilings = { Slow: { all: 1000 }, Gone: { all: 1000 } };
    const changes = loosenCeilings(
      ceilings,
      [
        ["Slow", "all", 1000],
        ["Gone", "all", 1000],
      ],
      [slice("Slow", 900)],
      T,
    );
    expect(changes.map((c) => [c.key, c.from, c.to])).toEqual([
      ["Slow|p95 ms|all", 1000, 2700],
      ["Gone|p95 ms|all", 1000, null],
    ]);
    expect(ceilings).toEqual({ Slow: { all: 2700 } });
  });
});
