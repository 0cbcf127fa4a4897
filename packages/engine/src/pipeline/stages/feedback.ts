/**
 * Pseudo-relevance feedback (retrieval/feedback.ts) from the first pass's top documents: RM3 for
 * BM25 (the original query plus the relevance model's best terms) and Rocchio for vectors (the
 * query vector moved towards the documents' best passages). This stage decides and records what
 * feedback adds; the feedback step (steps.ts) then runs the `bm25:feedback` and `vector:feedback`
 * lists. Runs only when the query's language is known and every feedback document is in it.
 */
import { baseLanguage } from "../../ingest/language-path.js";
import { expandedQuery, type FeedbackDocument, languageMismatch, relevanceModel } from "../../retrieval/feedback.js";
import type { FusedCandidate } from "../../retrieval/fusion.js";
import type { VectorIndex } from "../../retrieval/vector.js";
import { passageBody } from "../../store/indexer.js";
import { buildMatchExpression } from "../../text/analyze.js";
import type { QueryContext } from "../context.js";
import { stage } from "../trace.js";

/** What feedback adds; each part is missing when it has nothing to add. */
export interface Feedback {
  /** The MATCH expression of the RM3 query, when the first pass's documents hold terms beyond the query. */
  match?: string;
  /** The vectors Rocchio moves the query towards (no vectors, or `feedbackVectorWeight` 0: none). */
  rocchio?: { index: VectorIndex; documentVectors: Float32Array[] };
}

export const feedback = stage(
  "feedback",
  (ctx: QueryContext, firstPass: readonly FusedCandidate[], queryVector: Float32Array | undefined) => {
    const { core, state } = ctx;
    const h = core.hybrid;
    const { lexical } = ctx.query;
    const top = firstPass.slice(0, h.feedbackDocs);
    const languageOf = (c: FusedCandidate): string | undefined => {
      const language = state.catalog.documents[c.docIndex]!.language;
      return language ? baseLanguage(language) : undefined;
    };
    const input = {
      method: "RM3 (BM25) and Rocchio (vectors)",
      firstPass: top.map((c, i) => ({ docId: c.docId, score: c.score, rank: i + 1, language: languageOf(c) ?? null })),
      queryLanguage: lexical.queryLanguage ?? null,
      terms: h.feedbackTerms,
      originalWeight: h.feedbackQueryWeight,
      vectorWeight: h.feedbackVectorWeight,
    };
    const mismatch = h.feedbackLanguageGate ? languageMismatch(lexical.queryLanguage, top.map(languageOf)) : undefined;
    if (mismatch !== undefined || top.length === 0) {
      const none: Feedback = {};
      return { value: none, input, output: { terms: [] }, note: `no feedback: ${mismatch ?? "the first pass found nothing"}` };
    }
    const docs: FeedbackDocument[] = top.map((c) => {
      const row = core.passages.text(c.passages[0]!);
      return { text: passageBody(row.heading, row.text), language: languageOf(c), score: c.score };
    });
    const weighted = expandedQuery(lexical.terms, relevanceModel(docs, core.analyzer), {
      docs: h.feedbackDocs,
      terms: h.feedbackTerms,
      originalWeight: h.feedbackQueryWeight,
    });
    const added = weighted.filter((t) => t.feedback);
    const index = queryVector && h.feedbackVectorWeight > 0 ? core.index.vectors(state) : undefined;
    const documentVectors = index ? top.flatMap((c) => index.passageVector(c.passages[0]!) ?? []) : [];
    const value: Feedback = {};
    if (added.length > 0) {
      // FTS5's bm25() has no per-term weights but sums over every phrase of the MATCH: a weight is a repeat count.
      value.match = buildMatchExpression(
        weighted.flatMap((t) =>
          Array.from({ length: t.repeats }, () => ({ surface: "", alternatives: t.alternatives, kind: "word" as const, stop: false })),
        ),
      );
    }
    if (index && documentVectors.length > 0) value.rocchio = { index, documentVectors };
    return {
      value,
      input,
      output: {
        terms: weighted.map((t) => ({
          alternatives: t.alternatives.map((a) => a.join(" ")),
          weight: t.weight,
          repeats: t.repeats,
          feedback: t.feedback,
        })),
        vectorDocuments: documentVectors.length,
      },
      note: added.length === 0 ? "no feedback terms: the first pass's documents hold nothing beyond the query" : undefined,
    };
  },
);
