/** The error shape: one line of at most 1000 characters on the wire; read back leniently from any body. */
import { describe, expect, it } from "vitest";
import { ERROR_MESSAGE_MAX, errorOf, errorResponse } from "./errors.js";
import { contractProblems } from "./validate.js";

describe("errorResponse", () => {
  it("keeps the first line, at most ERROR_MESSAGE_MAX characters, and fits the contract", () => {
    expect(errorResponse("BAD_REQUEST", "first line\n    at stack (x.js:1:1)")).toEqual({
      error: { code: "BAD_REQUEST", message: "first line" },
    });
    const long = errorResponse("INTERNAL", "x".repeat(5000));
    expect(long.error.message).toHaveLength(ERROR_MESSAGE_MAX);
    expect(contractProblems("ErrorResponse", long)).toEqual([]);
  });
});

describe("errorOf", () => {
  it("reads code and the message's first line; a code that is missing is empty; a body without a message is null", () => {
    expect(errorOf({ error: { code: "BUSY", message: "server busy\nmore" } })).toEqual({ code: "BUSY", message: "server busy" });
    expect(errorOf({ error: { message: "no code" } })).toEqual({ code: "", message: "no code" });
    expect(errorOf({ error: { code: 503, message: "odd code" } })).toEqual({ code: "503", message: "odd code" });
    for (const body of [undefined, null, "text", 5, {}, { error: "flat" }, { error: { code: "X" } }]) expect(errorOf(body)).toBeNull();
  });
});
