/**
 * Evidence, decided before any answerer is asked: how much of the question the best source covers
 * (the heuristic reranker's coverage: the IDF-weighted share of the question's content terms).
 */
import { baseLanguage } from "../ingest/language-path.js";
import type { HeuristicReranker, OfflineRerankOptions } from "../retrieval/heuristic-reranker.js";
import { passageBody } from "../store/indexer.js";
import type { AskResult, AskSource } from "../types.js";

export interface EvidenceCheck {
  /** Coverage of the question by each source, in source order. */
  coverage: number[];
  evidence: AskResult["evidence"];
}

export function checkEvidence(
  question: string,
  sources: readonly AskSource[],
  scorer: HeuristicReranker,
  scoring: OfflineRerankOptions,
  threshold: number,
): EvidenceCheck {
  const coverage = scorer
    .score(
      question,
      sources.map((src) => ({
        title: src.title,
        text: passageBody(src.heading, src.text),
        language: src.language ? baseLanguage(src.language) : null,
      })),
      scoring,
    )
    .map((f) => f.coverage);
  const best = coverage.reduce((b, c, i) => (c > (coverage[b] ?? -1) ? i : b), -1);
  return {
    coverage,
    evidence: {
      coverage: best >= 0 ? coverage[best]! : 0,
      threshold,
      sufficient: best >= 0 && coverage[best]! >= threshold,
      bestRef: best >= 0 ? best + 1 : null,
    },
  };
}

/** The note of the evidence stage in the trace. */
export function evidenceNote({ evidence }: EvidenceCheck): string {
  return evidence.sufficient
    ? `sufficient: source [${evidence.bestRef}] covers ${evidence.coverage.toFixed(2)} ≥ ${evidence.threshold}`
    : `insufficient: best coverage ${evidence.coverage.toFixed(2)} < ${evidence.threshold}; refused without calling the answerer`;
}
