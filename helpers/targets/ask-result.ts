/**
 * A contract answer (`AskResponse`: answer, citations, refused, sources, error?) as the
 * `AskResult` the answer scorers read, and a contract ranking as the evals' `TargetRanking`. What the contract leaves optional is filled so that it
 * cannot pass a grader by being absent: citations the answer makes that name no source are
 * counted as invalid, a source without text is empty text (the triad finds nothing in it).
 */
import type { AskResult, AskSource, HitValidity, Preset } from "@hybrid-search/engine";
import type { AskRequest, AskResponse, SearchResponse, Validity } from "@hybrid-search/target-contract/types";
import type { TargetAsk, TargetRanking } from "./target.js";

/** An `AskResponse`, and what the engine's own answers carry beyond it (`engine ask --batch` writes these too). */
export interface ContractAnswer extends AskResponse {
  refusal?: AskResult["refusal"];
  preset?: Preset | null;
  invalidCitations?: number[];
  evidence?: AskResult["evidence"];
  flagged?: AskResult["flagged"];
}

const MARKER = /\[(\d+)\]/g;

/** The contract's `validity` (only `stale` required) as the engine's: absent lists are empty. */
export function contractValidity(v: Validity): HitValidity {
  return { ...v, supersedes: v.supersedes ?? [], supersededBy: v.supersededBy ?? [] };
}

/** A contract `SearchResponse` (checked) as the ranking the evals read, with the call's times. */
export function contractRanking(response: SearchResponse, times: Pick<TargetRanking, "serverMs" | "clientMs">): TargetRanking {
  return {
    results: response.results.map((h) => ({
      docId: h.docId,
      score: h.score,
      ...(h.passageId ? { passageId: h.passageId } : {}),
      ...(h.snippet ? { snippet: h.snippet } : {}),
      ...(h.validity ? { validity: contractValidity(h.validity) } : {}),
    })),
    trace: response.trace ?? null,
    ...times,
  };
}

/** `asOf` on the wire: a `Date` as its ISO string. */
export const wireInstant = (asOf: string | Date): string => (asOf instanceof Date ? asOf.toISOString() : asOf);

/** The contract's `AskRequest` for a case's question: the fields it sets, and `scope` (a seeded collection). */
export function askRequest(
  { question, preset, asOf, includeSuperseded }: Pick<TargetAsk, "question" | "preset" | "asOf" | "includeSuperseded">,
  scope: { collection?: string },
): AskRequest {
  return {
    question,
    ...(preset ? { preset } : {}),
    ...scope,
    ...(asOf === undefined ? {} : { asOf: wireInstant(asOf) }),
    ...(includeSuperseded === undefined ? {} : { includeSuperseded }),
  };
}

export function toAskResult(question: string, answer: ContractAnswer, fallbackAnswerer: string): AskResult {
  const sources: AskSource[] = answer.sources.map((s, i) => ({
    ref: s.ref ?? i + 1,
    docId: s.docId,
    passageId: s.passageId ?? s.docId,
    title: s.title ?? "",
    heading: s.heading ?? "",
    text: s.text ?? "",
    language: s.language ?? null,
    score: s.score ?? 0,
    ...(s.validity ? { validity: contractValidity(s.validity) } : {}),
  }));
  const refs = new Set(sources.map((s) => s.ref));
  const invalid =
    answer.invalidCitations ?? [...new Set([...answer.answer.matchAll(MARKER)].map((m) => Number(m[1])))].filter((n) => !refs.has(n));
  const citations: AskResult["citations"] = answer.citations.map((c) => ({
    ref: c.ref,
    docId: c.docId,
    passageId: c.passageId ?? c.docId,
  }));
  return {
    question,
    answer: answer.answer,
    refused: answer.refused,
    ...(answer.refusal ? { refusal: answer.refusal } : answer.refused ? { refusal: "model" as const } : {}),
    citations,
    invalidCitations: invalid,
    sources,
    answerer: answer.answerer ?? fallbackAnswerer,
    preset: answer.preset ?? null,
    // Not part of the contract: the diagnosis column reads it only for the engine's evidence-gate refusals.
    evidence: answer.evidence ?? { coverage: Number.NaN, threshold: Number.NaN, sufficient: !answer.refused, bestRef: null },
    flagged: answer.flagged ?? [],
    ...(answer.error ? { error: answer.error } : {}),
    trace: answer.trace ?? [],
    elapsedMs: answer.elapsedMs ?? 0,
  };
}
