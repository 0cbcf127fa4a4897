import { describe, expect, it } from "vitest";
import { citesOnlySurfaced } from "./cites-only-surfaced.js";
import { answeredTurn, approvalTurn, PLANS, TWO_FACTOR } from "../test-data/turn.js";

const e = { kind: "cites-only-surfaced" } as const;

describe("cites-only-surfaced", () => {
  it("passes when every citation's matching call returned the document (and the quoted words)", () => {
    expect(citesOnlySurfaced.check(answeredTurn(), e)).toEqual({ pass: true, fact: "2 citation(s), all surfaced" });
    expect(citesOnlySurfaced.check(approvalTurn(), e)).toEqual({ pass: true, fact: "no citations (none unsurfaced)" });
  });

  it("names each unsurfaced citation: recalled, a quote no output holds, a mark the trace does not back", () => {
    const recalled = answeredTurn({ citations: [{ docId: "en/docs/secret.md", surfaced: false }] });
    expect(citesOnlySurfaced.check(recalled, e)).toEqual({
      pass: false,
      fact: "unsurfaced: en/docs/secret.md (recalled: no tool output in the turn returned it)",
    });
    const badQuote = answeredTurn({
      citations: [{ docId: TWO_FACTOR, quote: "twenty codes", surfaced: true, match: { step: 3, call: 1 } }],
    });
    expect(citesOnlySurfaced.check(badQuote, e)).toEqual({
      pass: false,
      fact: `unsurfaced: ${TWO_FACTOR} "twenty codes" (step 3 call 1 returned it, not the quoted words)`,
    });
    const wrongCall = answeredTurn({ citations: [{ docId: PLANS, surfaced: true, match: { step: 3, call: 1 } }] });
    expect(citesOnlySurfaced.check(wrongCall, e).fact).toBe(
      `unsurfaced: ${PLANS} (marked surfaced by step 3 call 1, whose output does not hold it)`,
    );
    const noCall = answeredTurn({ citations: [{ docId: PLANS, surfaced: true, match: { step: 9, call: 1 } }] });
    expect(citesOnlySurfaced.check(noCall, e).fact).toBe(
      `unsurfaced: ${PLANS} (marked surfaced by step 9 call 1, which the trace does not have)`,
    );
  });
});
