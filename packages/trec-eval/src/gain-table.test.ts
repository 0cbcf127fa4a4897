import { describe, expect, it } from "vitest";
import { gainOf, gainTable } from "./gain-table.js";

const levels = [
  { grade: 0, count: 5 },
  { grade: 1, count: 3 },
  { grade: 3, count: 1 },
];

describe("gainTable (trec_eval setup_gains)", () => {
  it("defaults every grade 0..max to gain = grade, counting judged docs", () => {
    expect(gainTable(levels)).toEqual([
      { grade: 0, gain: 0, count: 5 },
      { grade: 1, gain: 1, count: 3 },
      { grade: 2, gain: 2, count: 0 },
      { grade: 3, gain: 3, count: 1 },
    ]);
  });
  it("applies grade=gain pairs, ignores non-integer names, sorts by gain", () => {
    const t = gainTable(levels, [
      { name: "1", value: 3 },
      { name: "3", value: 2 },
      { name: "p", value: 0.95 },
    ]);
    expect(t.map((e) => [e.grade, e.gain])).toEqual([
      [0, 0],
      [3, 2],
      [2, 2],
      [1, 3],
    ]);
    expect(gainOf(t, 1)).toBe(3);
    expect(gainOf(t, 7)).toBe(0);
  });
  it("compares gains truncated to integers, as trec_eval's comparator does", () => {
    // 4.5 vs 4: (int)(0.5) == 0, so the merge keeps input order: level 4 (4.5) before level 5 (4).
    const t = gainTable(
      [{ grade: 5, count: 1 }],
      [
        { name: "4", value: 4.5 },
        { name: "5", value: 4 },
      ],
    );
    expect(t.slice(-2).map((e) => e.gain)).toEqual([4.5, 4]);
  });
});
