import { describe, expect, it } from "vitest";
import { perRun, runScopedMemo, trialCounter, trialHeader } from "./run-cache.js";

describe("runScopedMemo", () => {
  it("computes each key once per run and shares the promise", async () => {
    let run = "run 1";
    const once = runScopedMemo(() => run);
    let calls = 0;
    const compute = async (): Promise<number> => ++calls;
    const [a, b] = await Promise.all([once(["index", "search", "q"], compute), once(["index", "search", "q"], compute)]);
    expect([a, b, calls]).toEqual([1, 1, 1]);
    expect(await once(["index", "vsearch", "q"], compute)).toBe(2);
    // A new run (a watch-mode rerun) never reads the run before.
    run = "run 2";
    expect(await once(["index", "search", "q"], compute)).toBe(3);
  });

  it("keys on everything the call depends on, compared as JSON", async () => {
    const once = runScopedMemo(() => "run");
    let calls = 0;
    const compute = async (): Promise<number> => ++calls;
    await once([{ corpusHash: "a" }, "search", "q", { limit: 10 }], compute);
    await once([{ corpusHash: "b" }, "search", "q", { limit: 10 }], compute);
    await once([{ corpusHash: "a" }, "search", "q", { limit: 5 }], compute);
    await once([{ corpusHash: "a" }, "search", "q", { limit: 10 }], compute);
    expect(calls).toBe(3);
  });

  it("shares a failure: the same call fails the same way for every eval", async () => {
    const once = runScopedMemo(() => "run");
    let calls = 0;
    const failing = async (): Promise<never> => {
      calls++;
      throw new Error("engine refused");
    };
    await expect(once(["k"], failing)).rejects.toThrow("engine refused");
    await expect(once(["k"], failing)).rejects.toThrow("engine refused");
    expect(calls).toBe(1);
  });

  it("makes a per-run value once per run", () => {
    let run = "run 1";
    let made = 0;
    const value = perRun(
      () => ++made,
      () => run,
    );
    expect([value(), value(), made]).toEqual([1, 1, 1]);
    run = "run 2";
    expect([value(), value(), made]).toEqual([2, 2, 2]);
  });
});

describe("trialCounter", () => {
  it("numbers each case's calls from 1 within a run, and from 1 again in the next run", () => {
    let run = "run-1";
    const headers = trialCounter(() => run);
    expect([headers("a"), headers("a"), headers("b"), headers("a")]).toEqual([
      trialHeader(1),
      trialHeader(2),
      trialHeader(1),
      trialHeader(3),
    ]);
    // A watch-mode rerun asks as the first run did: trial 1 is the call the answer threads made ahead.
    run = "run-2";
    expect([headers("a"), headers("b")]).toEqual([trialHeader(1), trialHeader(1)]);
    expect(trialHeader(2)).toEqual({ "x-eval-trial": "2" });
  });
});
