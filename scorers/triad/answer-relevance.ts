/**
 * Answer relevance: how directly the answer addresses the question, whether or not it is correct.
 *
 * - llm-judge: a 0–3 rating (does not address … directly and completely addresses) ÷ 3; pointing
 *   out a false premise counts as addressing the question.
 * - heuristic: the larger of two shares of the question's content terms (citation markers removed,
 *   token overlap of scorers/text/overlap.ts):
 *   - **in the answer**: the question's terms the answer repeats;
 *   - **beside a short answer in the sources**: for an answer of at most `SHORT_ANSWER_TERMS` (4)
 *     content terms ("Delhi", "10 codes", "7 jours"), the question's terms found in a source
 *     sentence that holds every term of the answer — the sources put the answer where the question
 *     points, so a short correct answer is not scored 0 for sharing no word with the question.
 *   A bare yes or no (text/yes-no.ts) scores 1 to a question that asks for one and 0 to any other;
 *   a refusal scores 0.
 *
 * **When to use:** to catch evasive or off-topic answers.
 * **When NOT to use:** as correctness or faithfulness; it does not look at the sources' support
 * (the short-answer rule only uses them to link answer and question).
 */
import type { ObservedAnswer } from "../observed.js";
import type { AskCase } from "../ask-case.js";
import { round } from "../answer/grade.js";
import { DATA_RULE } from "../judge-call.js";
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { analyzedText, answerLanguage, termOverlap } from "../text/overlap.js";
import { isYesNoQuestion, yesNoAnswer } from "../text/yes-no.js";
import { RATING, singleStep, type TriadMetric, triadGrade } from "./metric.js";

/** Content terms up to which an answer is short: linked to the question through the sources. */
export const SHORT_ANSWER_TERMS = 4;

interface RelevanceJudgment {
  reasoning: string;
  score: number;
}

const SENTENCES = /(?<=[.!?。！？])\s+|\n+/u;

/** The best share of the question's terms in a source sentence that holds every term of a short answer (module comment). */
function besideInSources(answer: string, result: ObservedAnswer, language: string | undefined): { share: number; sentence: string } | null {
  let best: { share: number; sentence: string } | null = null;
  for (const s of result.sources ?? [])
    for (const sentence of `${s.heading}\n${s.text}`.split(SENTENCES)) {
      if (sentence.trim() === "") continue;
      const evidence = analyzedText(sentence, s.language ?? language);
      if (termOverlap(answer, language, [evidence]).share < 1) continue;
      const share = termOverlap(result.question, language, [evidence]).share;
      if (best === null || share > best.share) best = { share, sentence: sentence.trim() };
    }
  return best;
}

export const answerRelevanceMetric: TriadMetric = {
  id: "answer-relevance",
  name: "Answer relevance",
  definition: "how directly the answer addresses the question",
  readsSources: false,
  heuristic: (c, result) => {
    if (isRefused(result))
      return triadGrade(answerRelevanceMetric, c, "heuristic", 0, {
        refused: true,
        rule: "a refusal does not address the question: 0",
      });
    const yesNo = yesNoAnswer(result.answer);
    if (yesNo !== null && yesNo.rest === "") {
      const asked = isYesNoQuestion(result.question);
      return triadGrade(answerRelevanceMetric, c, "heuristic", asked ? 1 : 0, {
        yesNo: yesNo.polarity,
        rule: asked
          ? "a bare yes or no to a yes/no question addresses it: 1"
          : "a bare yes or no to a question that asks for something else: 0",
      });
    }
    const language = answerLanguage(result, c.language);
    const text = stripCitationMarkers(result.answer);
    const direct = termOverlap(result.question, c.language, [analyzedText(text, language)]);
    const own = termOverlap(text, language, []);
    const beside = own.terms.length > 0 && own.terms.length <= SHORT_ANSWER_TERMS ? besideInSources(text, result, language) : null;
    const linked = beside !== null && beside.share > direct.share;
    return triadGrade(answerRelevanceMetric, c, "heuristic", linked ? beside.share : direct.share, {
      found: direct.found,
      missing: direct.missing,
      inAnswer: round(direct.share),
      ...(beside !== null ? { besideInSources: { share: round(beside.share), sentence: beside.sentence } } : {}),
      formula: `max(question content terms found in the answer / question content terms; for an answer of ≤ ${SHORT_ANSWER_TERMS} content terms, the same in a source sentence holding all of them)`,
    });
  },
  judge: {
    version: 1,
    steps: [
      singleStep<RelevanceJudgment>({
        name: "answer_relevance",
        description: "Answer relevance judgment",
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
      }),
    ],
    grade: (judgments, c: AskCase) => {
      const { score, reasoning } = judgments[0] as RelevanceJudgment;
      return triadGrade(answerRelevanceMetric, c, "llm-judge", score / 3, { reasoning, rating: score, formula: "rating (0–3) / 3" });
    },
  },
};
