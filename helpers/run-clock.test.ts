import { describe, expect, it } from "vitest";
import { labelDurationLine } from "./run-clock.js";

describe("Evalite's Duration line", () => {
  it("becomes the run's wall time, with Evalite's figure labelled as its own", () => {
    expect(labelDurationLine("   Duration  3039ms\n", 12.43)).toBe(
      "  Wall time  12.4 s (this run, from its start)\n   Duration  3039ms (Evalite's: its longest eval case)\n",
    );
  });

  it("keeps the terminal's dim codes around the labels", () => {
    const dim = "\u001b[2m";
    const undim = "\u001b[22m";
    expect(labelDurationLine(`   ${dim}Duration${undim}  75000ms\n`, 694)).toBe(
      `  ${dim}Wall time${undim}  694.0 s (this run, from its start)\n   ${dim}Duration${undim}  75000ms (Evalite's: its longest eval case)\n`,
    );
  });

  it("leaves every other line alone", () => {
    for (const line of ["      Evals  809\n", "Duration of the export: 3 s\n", "q-001: Duration  12ms later\n"])
      expect(labelDurationLine(line, 1)).toBe(line);
  });
});
