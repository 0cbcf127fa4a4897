/** A reply nested thousands of levels deep is cut, not a stack overflow: in the copy, in a clone, in JSON, in the trace view. */
import { describe, expect, it } from "vitest";
import { inline, outputView } from "../trace-view.js";
import { CUT, cutDeep, MAX_DEPTH, nestsWithin } from "./depth.js";

const nested = (depth: number, make: (inner: unknown) => unknown): unknown => {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = make(v);
  return v;
};

describe("cutDeep", () => {
  it("keeps a value within the limit as it is (the same object)", () => {
    const value = { a: [1, { b: "c" }], d: null };
    expect(cutDeep(value)).toBe(value);
    expect(nestsWithin(nested(MAX_DEPTH, (v) => ({ v })))).toBe(true);
    expect(nestsWithin(nested(MAX_DEPTH + 1, (v) => ({ v })))).toBe(false);
  });

  it("cuts a value nested 5,000 deep at the limit, keeping key order and data keys such as __proto__", () => {
    for (const make of [(v: unknown) => ({ first: 1, v, last: 2 }), (v: unknown) => [v, "x"]]) {
      const cut = cutDeep(nested(100_000, make));
      expect(() => JSON.stringify(cut)).not.toThrow();
      expect(() => structuredClone(cut)).not.toThrow();
      expect(JSON.stringify(cut)).toContain(JSON.stringify(CUT));
      expect(nestsWithin(cut, MAX_DEPTH + 1)).toBe(true);
    }
    expect(Object.keys(cutDeep(nested(40, (v) => ({ first: 1, v, last: 2 }))) as object)).toEqual(["first", "v", "last"]);
    const data = JSON.parse(`{"__proto__": ${JSON.stringify(nested(40, (v) => ({ v })))}}`) as object;
    const cut = cutDeep(data) as Record<string, unknown>;
    expect(Object.hasOwn(cut, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(cut)).toBe(Object.prototype);
  });
});

describe("the trace view", () => {
  it("writes any depth on one line, deep levels as …", () => {
    expect(() => outputView(nested(100_000, (v) => ({ a: v })))).not.toThrow();
    expect(() => outputView(nested(100_000, (v) => [v]))).not.toThrow();
    expect(inline(nested(20, (v) => ({ a: v })))).toBe("a a a a a a a a …");
  });
});
