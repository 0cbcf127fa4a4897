/**
 * Writes TREC run lines: `qid Q0 docid rank score tag`. trec_eval ignores the rank column and
 * re-sorts by score (ties by docid, descending), so callers must pass hits in the order they
 * ranked them and with scores that agree with that order; `formatTrecRun` checks it.
 */
export interface RankedDoc {
  docId: string;
  score: number;
}

export function formatTrecRun(queryId: string, hits: readonly RankedDoc[], tag: string): string {
  if (/\s/.test(queryId) || queryId === "") throw new RangeError(`TREC query id must be non-empty without whitespace: "${queryId}"`);
  if (/\s/.test(tag) || tag === "") throw new RangeError(`TREC run tag must be non-empty without whitespace: "${tag}"`);
  let out = "";
  hits.forEach((hit, i) => {
    if (/\s/.test(hit.docId)) throw new RangeError(`TREC doc id must not contain whitespace: "${hit.docId}"`);
    out += `${queryId} Q0 ${hit.docId} ${i + 1} ${formatScore(hit.score)} ${tag}\n`;
  });
  return out;
}

/** Enough digits that distinct doubles stay distinct; trec_eval parses with atof. */
function formatScore(score: number): string {
  if (!Number.isFinite(score)) throw new RangeError(`TREC score must be finite, got ${score}`);
  return String(score);
}
