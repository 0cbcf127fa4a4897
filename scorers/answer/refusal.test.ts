import { describe, expect, it } from "vitest";
import { askCase, askResult, refused, TWO_FA } from "../test-data/ask.js";
import { refusalScore } from "./index.js";

describe("refusal", () => {
  it("requires a refusal when the case expects one", () => {
    const offCorpus = askCase({ category: "off-corpus", expectedRefusal: true });
    expect(refusalScore(offCorpus, refused([])).score).toBe(1);
    const answered = refusalScore(offCorpus, askResult("Call +1 555 0100 [1].", [TWO_FA]));
    expect(answered.score).toBe(0);
    expect(answered.metadata).toMatchObject({ expected: "refuse", refused: false });
  });

  it("forbids a refusal when the case expects an answer, naming why it refused", () => {
    const c = askCase({ category: "adversarial", mustCite: [TWO_FA.docId] });
    const g = refusalScore(c, refused([TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata).toMatchObject({ expected: "answer", refused: true, refusal: "insufficient-evidence" });
    expect(refusalScore(c, askResult("Tessera does not send SMS codes [1].", [TWO_FA])).score).toBe(1);
  });
});
