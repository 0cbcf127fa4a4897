import { describe, expect, it } from "vitest";
import { answerIncludes } from "./answer-includes.js";
import { answeredTurn } from "../test-data/turn.js";

describe("answer-includes", () => {
  it("finds a fact in the answer's grading form, numbers whole, markers removed", () => {
    expect(answerIncludes.check(answeredTurn(), { kind: "answer-includes", text: "€14.99" })).toEqual({
      pass: true,
      fact: 'states "€14.99"',
    });
    expect(answerIncludes.check(answeredTurn(), { kind: "answer-includes", text: "TEN RECOVERY CODES" }).pass).toBe(true);
  });

  it("names a missing fact; a number inside a longer one, or only inside a marker's path, is missing", () => {
    expect(answerIncludes.check(answeredTurn(), { kind: "answer-includes", text: "4.99" })).toEqual({
      pass: false,
      fact: 'missing "4.99"',
    });
    expect(answerIncludes.check(answeredTurn(), { kind: "answer-includes", text: "plans-and-pricing" }).pass).toBe(false);
  });
});
