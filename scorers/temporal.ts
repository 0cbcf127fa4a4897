/**
 * Scorers of the temporal lane (evals/temporal.eval.ts): does superseded or expired content stay
 * buried at the case's instant, does `includeSuperseded` bring it back marked, and does an answer
 * state what was true then and cite only what was valid then. Pure functions of what they are
 * given; a failed answer scores 0 with `status: "failed"`, never a pass.
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { stripCitationMarkers } from "./text/citations.js";
import { findFacts } from "./text/contains-fact.js";

/** What a temporal case expects (fixtures/temporal/cases.json, in the shape the scorers read). */
export interface TemporalExpected {
  valid: readonly string[];
  stale: readonly string[];
  expectedSubstrings: readonly string[];
  forbiddenSubstrings?: readonly string[];
}

/** The top k of each mode at the case's instant, and the balanced ranking with `includeSuperseded`. */
export interface TemporalRankings {
  /** Mode (search, vsearch, fast, balanced, thorough) → document ids, best first. */
  byMode: Readonly<Record<string, readonly string[]>>;
  /** With `includeSuperseded`: each result with whether the engine marked it stale. */
  included: ReadonlyArray<{ docId: string; stale: boolean; reason?: string }>;
  /** The depth both were asked for. */
  k: number;
}

/**
 * Stale hidden: the share of (mode, stale document) pairs in which the stale document is absent
 * from that mode's top k. 1 when every mode buried every stale document.
 */
export function staleHiddenScore(output: TemporalRankings, expected: TemporalExpected): { score: number; metadata: object } {
  const leaks: Array<{ mode: string; docId: string; rank: number }> = [];
  const modes = Object.entries(output.byMode);
  for (const [mode, ids] of modes) {
    for (const docId of expected.stale) {
      const rank = ids.slice(0, output.k).indexOf(docId);
      if (rank >= 0) leaks.push({ mode, docId, rank: rank + 1 });
    }
  }
  const pairs = modes.length * expected.stale.length;
  if (pairs === 0) throw new RangeError("Expected at least one mode and one stale document");
  return {
    score: 1 - leaks.length / pairs,
    metadata: { method: "deterministic", k: output.k, modes: modes.map(([m]) => m), stale: expected.stale, leaks },
  };
}

/**
 * Stale kept and marked: with `includeSuperseded`, the share of stale documents that come back in
 * the top k marked stale (an unmarked one would read as current).
 */
export function staleMarkedScore(output: TemporalRankings, expected: TemporalExpected): { score: number; metadata: object } {
  const top = output.included.slice(0, output.k);
  const per = expected.stale.map((docId) => {
    const hit = top.find((h) => h.docId === docId);
    return { docId, returned: hit !== undefined, marked: hit?.stale === true, ...(hit?.reason ? { reason: hit.reason } : {}) };
  });
  return { score: per.filter((p) => p.marked).length / per.length, metadata: { method: "deterministic", k: output.k, stale: per } };
}

/** The part of an answer these scorers read. */
export interface TemporalAnswer {
  answer: string;
  refused: boolean;
  citations: ReadonlyArray<{ docId: string }>;
  error?: string;
}

const failed = (result: TemporalAnswer): { score: number; metadata: object } => ({
  score: 0,
  metadata: { method: "deterministic", status: "failed", error: result.error },
});

/**
 * States the then-valid value: the share of expected facts the answer states, and 0 when it also
 * states a forbidden (stale) one. Matching as the answer graders match (text/contains-fact.ts).
 */
export function statesThenValidScore(result: TemporalAnswer, expected: TemporalExpected): { score: number; metadata: object } {
  if (result.error !== undefined) return failed(result);
  const answer = stripCitationMarkers(result.answer);
  const { found, missing } = findFacts(answer, expected.expectedSubstrings);
  const stale = findFacts(answer, expected.forbiddenSubstrings ?? []).found;
  const score = stale.length > 0 ? 0 : found.length / expected.expectedSubstrings.length;
  return {
    score,
    metadata: {
      method: "deterministic",
      status: "scored",
      found,
      missing,
      staleStated: stale,
      refused: result.refused,
    },
  };
}

/**
 * Cites only then-valid sources: 1 when the answer cites at least one document valid at the
 * instant and no stale one; 0 when it cites a stale document, cites nothing, or refused.
 */
export function citesThenValidScore(result: TemporalAnswer, expected: TemporalExpected): { score: number; metadata: object } {
  if (result.error !== undefined) return failed(result);
  const cited = [...new Set(result.citations.map((c) => c.docId))];
  const stale = cited.filter((d) => expected.stale.includes(d));
  const valid = cited.filter((d) => expected.valid.includes(d));
  return {
    score: stale.length === 0 && valid.length > 0 ? 1 : 0,
    metadata: { method: "deterministic", status: "scored", cited, staleCited: stale, validCited: valid, refused: result.refused },
  };
}

function scorer<TOutput>(
  name: string,
  description: string,
  score: (output: TOutput, expected: TemporalExpected) => { score: number; metadata: object },
): Evalite.Scorer<unknown, TOutput, TemporalExpected> {
  return createScorer<unknown, TOutput, TemporalExpected>({
    name,
    description,
    scorer: ({ output, expected }) => score(output, expected!),
  });
}

export const staleHidden = () =>
  scorer<TemporalRankings>(
    "Stale hidden",
    "share of (mode, stale document) pairs with the stale document out of the top k",
    staleHiddenScore,
  );
export const staleMarked = () =>
  scorer<TemporalRankings>(
    "Stale kept and marked",
    "with includeSuperseded, share of stale documents back in the top k and marked stale",
    staleMarkedScore,
  );
export const statesThenValid = () =>
  scorer<TemporalAnswer>(
    "States then-valid value",
    "expected facts stated ÷ expected; 0 when a stale fact is stated",
    statesThenValidScore,
  );
export const citesThenValid = () =>
  scorer<TemporalAnswer>("Cites only then-valid", "1 when it cites a valid document and no stale one", citesThenValidScore);
