import { describe, expect, it } from "vitest";
import { cites } from "./cites.js";
import { answeredTurn, PLANS, TWO_FACTOR } from "../test-data/turn.js";

describe("cites", () => {
  it("passes when the document is cited and surfaced", () => {
    expect(cites.check(answeredTurn(), { kind: "cites", doc: TWO_FACTOR })).toEqual({ pass: true, fact: `cites ${TWO_FACTOR} (surfaced)` });
  });

  it("counts only surfaced citations: a recalled citation of the right document fails", () => {
    expect(cites.check(answeredTurn(), { kind: "cites", doc: "en/billing/storage-add-ons.md" })).toEqual({
      pass: false,
      fact: "not cited: en/billing/storage-add-ons.md",
    });
    const recalled = answeredTurn({ citations: [{ docId: PLANS, surfaced: false }] });
    expect(cites.check(recalled, { kind: "cites", doc: PLANS })).toEqual({
      pass: false,
      fact: `cited but unsurfaced: ${PLANS} (recalled: no tool output in the turn returned it)`,
    });
  });
});
