/** The Limiter: never more than `concurrency` at once, at most `maxQueued` waiting, beyond both `Busy` at once; a failure frees its slot. */
import { describe, expect, it } from "vitest";
import { Busy, Limiter } from "./limiter.js";

/** A call that runs until `finish` is called. */
function gate(): { promise: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const promise = new Promise<void>((resolve) => (finish = resolve));
  return { promise, finish };
}

describe("Limiter", () => {
  it("runs at most `concurrency` calls at once, queues up to `maxQueued`, refuses beyond both", async () => {
    const limiter = new Limiter(2, 1);
    let running = 0;
    let most = 0;
    const gates = [gate(), gate(), gate()];
    const calls = gates.map((g) =>
      limiter.run(async () => {
        running++;
        most = Math.max(most, running);
        await g.promise;
        running--;
      }),
    );
    expect(limiter.load).toBe(3);
    await expect(limiter.run(async () => "never")).rejects.toThrow(Busy);
    await expect(limiter.run(async () => "never")).rejects.toThrow("2 requests running and 1 queued");
    for (const g of gates) g.finish();
    await Promise.all(calls);
    expect(most).toBe(2);
    expect(limiter.load).toBe(0);
  });

  it("frees the slot of a call that fails, and passes its error on", async () => {
    const limiter = new Limiter(1, 0);
    await expect(limiter.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limiter.run(async () => "next")).resolves.toBe("next");
  });
});
