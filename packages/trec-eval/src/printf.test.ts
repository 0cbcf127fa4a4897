import { describe, expect, it } from "vitest";
import { formatFixed, formatFixedWidth } from "./printf.js";

describe("formatFixed (C printf %.Nf)", () => {
  it("rounds exact binary ties to even, as glibc does (toFixed does not)", () => {
    expect(formatFixed(0.03125, 4)).toBe("0.0312"); // trec_eval's iprec_at_recall_0.80 line
    expect((0.03125).toFixed(4)).toBe("0.0313");
    expect(formatFixed(0.09375, 4)).toBe("0.0938");
    expect(formatFixed(0.5, 0)).toBe("0");
    expect(formatFixed(1.5, 0)).toBe("2");
    expect(formatFixed(2.5, 0)).toBe("2");
  });
  it("uses the exact binary value, not the shortest decimal", () => {
    expect(formatFixed(0.00005, 4)).toBe("0.0001"); // 5.000000000000000240e-05
    expect(formatFixed(0.00015, 4)).toBe("0.0001"); // 1.499999999999999912e-04
    expect(formatFixed(1.0005, 3)).toBe("1.000"); // 1.000499999999999945
    expect(formatFixed(2 / 3, 4)).toBe("0.6667");
  });
  it("prints signs, zero, large and special values like C", () => {
    expect(formatFixed(-412.6666666666667, 4)).toBe("-412.6667");
    expect(formatFixed(-0, 4)).toBe("-0.0000");
    expect(formatFixed(-0.00001, 4)).toBe("-0.0000");
    expect(formatFixed(0, 4)).toBe("0.0000");
    expect(formatFixed(1e21, 2)).toBe("1000000000000000000000.00");
    expect(formatFixed(5e-324, 4)).toBe("0.0000");
    expect(formatFixed(NaN, 4)).toBe("-nan");
    expect(formatFixed(Infinity, 4)).toBe("inf");
  });
  it("pads to the width (%6.4f, %3.2f)", () => {
    expect(formatFixedWidth(0.1, 6, 4)).toBe("0.1000");
    expect(formatFixedWidth(5, 3, 2)).toBe("5.00");
    expect(formatFixedWidth(Infinity, 6, 4)).toBe("   inf");
  });
});
