import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SliceAggregate } from "./aggregate.js";
import {
  checkFloors,
  describeChanges,
  emptyBaseline,
  floored,
  floorFrom,
  floorMode,
  gateFailures,
  loadBaseline,
  logChanges,
  lowerFloors,
  ratchet,
  readBaseline,
  writeBaseline,
  type Baseline,
} from "./baseline.js";

const dir = mkdtempSync(join(tmpdir(), "baseline-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function slice(evalKey: string, name: string, n: number, metrics: Record<string, number>): SliceAggregate {
  const base = !name.includes("language=") && !name.includes("category=");
  return {
    eval: evalKey,
    slice: name,
    base,
    n,
    latency: null,
    metrics: Object.entries(metrics).map(([metric, mean]) => ({ metric, n, mean, sd: 0, min: 0, max: 1, passRate: 0, notScored: {} })),
  };
}

const ctx = (reason: string) => ({ date: "2026-11-29T12:00:00.000Z", commit: "abc123", reason });
const run1 = [
  slice("Search", "all", 58, { nDCG: 0.64, MRR: 0.8 }),
  slice("Search", "language=de", 12, { nDCG: 0.45 }),
  slice("Search", "language=xx", 3, { nDCG: 0.9 }),
];

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

describe("the baseline file", () => {
  it("round-trips, with slices in a stable order (base slice first)", () => {
    const b = emptyBaseline();
    ratchet(
      b,
      "offline",
      [slice("Z eval", "category=b", 9, { m: 0.5 }), slice("Z eval", "all", 9, { m: 0.5 }), slice("A eval", "all", 9, { m: 0.5 })],
      ctx("initial"),
    );
    const path = join(dir, "baseline.json");
    writeBaseline(path, b);
    const text = readFileSync(path, "utf8");
    expect(text.indexOf('"A eval"')).toBeLessThan(text.indexOf('"Z eval"'));
    expect(text.indexOf('"all"', text.indexOf('"Z eval"'))).toBeLessThan(text.indexOf('"category=b"'));
    expect(readBaseline(path)).toEqual(JSON.parse(text));
  });

  it("a missing file is an input error unless it is to be created; a malformed one is a one-line error", () => {
    expect(readBaseline(join(dir, "none.json"), { create: true })).toEqual(emptyBaseline());
    expect(() => readBaseline(join(dir, "none.json"))).toThrow(
      `${join(dir, "none.json")}: no such baseline file (EVAL_BASELINE names the floors file); to start one there: pnpm eval --update-baseline --reason "..."`,
    );
    const bad = (name: string, content: unknown): string => {
      const path = join(dir, name);
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
      return path;
    };
    expect(() => readBaseline(bad("a.json", "{ nope"))).toThrow(/a\.json: not valid JSON \(/);
    const floors = (value: unknown) => ({ ...emptyBaseline(), floors: { offline: { Search: { nDCG: { all: value } } } } });
    expect(() => readBaseline(bad("b.json", floors(1.2)))).toThrow(
      "b.json: /floors/offline/Search/nDCG/all: must be a number in [0, 1] (got 1.2)",
    );
    expect(() => readBaseline(bad("c.json", { ...emptyBaseline(), version: 3 }))).toThrow(
      "c.json: /version: must be 2 (or 1, which is upgraded) (got 3)",
    );
    expect(() => readBaseline(bad("d.json", { ...emptyBaseline(), tolerance: { absolute: -1, perSqrtN: 0, minSliceN: 5 } }))).toThrow(
      "d.json: /tolerance/absolute: must be a number ≥ 0",
    );
    const lines = (() => {
      try {
        readBaseline(bad("e.json", floors("x")));
      } catch (error) {
        return (error as Error).message.split("\n").length;
      }
    })();
    expect(lines).toBe(1);
    // A value or a key of any size is quoted with at most 200 characters.
    const huge = "z".repeat(50_000);
    expect(() => readBaseline(bad("f.json", { ...emptyBaseline(), version: huge }))).toThrow(
      `f.json: /version: must be 2 (or 1, which is upgraded) (got "${"z".repeat(200)}"… (50000 characters))`,
    );
    expect(() => readBaseline(bad("g.json", { ...emptyBaseline(), floors: { offline: { [huge]: { m: { all: 2 } } } } }))).toThrow(
      `g.json: /floors/offline/${"z".repeat(184)}… (50022 characters): must be a number in [0, 1] (got 2)`,
    );
  });

  it("reads a version 1 file as version 2: MRR renamed MRR@10, no ceilings or cases yet, default marks; the log as it was", () => {
    const v1 = {
      version: 1,
      tolerance: { absolute: 0.01, perSqrtN: 0.1, minSliceN: 5 },
      floors: { offline: { "Search (BM25)": { MRR: { all: 0.78 }, "nDCG@10": { all: 0.61 } } } },
      log: [
        {
          date: "d",
          commit: null,
          mode: "offline",
          action: "raise",
          reason: "initial",
          changes: [{ key: "Search (BM25)|MRR|all", from: null, to: 0.78, achieved: 0.8, n: 58 }],
        },
      ],
    };
    const path = join(dir, "v1.json");
    writeFileSync(path, JSON.stringify(v1));
    const { baseline, upgradedFrom } = loadBaseline(path);
    expect(upgradedFrom).toBe(1);
    expect(baseline).toEqual({
      version: 2,
      tolerance: v1.tolerance,
      passMarks: { default: 0.5, metrics: {} },
      ceilingTolerance: { factor: 3, minMs: 2000 },
      floors: { offline: { "Search (BM25)": { "MRR@10": { all: 0.78 }, "nDCG@10": { all: 0.61 } } } },
      ceilings: {},
      cases: {},
      log: v1.log,
    });
    writeBaseline(path, baseline);
    expect(loadBaseline(path)).toEqual({ baseline, upgradedFrom: null });
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).toEqual([
      "version",
      "tolerance",
      "passMarks",
      "ceilingTolerance",
      "floors",
      "ceilings",
      "cases",
      "log",
    ]);
  });

  it("refuses a malformed ceiling, pass mark or case record with one line naming the file and field", () => {
    const bad = (name: string, over: Record<string, unknown>): string => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify({ ...emptyBaseline(), ...over }));
      return path;
    };
    expect(() => readBaseline(bad("c1.json", { ceilings: { offline: { "Search (BM25)": { all: -5 } } } }))).toThrow(
      "c1.json: /ceilings/offline/Search (BM25)/all: must be a number of milliseconds > 0 (got -5)",
    );
    expect(() => readBaseline(bad("c2.json", { ceilings: { offline: { "Search (BM25)": { all: "1s" } } } }))).toThrow(
      'c2.json: /ceilings/offline/Search (BM25)/all: must be a number of milliseconds > 0 (got "1s")',
    );
    expect(() => readBaseline(bad("c3.json", { ceilingTolerance: { factor: 0.5, minMs: 1000 } }))).toThrow(
      "c3.json: /ceilingTolerance/factor: must be a number ≥ 3: a ceiling is never below 3 × the measured p95 (got 0.5)",
    );
    expect(() => readBaseline(bad("p1.json", { passMarks: { default: 0.5, metrics: { "nDCG@10": 2 } } }))).toThrow(
      "p1.json: /passMarks/metrics/nDCG@10: must be a number from 0 to 1 (got 2)",
    );
    expect(() => readBaseline(bad("k1.json", { cases: { offline: { S: { pass: "q1", fail: [] } } } }))).toThrow(
      'k1.json: /cases/offline/S/pass: must be an array of case ids (got "q1")',
    );
  });

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
