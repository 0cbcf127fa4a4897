/**
 * The offline answerer: no model, so it can only quote. It takes the sentences of the retrieved
 * sources, scores each by the IDF-weighted share of the question's content terms it contains (the
 * heuristic reranker's coverage feature), and answers with up to three of them, each followed by its
 * source number: the best sentence, then sentences that cover a question term not yet covered.
 * Sentences that read as instructions to an assistant are never used. With no sentence covering at
 * least `MIN_SENTENCE_COVERAGE` of the question, it refuses. It never translates and never
 * paraphrases, so its answers are in the sources' language.
 */
import { baseLanguage } from "../ingest/language-path.js";
import type { HeuristicReranker, OfflineRerankOptions, RerankDocument } from "../retrieval/heuristic-reranker.js";
import { type Answer, type Answerer, type AnswerRequest, EVIDENCE_THRESHOLD } from "./answerer.js";
import { REFUSAL } from "./citations.js";
import { looksLikeInstruction } from "./injection.js";
import { splitSentences } from "./sentences.js";

export const EXTRACTIVE_ANSWERER = "offline/extractive-v1";
export const MIN_SENTENCE_COVERAGE = 0.25;
const MAX_SENTENCES = 3;

export interface ExtractiveSource {
  ref: number;
  title: string;
  text: string;
  language: string | null;
}

export interface ExtractiveAnswer {
  /** Chosen sentences with their source, in answer order; empty when it refuses. */
  sentences: Array<{ ref: number; sentence: string; coverage: number }>;
  /** Sentences skipped because they read as instructions to an assistant. */
  flagged: Array<{ ref: number; sentence: string }>;
  answer: string | null;
}

export function extractiveAnswer(
  question: string,
  sources: readonly ExtractiveSource[],
  reranker: HeuristicReranker,
  scoring: OfflineRerankOptions,
): ExtractiveAnswer {
  const flagged: ExtractiveAnswer["flagged"] = [];
  const candidates: Array<{ ref: number; sentence: string; doc: RerankDocument }> = [];
  for (const source of sources) {
    for (const sentence of splitSentences(source.text)) {
      if (looksLikeInstruction(sentence)) {
        flagged.push({ ref: source.ref, sentence });
        continue;
      }
      candidates.push({ ref: source.ref, sentence, doc: { title: "", text: sentence, language: source.language } });
    }
  }
  const features = reranker.score(
    question,
    candidates.map((c) => c.doc),
    scoring,
  );
  const scored = candidates
    .map((c, i) => ({ ...c, coverage: features[i]!.coverage, score: features[i]!.score }))
    .filter((c) => c.coverage >= MIN_SENTENCE_COVERAGE)
    // Better coverage first; then the better-ranked source; then reading order (stable sort).
    .sort((a, b) => b.score - a.score || a.ref - b.ref);
  const chosen: ExtractiveAnswer["sentences"] = [];
  let covered = 0;
  for (const c of scored) {
    if (chosen.length >= MAX_SENTENCES) break;
    // Only add a sentence that brings more of the question than what is already chosen.
    const together = reranker.score(
      question,
      [{ title: "", text: [...chosen.map((x) => x.sentence), c.sentence].join(" "), language: c.doc.language }],
      scoring,
    )[0]!.coverage;
    if (chosen.length > 0 && together <= covered + 1e-9) continue;
    chosen.push({ ref: c.ref, sentence: c.sentence, coverage: c.coverage });
    covered = together;
  }
  if (chosen.length === 0) return { sentences: [], flagged, answer: null };
  return { sentences: chosen, flagged, answer: chosen.map((c) => `${c.sentence} [${c.ref}]`).join(" ") };
}

/** The offline answerer behind the `Answerer` seam; `scorer` is the engine's lexical scorer. */
export class ExtractiveAnswerer implements Answerer {
  readonly id = EXTRACTIVE_ANSWERER;
  readonly evidenceThreshold = EVIDENCE_THRESHOLD.extractive;

  constructor(private readonly scorer: HeuristicReranker) {}

  async answer({ question, sources, scoring }: AnswerRequest): Promise<Answer> {
    const extractive = extractiveAnswer(
      question,
      sources.map((src) => ({
        ref: src.ref,
        title: src.title,
        text: src.text,
        language: src.language ? baseLanguage(src.language) : null,
      })),
      this.scorer,
      scoring,
    );
    const trace = {
      input: { answerer: this.id, question, sources: sources.length },
      output: { sentences: extractive.sentences, skippedAsInstructions: extractive.flagged },
    };
    if (extractive.answer === null) {
      return {
        text: REFUSAL,
        refusal: "no-supporting-sentence",
        trace: { ...trace, note: "no sentence covers enough of the question; refused" },
      };
    }
    return { text: extractive.answer, trace };
  }
}
