import { existsSync } from "node:fs";
import { Engine } from "@hybrid-search/engine";
import { describe, expect, it } from "vitest";
import { buildLaneIndex, LANES, loadLane } from "./lanes.js";

describe("lanes", () => {
  it("load as retrieval cases with their matrix cell or category", () => {
    const lexical = loadLane("lexical");
    expect(lexical.collections.map((c) => c.collection)).toEqual(["handbook", "archive"]);
    expect(lexical.cases.every((c) => c.category !== undefined && c.language === "en")).toBe(true);
    const cjk = loadLane("cjk");
    expect(new Set(cjk.cases.map((c) => c.language))).toEqual(new Set(["zh-hans", "zh-hant", "ja", "ko"]));
    expect(cjk.cases.every((c) => c.category !== undefined)).toBe(true);
  });

  it("build one temp index per lane, with every collection, removed on request", async () => {
    for (const name of LANES) {
      const lane = loadLane(name);
      const built = await buildLaneIndex(lane);
      try {
        const engine = Engine.open(built.dbPath);
        expect(engine.stats().collections).toEqual(lane.collections.map((c) => c.collection).sort());
        expect(built.fingerprint.dataset).toBe(`${name} lane`);
        engine.close();
      } finally {
        built.remove();
      }
      expect(existsSync(built.dir)).toBe(false);
    }
  });
});
