/**
 * The relevance string (trec_eval `relstring`): the first N retrieved documents' relevance as
 * characters, for eyeballing a ranking. Per topic only; no average.
 *
 * Formula: one character per rank: the grade 0–9 itself, '>' for a grade above 9, '-' for a
 *   document absent from the judgments, '.' for a negative judgment. Default N = 10.
 * Relevant: not applicable (raw grades are shown).
 * Ties: the ranking is ordered by judged-ranking.ts (score desc, docId desc).
 * Fewer than N results: the string is shorter.
 * No relevant documents: shown as they are (e.g. '0000-').
 */
import type { JudgedRanking } from "./types.js";
import { NOT_JUDGED, UNJUDGED_IN_POOL } from "./types.js";

export function relstring(judged: JudgedRanking, length: number): string {
  const n = Math.max(0, Math.min(Math.trunc(length), judged.numRet));
  let out = "";
  for (let i = 0; i < n; i++) {
    const rel = judged.rels[i]!;
    if (rel > 9) out += ">";
    else if (rel >= 0) out += String(rel);
    else if (rel === NOT_JUDGED) out += "-";
    else if (rel === UNJUDGED_IN_POOL) out += ".";
    else out += "<";
  }
  return out;
}
