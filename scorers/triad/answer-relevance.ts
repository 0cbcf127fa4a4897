/**
 * Answer relevance: how directly the answer addresses the question, whether or not it is correct.
 *
 * - llm-judge: a 0–3 rating (does not address … directly and completely addresses) ÷ 3; pointing
 *   out a false premise counts as addressing the question.
 * - heuristic: the share of the question's content terms found in the answer (citation markers
 *   removed), by the token overlap of scorers/text/overlap.ts; a refusal scores 0.
 *
 * **When to use:** to catch evasive or off-topic answers.
 * **When NOT to use:** as correctness or faithfulness; it does not look at the sources' support.
 */
import { DATA_RULE } from "../judge-call.js";
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { analyzedText, answerLanguage, termOverlap } from "../text/overlap.js";
import { RATING, type TriadMetric, triadGrade } from "./metric.js";

interface RelevanceJudgment {
  reasoning: string;
  score: number;
}

export const answerRelevanceMetric: TriadMetric<RelevanceJudgment> = {
  id: "answer-relevance",
  name: "Answer relevance",
  definition: "how directly the answer addresses the question",
  readsSources: false,
  heuristic: (c, result) => {
    const formula = "question content terms found in the answer / question content terms";
    if (isRefused(result))
      return triadGrade(answerRelevanceMetric, c, "heuristic", 0, {
        refused: true,
        formula,
        rule: "a refusal does not address the question: 0",
      });
    const answer = analyzedText(stripCitationMarkers(result.answer), answerLanguage(result, c.language));
    const o = termOverlap(result.question, c.language, [answer]);
    return triadGrade(answerRelevanceMetric, c, "heuristic", o.share, { found: o.found, missing: o.missing, formula });
  },
  judge: {
    schema: {
      type: "object",
      properties: {
        reasoning: { type: "string", description: "What the question asks and how much of it the answer addresses." },
        score: RATING,
      },
      required: ["reasoning", "score"],
      additionalProperties: false,
    },
    system: [
      "You grade how directly an answer addresses the question, whether or not it is correct (correctness is graded elsewhere).",
      "0 = does not address the question (off-topic, or a refusal to answer);",
      "1 = touches the topic but does not answer what was asked;",
      "2 = answers part of the question, or buries the answer in unrelated content;",
      "3 = directly and completely addresses the question.",
      "Pointing out and correcting a false premise of the question counts as addressing it.",
      DATA_RULE,
    ].join("\n"),
    grade: ({ score, reasoning }, c) =>
      triadGrade(answerRelevanceMetric, c, "llm-judge", score / 3, { reasoning, rating: score, formula: "rating (0–3) / 3" }),
  },
};
