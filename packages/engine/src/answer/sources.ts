/**
 * The numbered sources of an answer: for each retrieved document, the passage retrieval chose and
 * the passage of that document that covers the question best, when different — the fact asked for
 * often sits in another section than the one that matched the query best.
 */
import { baseLanguage } from "../ingest/language-path.js";
import type { HeuristicReranker, OfflineRerankOptions } from "../retrieval/heuristic-reranker.js";
import { passageBody } from "../store/indexer.js";
import type { AskSource, RankedHit } from "../types.js";
import { looksLikeInstruction } from "./injection.js";
import { splitSentences } from "./sentences.js";

export interface StoredPassage {
  seq: number;
  heading: string;
  text: string;
}

/** Sources for `hits`, numbered from 1 in retrieval order; `passagesOf` gives a document's passages in order. */
export function chooseSources(
  question: string,
  hits: readonly RankedHit[],
  passagesOf: (hit: RankedHit) => StoredPassage[],
  scorer: HeuristicReranker,
  scoring: OfflineRerankOptions,
): AskSource[] {
  const sources: AskSource[] = [];
  for (const hit of hits) {
    const lang = hit.language ? baseLanguage(hit.language) : null;
    const passages = passagesOf(hit);
    const scores = scorer.score(
      question,
      passages.map((p) => ({ title: hit.title, text: passageBody(p.heading, p.text), language: lang })),
      scoring,
    );
    const bestSeq = passages[scores.reduce((b, f, i) => (f.score > scores[b]!.score ? i : b), 0)]?.seq;
    const chosenSeq = Number(hit.passageId.slice(hit.passageId.lastIndexOf("#") + 1));
    for (const seq of [...new Set([chosenSeq, bestSeq])]) {
      const p = passages.find((x) => x.seq === seq);
      if (!p) continue;
      sources.push({
        ref: sources.length + 1,
        docId: hit.docId,
        passageId: `${hit.docId}#${seq}`,
        title: hit.title,
        heading: p.heading,
        text: p.text,
        language: hit.language,
        score: hit.score,
        ...(hit.validity ? { validity: hit.validity } : {}),
      });
    }
  }
  return sources;
}

/** Source sentences that read as instructions to an assistant. */
export function flaggedSentences(sources: readonly AskSource[]): Array<{ ref: number; sentence: string }> {
  return sources.flatMap((src) =>
    splitSentences(src.text)
      .filter(looksLikeInstruction)
      .map((sentence) => ({ ref: src.ref, sentence })),
  );
}
