/**
 * Answer correctness: how far the answer states what the case's reference answer states (a golden
 * set's `expected_answer`, `reference` or `ground_truth`: the dataset model's `referenceAnswer`),
 * and nothing that disagrees with it. Applies only to cases with a reference answer.
 *
 * - llm-judge, by statements (as ragas' factual correctness): the judge splits the answer into
 *   statements and classes each as `in-reference` (the reference states or directly implies it,
 *   TP), `contradicts-reference` or `not-in-reference` (FP), and lists what the reference states
 *   that the answer does not (FN). Score = TP / (TP + ½ (FP + FN)), the F1 of statements; every
 *   statement with its class is in the metadata (`perClaim`).
 * - heuristic: the F1 of two weighted overlaps (scorers/text/overlap.ts, `weightedOverlap`;
 *   numbers and names weigh 3): **precision**, the answer's content terms found in the reference;
 *   **recall**, the reference's found in the answer — each without the terms the question already
 *   holds, which restate it rather than answer it ("The capital of India is New Delhi" answers
 *   "capital of India?" with "New Delhi"), unless nothing else is left. A bare yes or no against a
 *   reference that starts with one is 1 when they agree and 0 when they do not; a refusal is 0.
 *
 * **When to use:** with a golden set whose reference answers were checked: it measures agreement
 * with them, so a wrong reference makes a right answer score low.
 * **When NOT to use:** as faithfulness: an answer can agree with the reference and still say more
 * than the sources (a reference written from other documents).
 */
import type { ObservedAnswer } from "../observed.js";
import { round } from "../answer/grade.js";
import type { AskCase } from "../ask-case.js";
import { DATA_RULE, escapeData } from "../judge-call.js";
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { analyzedText, answerLanguage, KEY_WEIGHT, weightedOverlap } from "../text/overlap.js";
import { yesNoAnswer } from "../text/yes-no.js";
import { singleStep, type TriadMetric, triadGrade } from "./metric.js";

type StatementClass = "in-reference" | "contradicts-reference" | "not-in-reference";

interface CorrectnessJudgment {
  reasoning: string;
  statements: Array<{ statement: string; class: StatementClass }>;
  missing: string[];
}

export const answerCorrectnessMetric: TriadMetric = {
  id: "answer-correctness",
  name: "Answer correctness",
  definition: "how far the answer states what the reference answer states, and nothing that disagrees with it",
  notApplicable: (c) => (c.referenceAnswer ? null : "the case has no reference answer"),
  readsSources: false,
  heuristic: (c, result) => {
    const reference = c.referenceAnswer ?? "";
    if (isRefused(result))
      return triadGrade(answerCorrectnessMetric, c, "heuristic", 0, {
        refused: true,
        rule: "a refusal states nothing of the reference: 0",
      });
    const mine = yesNoAnswer(result.answer);
    const theirs = yesNoAnswer(reference);
    if (mine !== null && mine.rest === "" && theirs !== null)
      return triadGrade(answerCorrectnessMetric, c, "heuristic", mine.polarity === theirs.polarity ? 1 : 0, {
        yesNo: { answer: mine.polarity, reference: theirs.polarity },
        rule: "a bare yes or no against a reference's: 1 when they agree, else 0",
      });
    const language = answerLanguage(result, c.language);
    const answer = stripCitationMarkers(result.answer);
    const except = { except: [analyzedText(result.question, c.language ?? language)] };
    const precision = weightedOverlap(answer, language, [analyzedText(reference, language)], except);
    const recall = weightedOverlap(reference, language, [analyzedText(answer, language)], except);
    const p = precision.support;
    const r = recall.support;
    const f1 = p + r === 0 ? 0 : (2 * p * r) / (p + r);
    return triadGrade(answerCorrectnessMetric, c, "heuristic", f1, {
      precision: round(p),
      recall: round(r),
      notInReference: precision.missing,
      missingFromAnswer: recall.missing,
      formula: `F1 of precision (the answer's content terms in the reference) and recall (the reference's in the answer), question terms left out; numbers and names weigh ${KEY_WEIGHT}`,
    });
  },
  judge: {
    version: 1,
    steps: [
      {
        ...singleStep<CorrectnessJudgment>({
          name: "answer_correctness",
          description: "The answer's statements against the reference answer",
          schema: {
            type: "object",
            properties: {
              reasoning: { type: "string", description: "How the answer compares with the reference answer." },
              statements: {
                type: "array",
                description: "The answer's atomic statements, each classed against the reference answer.",
                items: {
                  type: "object",
                  properties: {
                    statement: { type: "string", minLength: 1 },
                    class: { type: "string", enum: ["in-reference", "contradicts-reference", "not-in-reference"] },
                  },
                  required: ["statement", "class"],
                  additionalProperties: false,
                },
              },
              missing: {
                type: "array",
                description: "What the reference answer states that the answer does not, one statement each.",
                items: { type: "string", minLength: 1 },
              },
            },
            required: ["reasoning", "statements", "missing"],
            additionalProperties: false,
          },
          system: [
            "You grade an answer against a reference answer that is taken as correct.",
            "Split the answer into atomic statements (one fact each, pronouns resolved, numbers and names as written) and class each:",
            "in-reference = the reference states it or directly implies it;",
            "contradicts-reference = the reference states something incompatible with it;",
            "not-in-reference = the reference neither states nor contradicts it.",
            "Then list each statement of the reference that the answer does not make (missing). A bare yes or no states what the question asks, or its negation.",
            "Judge by meaning, not wording: the same fact in other words or another language is in-reference.",
            DATA_RULE,
          ].join("\n"),
        }),
        prompt: (c: AskCase, result: ObservedAnswer) =>
          [
            `<question>\n${escapeData(result.question)}\n</question>`,
            `<reference_answer>\n${escapeData(c.referenceAnswer ?? "")}\n</reference_answer>`,
            `<answer>\n${escapeData(result.answer)}\n</answer>`,
          ].join("\n\n"),
      },
    ],
    grade: (judgments, c) => {
      const { reasoning, statements, missing } = judgments[0] as CorrectnessJudgment;
      const tp = statements.filter((s) => s.class === "in-reference").length;
      const fp = statements.length - tp;
      const fn = missing.length;
      const formula =
        "TP / (TP + ½ (FP + FN)): statements in the reference / (those + half the statements not in or contradicting it and the reference's statements missing)";
      if (tp + fp + fn === 0)
        return triadGrade(answerCorrectnessMetric, c, "llm-judge", 1, {
          reasoning,
          claims: 0,
          vacuous: true,
          formula,
          note: "neither the answer nor the reference states anything the judge could compare",
        });
      return triadGrade(answerCorrectnessMetric, c, "llm-judge", tp / (tp + 0.5 * (fp + fn)), {
        reasoning,
        claims: statements.length,
        tp,
        fp,
        fn,
        perClaim: statements,
        missing,
        formula,
      });
    },
  },
};
