/**
 * Bounded cost for every query a user can type: for each tier and input shape,
 * the 100,000-character input costs no more than ~linearly more than the 10,000-character one,
 * both measured in the same test. A quadratic step (the thorough tier's decompounding once
 * analyzed every split of a 10,000-character word: 28–69 s) fails it. No absolute time limit: a
 * test's pass must not depend on how busy the machine is (a loaded 2-core machine took
 * 1.8 s for a 10,000-character fast query); the tiers' latency budgets are the thoroughness
 * eval's to report.
 */
import { describe, expect, it } from "vitest";
import type { Tier } from "../src/index.js";
import { smallCorpusEngine } from "./helpers.js";

/** Inputs of `n` characters, each shape aimed at one step that could grow faster than linearly. */
const SHAPES: Record<string, (n: number) => string> = {
  "one lower-case word": (n) => "x".repeat(n),
  "one word that could be a compound": (n) => "kündigungsfrist".repeat(Math.ceil(n / 15)).slice(0, n),
  "one upper-case word": (n) => "A".repeat(n),
  "camelCase humps": (n) => "aB".repeat(n / 2),
  "one long identifier": (n) => "a-1".repeat(Math.ceil(n / 3)).slice(0, n),
  digits: (n) => "7".repeat(n),
  "quoted words": (n) => '"ab" '.repeat(n / 5),
  "distinct words": (n) => Array.from({ length: n / 8 }, (_, i) => `w${i.toString(36).padStart(6, "0")}`).join(" "),
  "one CJK run": (n) => "取消订阅同步客户端".repeat(Math.ceil(n / 9)).slice(0, n),
  "connector soup": (n) => "-_.".repeat(Math.ceil(n / 3)).slice(0, n),
};

const setup = smallCorpusEngine();

async function timed(tier: Tier, query: string): Promise<number> {
  const started = performance.now();
  const r = await setup.engine.query(query, { tier, limit: 10 });
  expect(r.results.length).toBeLessThanOrEqual(10);
  return performance.now() - started;
}

describe("query cost grows at most linearly with query length", () => {
  for (const tier of ["fast", "balanced", "thorough"] as const) {
    it.each(Object.entries(SHAPES))(`${tier}: %s`, async (_shape, make) => {
      await timed(tier, "warm up"); // loads the catalog, vectors and term list once
      const short = await timed(tier, make(10_000));
      const long = await timed(tier, make(100_000));
      // Ten times the input may cost ten times as much, and noise; quadratic would be a hundred.
      expect(long, `100,000 characters took ${long.toFixed(0)} ms, 10,000 took ${short.toFixed(0)} ms`).toBeLessThan(
        Math.max(30 * short, 300),
      );
    });
  }
});
