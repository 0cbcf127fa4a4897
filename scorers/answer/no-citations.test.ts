import { describe, expect, it } from "vitest";
import { askCase, askResult, REFUSAL, refused, TWO_FA } from "../test-data/ask.js";
import { noCitationsScore } from "./index.js";

describe("no-citations (iff refused)", () => {
  const c = askCase();
  it.each([
    ["a refusal without citations", refused([TWO_FA]), 1],
    [
      "a refusal with a citation",
      refused([TWO_FA], { answer: `${REFUSAL} [1]`, citations: [{ ref: 1, docId: TWO_FA.docId, passageId: TWO_FA.passageId }] }),
      0,
    ],
    ["a refusal with an invalid citation", refused([TWO_FA], { invalidCitations: [4] }), 0],
    ["an answer with a citation", askResult("10 codes [1].", [TWO_FA]), 1],
    ["an answer without citations", askResult("10 codes.", [TWO_FA]), 0],
    ["an answer with only an invalid citation", askResult("10 codes [9].", [TWO_FA]), 0],
  ] as const)("%s → %d", (_, result, score) => {
    const g = noCitationsScore(c, result);
    expect(g.score).toBe(score);
    expect(g.metadata.rule).toBe(result.refused ? "a refusal must carry no citation" : "an answer must carry at least one valid citation");
  });
});
