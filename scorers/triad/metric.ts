/**
 * What a RAG-triad metric is: everything about it in one object, as trec_eval keeps a measure in
 * one `TREC_MEAS` entry — its name and definition, the keyless heuristic, and the judge's JSON
 * Schema, system prompt, extra checks and reading of a judgment. One file per metric beside this
 * one; index.ts lists them in order and scores them (the judge when configured, else the
 * heuristic), the judge call itself is judge-call.ts's.
 */
import type { JSONSchema7 } from "@ai-sdk/provider";
import type { ObservedAnswer } from "../observed.js";
import type { Grade, Method } from "../answer/grade.js";
import type { AskCase } from "../ask-case.js";
import { escapeData } from "../judge-call.js";

export type TriadMetricId = "context-relevance" | "faithfulness" | "answer-relevance";

export interface TriadMetric<J = unknown> {
  id: TriadMetricId;
  /** The Evalite scorer's name. */
  name: string;
  /** What it measures, in words (the score's `definition`). */
  definition: string;
  /** The keyless score (`method: "heuristic"`), also the fallback when the judge fails. */
  heuristic: (c: AskCase, result: ObservedAnswer) => Grade;
  /** Whether it reads what the answer was written from: without source text it is not scored (scorers/observed.ts). */
  readsSources: boolean;
  judge: {
    /** The JSON Schema of the judge's output; reasoning comes first so it precedes the verdict. */
    schema: JSONSchema7;
    system: string;
    /** What a schema cannot say about a valid judgment (each source rated once, refs that exist); null when valid. */
    check?(judgment: J, result: ObservedAnswer): string | null;
    /** The score a valid judgment gives (`method: "llm-judge"`), with what the judge said. */
    grade(judgment: J, c: AskCase): Grade;
  };
}

/** A triad grade: the metric's definition and the method that produced it. */
export function triadGrade(
  metric: Pick<TriadMetric, "id" | "definition">,
  c: AskCase,
  method: Method,
  score: number,
  details: Record<string, unknown>,
): Grade {
  return { score, metadata: { grader: metric.id, method, status: "scored", caseId: c.id, definition: metric.definition, ...details } };
}

/** A 0–3 rating in a judge's schema. */
export const RATING: JSONSchema7 = { type: "integer", minimum: 0, maximum: 3 };

/**
 * The user message of every triad judge: the question, the numbered sources and the answer, marked
 * as data; and a golden set's reference answer when the case has one (reference context for the
 * judge, as the bundle tool shows it; no metric scores agreement with it).
 */
export function judgePrompt(result: ObservedAnswer, c?: Pick<AskCase, "referenceAnswer">): string {
  const sources = (result.sources ?? []).map(
    (s) =>
      `<source ref="${s.ref}" doc="${escapeData(s.docId).replace(/"/g, "'")}" title="${escapeData(s.title ?? "").replace(/"/g, "'")}">\n${escapeData([s.heading, s.text].filter(Boolean).join("\n"))}\n</source>`,
  );
  return [
    `<question>\n${escapeData(result.question)}\n</question>`,
    `Sources (${sources.length}):\n${sources.join("\n") || "(none)"}`,
    `<answer>\n${escapeData(result.answer)}\n</answer>`,
    ...(c?.referenceAnswer
      ? [
          `<reference_answer note="a golden set's expected answer, for reference only: rate the answer against the sources">\n${escapeData(c.referenceAnswer)}\n</reference_answer>`,
        ]
      : []),
  ].join("\n\n");
}

export function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
