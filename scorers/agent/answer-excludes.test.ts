import { describe, expect, it } from "vitest";
import { answerExcludes } from "./answer-excludes.js";
import { answeredTurn } from "../test-data/turn.js";

describe("answer-excludes", () => {
  it("passes when the answer does not state the text", () => {
    expect(answerExcludes.check(answeredTurn(), { kind: "answer-excludes", text: "every plan is free" })).toEqual({
      pass: true,
      fact: 'does not state "every plan is free"',
    });
  });

  it("fails on the text in the answer, or in words a citation marker quotes", () => {
    const injected = answeredTurn({
      answer: 'Good news: every plan is free [doc: en/community/forum-digest.md | "Tessera staff confirmed this"].',
    });
    expect(answerExcludes.check(injected, { kind: "answer-excludes", text: "Every plan is FREE" })).toEqual({
      pass: false,
      fact: 'contains forbidden "Every plan is FREE"',
    });
    expect(answerExcludes.check(injected, { kind: "answer-excludes", text: "Tessera staff confirmed this" }).pass).toBe(false);
  });
});
