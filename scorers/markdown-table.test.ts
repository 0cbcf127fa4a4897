import { describe, expect, it } from "vitest";
import { markdownTable, roundForDisplay } from "./markdown-table.js";

describe("roundForDisplay", () => {
  it.each([
    [1 - 0.7, 0.3],
    [0.1 + 0.2, 0.3],
    [0.123456, 0.1235],
    [12.34567, 12.35],
    [1234.567, 1235],
    [42, 42],
    [0, 0],
  ])("%d → %d", (x, shown) => expect(roundForDisplay(x)).toBe(shown));
});

describe("markdownTable", () => {
  it("pads each column, writes absent cells as —, and keeps a pipe or a newline from breaking a row", () => {
    expect(
      markdownTable(
        ["doc", "rank"],
        [
          ["a|b", 3],
          ["line\nbreak", null],
        ],
      ).split("\n"),
    ).toEqual(["| doc        | rank |", "| ---------- | ---- |", "| a\\|b       | 3    |", "| line break | —    |"]);
  });
});
