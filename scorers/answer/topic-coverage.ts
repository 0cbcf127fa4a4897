/**
 * topic-coverage ("Topic coverage"), the lexical heuristic: the share of the case's
 * `expectedTopics` the answer covers. A topic is covered when at least `TOPIC_SHARE` (50 %) of its
 * content terms occur in the answer (citation markers removed), by the token overlap of
 * scorers/text/overlap.ts: grading form, function words of the case's language dropped, Snowball
 * stems in the topic's and the answer's language, compounds, CJK bigrams; each term counted once,
 * unweighted. With a judge configured the eval grades topics with the judge instead
 * (scorers/completeness.ts), which falls back to this.
 *
 * **When to use:** a cheap, deterministic completeness signal next to answer-includes.
 * **When NOT to use:** as a verdict on paraphrased or translated answers (lexical overlap misses
 * them); only for cases with `expectedTopics`.
 */
import { isRefused } from "../refusal-check.js";
import { stripCitationMarkers } from "../text/citations.js";
import { analyzedText, answerLanguage, termOverlap } from "../text/overlap.js";
import { type AskScorer, defineGrader, nonEmpty, round, scorerFor } from "./grade.js";

/** Share of a topic's content terms that must occur in the answer for the topic to count as covered. */
export const TOPIC_SHARE = 0.5;

export const topicCoverageGrader = defineGrader(
  "topic-coverage",
  {
    name: "Topic coverage",
    definition: "expected topics covered / topics; covered when ≥ 50 % of the topic's content terms occur in the answer",
    needs: "expectedTopics",
    appliesTo: (c) => nonEmpty(c.expectedTopics),
  },
  (c, result) => {
    const answer = analyzedText(stripCitationMarkers(result.answer), answerLanguage(result, c.language));
    const topics = c.expectedTopics!.map((topic) => {
      const o = termOverlap(topic, c.language, [answer]);
      return { topic, share: round(o.share), covered: o.terms.length > 0 && o.share >= TOPIC_SHARE, missing: o.missing };
    });
    const covered = topics.filter((t) => t.covered).length;
    return [
      covered / topics.length,
      {
        covered,
        topics,
        threshold: TOPIC_SHARE,
        refused: isRefused(result),
        terms: "grading terms (scorers/text/overlap.ts: stemmed, folded), function words dropped, unweighted",
      },
    ];
  },
);

export const topicCoverageScore = topicCoverageGrader.score;

/** "Topic coverage", lexically: share of the case's expected topics the answer covers. */
export const topicCoverage = (): AskScorer => scorerFor(topicCoverageGrader, topicCoverageScore);
