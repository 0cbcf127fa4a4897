/** Redaction: a credential is never quoted, however often a message holds it. */
import { describe, expect, it } from "vitest";
import { redactor } from "./redact.js";

describe("redactor", () => {
  it("replaces every occurrence of each secret, and leaves out absent and empty ones", () => {
    const redact = redactor(["tok-123", undefined, "", "session=abc"]);
    expect(redact("Bearer tok-123 echoed: tok-123; Cookie: session=abc")).toBe("Bearer [redacted] echoed: [redacted]; Cookie: [redacted]");
    expect(redact("nothing secret")).toBe("nothing secret");
    expect(redactor([])("tok-123")).toBe("tok-123");
  });
});
