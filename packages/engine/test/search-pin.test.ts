import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { computeSearchPin, PIN_FILE, PINNED_MODES, type SearchPin } from "../bench/search-pin.js";
import { tempDir } from "./helpers.js";

// Speed work on the write path, vectors and snippets must not move a single result: this compares
// the engine with the results pinned before it (bench/search-pin.ts writes the file).
describe("search results on the benchmark corpus are pinned", () => {
  const dir = tempDir("search-pin-");

  it("the index, and scores, order, ids and snippets of the first 200 queries in four modes, are as pinned", async () => {
    const expected = JSON.parse(readFileSync(PIN_FILE, "utf8")) as SearchPin;
    const actual = await computeSearchPin(dir);
    expect(actual.config).toEqual(expected.config);
    expect(actual.index).toEqual(expected.index);
    expect(actual.queries.map((q) => q.text)).toEqual(expected.queries.map((q) => q.text));
    const moved = actual.queries.flatMap((q, i) =>
      PINNED_MODES.filter((mode) => q[mode] !== expected.queries[i]![mode]).map((mode) => `query ${i} (${mode}): ${q.text}`),
    );
    expect(moved).toEqual([]);
  }, 300_000);
});
