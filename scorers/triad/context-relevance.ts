/**
 * Context relevance: how relevant the retrieved sources are to the question, the retrieval leg of
 * the RAG triad.
 *
 * - llm-judge: each source rated 0–3 (unrelated … contains what is needed), mean ÷ 3; the judge
 *   must rate every source exactly once.
 * - heuristic: mean over sources of the share of the question's content terms found in the source
 *   (scorers/text/overlap.ts).
 * - No source text (no source, or none carries its text): not scored (`status: "unknown"`, index.ts),
 *   no judge call: that nothing was retrieved is the retrieval evals' to say.
 *
 * **When to use:** to tell retrieval noise from answer problems, next to the ranking evals.
 * **When NOT to use:** heuristically on cross-language retrieval (token overlap cannot see a
 * translation).
 */
import type { AskCase } from "../ask-case.js";
import { DATA_RULE } from "../judge-call.js";
import { round } from "../answer/grade.js";
import { sourceText, termOverlap } from "../text/overlap.js";
import { clamp01, RATING, singleStep, type TriadMetric, triadGrade } from "./metric.js";

interface ContextJudgment {
  reasoning: string;
  ratings: Array<{ ref: number; score: number }>;
}

export const contextRelevanceMetric: TriadMetric = {
  id: "context-relevance",
  name: "Context relevance",
  definition: "how relevant the retrieved sources are to the question (mean over sources)",
  readsSources: true,
  heuristic: (c: AskCase, result) => {
    const perSource = (result.sources ?? []).map((s) => {
      const o = termOverlap(result.question, c.language, [sourceText(s)]);
      return { ref: s.ref, docId: s.docId, share: round(o.share), found: o.found };
    });
    const score = perSource.reduce((sum, s) => sum + s.share, 0) / perSource.length;
    return triadGrade(contextRelevanceMetric, c, "heuristic", clamp01(score), {
      sources: perSource.length,
      perSource,
      formula: "mean over sources of (question content terms found in the source / question content terms)",
    });
  },
  judge: {
    version: 1,
    steps: [
      singleStep<ContextJudgment>({
        name: "context_relevance",
        description: "Context relevance judgment",
        schema: {
          type: "object",
          properties: {
            reasoning: { type: "string", description: "One or two sentences per source: what it says that bears on the question." },
            ratings: {
              type: "array",
              description: "Exactly one rating per source.",
              items: {
                type: "object",
                properties: { ref: { type: "integer", minimum: 1 }, score: RATING },
                required: ["ref", "score"],
                additionalProperties: false,
              },
            },
          },
          required: ["reasoning", "ratings"],
          additionalProperties: false,
        },
        system: [
          "You grade the retrieval step of a question-answering system: how relevant each retrieved source is to the question.",
          "Rate every source on its own, by its text only, on this scale:",
          "0 = unrelated, or shares words with the question without bearing on it;",
          "1 = on a related topic, but does not help answer the question;",
          "2 = answers part of the question;",
          "3 = contains what is needed to answer the question fully.",
          "Do not consider the answer: it is shown only for completeness. Give exactly one rating per source, using its ref number.",
          DATA_RULE,
        ].join("\n"),
        check: ({ ratings }, result) => {
          const refs = new Set((result.sources ?? []).map((s) => s.ref));
          const rated = ratings.map((r) => r.ref);
          const unknown = rated.filter((r) => !refs.has(r));
          const twice = rated.filter((r, i) => rated.indexOf(r) !== i);
          const unrated = [...refs].filter((r) => !rated.includes(r));
          if (unknown.length === 0 && twice.length === 0 && unrated.length === 0) return null;
          return `ratings must rate each of sources ${[...refs].join(", ")} once (unknown: ${unknown.join(", ") || "none"}; twice: ${twice.join(", ") || "none"}; unrated: ${unrated.join(", ") || "none"})`;
        },
      }),
    ],
    grade: (judgments, c) => {
      const { ratings, reasoning } = judgments[0] as ContextJudgment;
      return triadGrade(contextRelevanceMetric, c, "llm-judge", ratings.reduce((sum, r) => sum + r.score, 0) / (3 * ratings.length), {
        reasoning,
        ratings,
        sources: ratings.length,
        formula: "mean over sources of rating (0–3) / 3",
      });
    },
  },
};
