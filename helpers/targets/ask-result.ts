/**
 * A contract answer (`AskResponse`: answer, citations, refused, sources, error?) as the
 * `AskResult` the answer scorers read. What the contract leaves optional is filled so that it
 * cannot pass a grader by being absent: citations the answer makes that name no source are
 * counted as invalid, a source without text is empty text (the triad finds nothing in it).
 */
import type { AskResult, AskSource, Citation, HitValidity, Preset } from "@hybrid-search/engine";
import type { AskResponse, Validity } from "@hybrid-search/target-contract/types";

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
  const citations: Citation[] = answer.citations.map((c) => ({ ref: c.ref, docId: c.docId, passageId: c.passageId ?? c.docId }));
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
