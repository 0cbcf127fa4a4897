import { describe, expect, it } from "vitest";
import { perRun, runScopedMemo } from "./run-cache.js";

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
