/**
 * Hand-made cases and engine results for the scorer tests (answer, judge, diagnosis). Not a test
 * file itself, so importing it registers no tests twice.
 */
import type { MockLanguageModelV3 } from "ai/test";
import type { ObservedAnswer, ObservedSource } from "../observed.js";
import { EXTRACTIVE_ANSWERER } from "@hybrid-search/engine/models";
import { scriptedModel } from "@hybrid-search/engine/testing";
import type { AskCase } from "../ask-case.js";
import { GRADERS, type Grade, type GraderId } from "../answer/index.js";
import { citationRefs } from "../text/citations.js";

export function askCase(over: Partial<AskCase> = {}): AskCase {
  return { id: "t-001", question: "How many recovery codes do I get?", language: "en", category: "answerable", note: "test", ...over };
}

export function source(ref: number, docId: string, text: string, language = "en"): ObservedSource {
  return { ref, docId, passageId: `${docId}#0`, title: docId, heading: "", text, language, score: 1 };
}

/** An ObservedAnswer whose citations are derived from the answer's [n] markers, as the engine does. */
export function askResult(answer: string, sources: ObservedSource[], over: Partial<ObservedAnswer> = {}): ObservedAnswer {
  const refs = citationRefs(answer);
  const byRef = new Map(sources.map((s) => [s.ref, s]));
  return {
    question: "How many recovery codes do I get?",
    answer,
    refused: false,
    citations: refs.flatMap((ref) => (byRef.has(ref) ? [{ ref, docId: byRef.get(ref)!.docId, passageId: byRef.get(ref)!.passageId }] : [])),
    invalidCitations: refs.filter((r) => !byRef.has(r)),
    sources,
    answerer: EXTRACTIVE_ANSWERER,
    preset: null,
    evidence: { coverage: 0.8, threshold: 0.5, sufficient: true, bestRef: 1 },
    flagged: [],
    trace: [],
    elapsedMs: 1,
    timedBy: "target",
    ...over,
  };
}

/** Sources the grader tests share: recovery codes (en, and its German translation) and prices. */
export const TWO_FA = source(1, "en/security/two-factor-authentication.md", "Tessera creates 10 recovery codes. Each code works once.");
export const TWO_FA_DE = source(2, "de/sicherheit/zwei-faktor-authentifizierung.md", "Tessera erstellt 10 Wiederherstellungscodes.", "de");
export const PLANS = source(3, "en/billing/plans-and-pricing.md", "Personal costs €9.99 per month.");

/** Sources the triad tests share: recovery codes and prices. */
export const CODES = source(
  1,
  "en/security/two-factor-authentication.md",
  "When you turn on two-factor authentication, Tessera creates 10 recovery codes. Each code works once.",
);
export const PRICES = source(2, "en/billing/plans-and-pricing.md", "The Personal plan costs €9.99 per month or €99 per year.");

export const REFUSAL = "The documents do not contain an answer to this question.";

export function refused(sources: ObservedSource[], over: Partial<ObservedAnswer> = {}): ObservedAnswer {
  return askResult(REFUSAL, sources, { refused: true, refusal: "insufficient-evidence", ...over });
}

export function failed(sources: ObservedSource[] = []): ObservedAnswer {
  return askResult("", sources, { error: "answer model mock/m1 failed: 503 Service Unavailable" });
}

export const inUnit = (x: number): boolean => Number.isFinite(x) && x >= 0 && x <= 1;

/** A seeded generator in [0, 1), so property tests are reproducible. */
export function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Every deterministic grader as a plain (case, result) function; `cites` with the given translations. */
export function allGraders(
  translations: ReadonlyMap<string, readonly string[]> = new Map(),
): Array<[GraderId, (c: AskCase, r: ObservedAnswer) => Grade]> {
  return Object.values(GRADERS).map((g) => [g.id, (c: AskCase, r: ObservedAnswer) => g.score(c, r, { translations })]);
}

/** A judge (`mock/judge-1`) that answers each call with the next reply (a string) or throws it (an Error); the last repeats. */
export const mockJudge = (...replies: Array<string | Error>): MockLanguageModelV3 => scriptedModel("judge-1", ...replies);
