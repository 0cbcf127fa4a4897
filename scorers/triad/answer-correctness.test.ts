import { describe, expect, it } from "vitest";
import { NotApplicableError } from "../answer/index.js";
import { askCase, askResult, CODES, refused } from "../test-data/ask.js";
import { answerCorrectnessMetric } from "./answer-correctness.js";
import { correctnessCases, triadScore } from "./index.js";

const reference = "When you turn on two-factor authentication, Tessera creates 10 recovery codes.";
const c = askCase({ referenceAnswer: reference });

describe("answer correctness, heuristic", () => {
  it("is the F1 of the answer's terms in the reference and the reference's in the answer, question terms left out", () => {
    // The answer leaves out the reference's condition ("turn on two-factor authentication"): recall 7/10.
    const right = answerCorrectnessMetric.heuristic(c, askResult("Tessera creates 10 recovery codes [1].", [CODES]));
    expect(right.metadata).toMatchObject({ precision: 1, recall: 0.7, missingFromAnswer: ["turn", "two-factor", "authentication"] });
    expect(right.score).toBeCloseTo((2 * 0.7) / 1.7, 3);
    // "10" states nothing the reference does not (precision 1) and its figure, 3 of the weight 10 the reference
    // has beyond the question (turn, two-factor, authentication, creates: 1 each; Tessera, 10: 3 each).
    const short = answerCorrectnessMetric.heuristic(c, askResult("10", [CODES]));
    expect(short.metadata).toMatchObject({ precision: 1, recall: 0.3 });
    expect(short.score).toBeCloseTo(0.6 / 1.3, 3);
    // A changed figure: the number weighs three words on both sides.
    const wrong = answerCorrectnessMetric.heuristic(c, askResult("Tessera creates 12 recovery codes.", [CODES]));
    expect(wrong.score).toBeLessThan(short.score);
    expect(wrong.metadata.notInReference).toContain("12");
    expect(answerCorrectnessMetric.heuristic(c, askResult("12", [CODES])).score).toBe(0);
  });

  it("compares a bare yes or no with the reference's, and scores a refusal 0", () => {
    const yes = askCase({ referenceAnswer: "Yes, each code works once." });
    expect(answerCorrectnessMetric.heuristic(yes, askResult("Yes.", [CODES])).score).toBe(1);
    expect(answerCorrectnessMetric.heuristic(yes, askResult("No.", [CODES])).score).toBe(0);
    expect(answerCorrectnessMetric.heuristic(c, refused([CODES])).score).toBe(0);
  });

  it("applies only to cases with a reference answer", async () => {
    await expect(triadScore("answer-correctness", askCase(), askResult("10", [CODES]))).rejects.toThrow(NotApplicableError);
    expect(correctnessCases([c, askCase({ id: "t-002" }), askCase({ id: "t-003", referenceAnswer: "x", expectedRefusal: true })])).toEqual([
      c,
    ]);
  });
});
