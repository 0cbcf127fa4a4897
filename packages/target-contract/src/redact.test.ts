/** Redaction: a credential is never quoted, however often and in whichever encoding a message holds it. */
import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, redactor, secretForms, secretProblem } from "./redact.js";

describe("redactor", () => {
  it("replaces every occurrence of each secret, and leaves out absent and empty ones", () => {
    const redact = redactor(["tok-12345", undefined, "", "session=abc"]);
    expect(redact("Bearer tok-12345 echoed: tok-12345; Cookie: session=abc")).toBe(
      "Bearer [redacted] echoed: [redacted]; Cookie: [redacted]",
    );
    expect(redact("nothing secret")).toBe("nothing secret");
    expect(redactor([])("tok-12345")).toBe("tok-12345");
  });

  it("finds a base64-style key percent-encoded in a path or a query, in either case of hex digits", () => {
    const key = "AbC+dEf/GhI=";
    const redact = redactor([key]);
    const query = new URLSearchParams({ key }).toString();
    expect(query).toBe("key=AbC%2BdEf%2FGhI%3D");
    expect(redact(`GET /v1/search?${query}: HTTP 500 (3 attempts)`)).toBe("GET /v1/search?key=[redacted]: HTTP 500 (3 attempts)");
    expect(redact(`/idx/${encodeURIComponent(key)}/q`)).toBe("/idx/[redacted]/q");
    expect(redact("?key=AbC%2bdEf%2fGhI%3d")).toBe("?key=[redacted]");
  });

  it("finds a key with spaces and quotes as a form value, JSON-escaped, and inside base64 at any alignment", () => {
    const key = 'pass "phrase" with/slash';
    const redact = redactor([key]);
    expect(redact(`body=${new URLSearchParams({ k: key }).toString()}`)).toBe("body=k=[redacted]");
    expect(redact(JSON.stringify({ echoed: key }))).toBe('{"echoed":"[redacted]"}');
    expect(redact('{"echoed":"pass \\"phrase\\" with\\/slash"}')).toBe('{"echoed":"[redacted]"}');
    for (const user of ["u", "us", "usr"]) {
      const basic = Buffer.from(`${user}:${key}`).toString("base64");
      expect(redact(`Authorization: Basic ${basic}`)).toContain("[redacted]");
      expect(redact(`Authorization: Basic ${basic}`)).not.toContain(basic.slice(8, 20));
    }
    const urlSafe = Buffer.from(key).toString("base64url");
    expect(redact(`token ${urlSafe}`)).toBe("token [redacted]");
  });

  it("leaves ordinary words alone: only the secret's forms go", () => {
    const redact = redactor(["s3cr3t-value"]);
    expect(redact("a secret value is not s3cr3t-valu")).toBe("a secret value is not s3cr3t-valu");
    expect(secretForms("s3cr3t-value")).toContain("s3cr3t-value");
  });
});

describe("secretProblem", () => {
  it("refuses a credential shorter than the minimum, in one line naming it", () => {
    expect(MIN_SECRET_LENGTH).toBe(8);
    expect(secretProblem("EVAL_TARGET_TOKEN", "a")).toBe(
      "EVAL_TARGET_TOKEN is 1 character long: a credential shorter than 8 characters would be redacted out of ordinary words in every message and report; use the real credential",
    );
    expect(secretProblem("KB_KEY", "1234567")).toMatch(/^KB_KEY is 7 characters long/);
    expect(secretProblem("KB_KEY", "12345678")).toBeNull();
  });
});
