import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkBaseline, emptyBaseline, loadBaseline, readBaseline, withBaselineLock, writeAtomically, writeBaseline } from "./baseline.js";
import { BASELINE_SCHEMA_PATH, baselineCheckSource } from "./baseline-schema.js";
import { REPORT_SCHEMA_PATH, VALIDATORS_DIR } from "./report-schema.js";
import { validatorFile } from "./standalone-validators.js";
import { changeContext, sliceOf } from "./test-data/gate.js";
import { ratchet } from "./ratchet.js";

const dir = mkdtempSync(join(tmpdir(), "baseline-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const slice = sliceOf;
const ctx = changeContext;

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

  it("is checked against baseline.schema.json: the problem the innermost schema names, at the path it checks, first field first", () => {
    const check = (value: unknown): string => {
      try {
        checkBaseline(value, "b.json");
        return "fits";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const e = emptyBaseline();
    expect(check(e)).toBe("fits");
    expect(check(JSON.parse(readFileSync(join(import.meta.dirname, "../../../evals/baseline.json"), "utf8")))).toBe("fits");
    expect(check([])).toBe("b.json: top level: must be an object");
    // A missing field is told what its own schema says, at its own path.
    expect(check({ ...e, version: undefined })).toBe("b.json: /version: must be 2 (or 1, which is upgraded) (got undefined)");
    expect(check({ ...e, tolerance: { absolute: 0, minSliceN: 5 } })).toBe("b.json: /tolerance/perSqrtN: must be a number ≥ 0");
    // A value inside a list or an entry names the list or the entry, as a whole.
    expect(check({ ...e, cases: { offline: { S: { pass: ["q1", 2], fail: [] } } } })).toBe(
      'b.json: /cases/offline/S/pass: must be an array of case ids (got ["q1",2])',
    );
    expect(check({ ...e, log: [{ date: "d", reason: "r" }] })).toBe("b.json: /log/0: must have date, reason and changes");
    // Keys are shown as they are in the file (a JSON pointer's escapes undone).
    expect(check({ ...e, floors: { offline: { "a/b~c": { m: { all: 2 } } } } })).toBe(
      "b.json: /floors/offline/a/b~c/m/all: must be a number in [0, 1] (got 2)",
    );
    // Of several problems, the field the file lists first.
    expect(check({ ...e, tolerance: { absolute: -1, perSqrtN: 0, minSliceN: 5 }, cases: undefined, log: 3 })).toBe(
      "b.json: /tolerance/absolute: must be a number ≥ 0",
    );
  });

  it("is published beside the report's schema, and the build writes its check's code", () => {
    expect(BASELINE_SCHEMA_PATH).toBe(join(dirname(REPORT_SCHEMA_PATH), "baseline.schema.json"));
    expect(JSON.parse(readFileSync(BASELINE_SCHEMA_PATH, "utf8")).$id).toMatch(/\/packages\/eval-gate\/baseline\.schema\.json$/);
    // The tests run after a build (test/build-clis.ts): the check then runs the built code, not Ajv.
    expect(existsSync(join(VALIDATORS_DIR, validatorFile(baselineCheckSource())))).toBe(true);
  });
});

describe("updating the baseline: atomic, under a lock", () => {
  /** One run's update: read the file as it is, add this run's floor after a pause (another run's read could fall in it), write. */
  const update = (path: string, mode: string, pauseMs: number) =>
    withBaselineLock(
      path,
      async () => {
        const { baseline } = loadBaseline(path, { create: true });
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        baseline.floors[mode] = { E: { m: { all: 0.5 } } };
        baseline.log.push({ date: "d", commit: null, mode, action: "raise", reason: mode, changes: [] });
        writeBaseline(path, baseline);
      },
      { pollMs: 5 },
    );

  it("two updates at once both land: the second reads what the first wrote", async () => {
    const path = join(dir, "together.json");
    await Promise.all([update(path, "a", 60), update(path, "b", 0), update(path, "c", 10)]);
    const after = readBaseline(path);
    expect(Object.keys(after.floors).sort()).toEqual(["a", "b", "c"]);
    expect(after.log.map((l) => l.mode).sort()).toEqual(["a", "b", "c"]);
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith("together.json."))).toEqual([]);
  });

  it("waits for a lock held by a live process and names it when it gives up; takes over one whose process is gone", async () => {
    const path = join(dir, "held.json");
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), since: "2026-01-01T00:00:00.000Z" }));
    await expect(withBaselineLock(path, () => "ran", { waitMs: 50, pollMs: 5 })).rejects.toThrow(
      `${path}: another run (process ${process.pid} on ${hostname()}, since 2026-01-01T00:00:00.000Z) is still updating it after 0 s; wait for it to finish, or remove ${path}.lock if that process is gone`,
    );
    // A process that has exited: its pid is free.
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: Number(gone.stdout), host: hostname(), since: "2026-01-01T00:00:00.000Z" }));
    expect(await withBaselineLock(path, () => "ran", { waitMs: 50, pollMs: 5 })).toBe("ran");
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("writes through a temp file renamed over the old one: a failed write leaves the old file whole", () => {
    const path = join(dir, "atomic.json");
    writeBaseline(path, emptyBaseline());
    const before = readFileSync(path, "utf8");
    expect(() => writeBaseline(join(dir, "no-such-folder", "b.json"), emptyBaseline())).toThrow(
      /no-such-folder\/b\.json: cannot be written \(ENOENT\)$/,
    );
    writeAtomically(path, before);
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
