/**
 * What a judged answer metric is (the RAG triad's three, and answer correctness): everything about
 * it in one object, as trec_eval keeps a measure in one `TREC_MEAS` entry — its name and
 * definition, where it applies, the keyless heuristic, and the judge's versioned steps (JSON
 * Schema, system prompt, user message, extra checks) and reading of the judgments. One file per
 * metric beside this one; index.ts lists them in order and scores them (the judge when
 * configured, else the heuristic), the judge call itself is judge-call.ts's.
 */
import type { JSONSchema7 } from "@ai-sdk/provider";
import type { ObservedAnswer } from "../observed.js";
import type { Grade, Method } from "../answer/grade.js";
import type { AskCase } from "../ask-case.js";
import { escapeData } from "../judge-call.js";

export type TriadMetricId = "context-relevance" | "faithfulness" | "answer-relevance" | "answer-correctness";

/**
 * One call of a metric's judge: the JSON Schema of its output (reasoning first, so it precedes the
 * verdict), its system prompt, its user message and the checks a schema cannot express. A judge of
 * several steps (faithfulness: split into statements, then verify them) hands each step what the
 * earlier ones returned.
 */
export interface JudgeStep<J = unknown> {
  /** The schema's name, for providers that use it (`faithfulness_statements`). */
  name: string;
  description: string;
  schema: JSONSchema7;
  system: string;
  /** The user message, from the case, the answer and the earlier steps' judgments. */
  prompt(c: AskCase, result: ObservedAnswer, earlier: readonly unknown[]): string;
  /** What a schema cannot say about a valid judgment (each source rated once, refs that exist); null when valid. */
  check?(judgment: J, result: ObservedAnswer, earlier: readonly unknown[]): string | null;
}

export interface TriadMetric {
  id: TriadMetricId;
  /** The Evalite scorer's name. */
  name: string;
  /** What it measures, in words (the score's `definition`). */
  definition: string;
  /** Why it does not apply to a case (null: it does), beyond the triad's own rule (an answer is expected). */
  notApplicable?(c: AskCase): string | null;
  /** The keyless score (`method: "heuristic"`), also the fallback when the judge fails. */
  heuristic: (c: AskCase, result: ObservedAnswer) => Grade;
  /** Whether it reads what the answer was written from: without source text it is not scored (scorers/observed.ts). */
  readsSources: boolean;
  judge: {
    /**
     * The version of the judge's prompts and schemas: raised with any change of what the judge is
     * told, sent with every call (`x-judge-prompt`: part of the model cache's key) and part of the
     * hash a calibration names (judged-graders.ts).
     */
    version: number;
    /** The calls, in order; each sees what the earlier ones returned. */
    steps: readonly JudgeStep[];
    /** When an earlier step's judgment leaves nothing to ask the next (no statements to verify); the judgments so far go to `grade`. */
    done?(earlier: readonly unknown[]): boolean;
    /** The score the judgments give (`method: "llm-judge"`), with what the judge said. */
    grade(judgments: readonly unknown[], c: AskCase): Grade;
  };
}

/** A one-call judge's step: the suite's user message (`judgePrompt`) and a check of the judgment alone. */
export function singleStep<J>(
  step: Omit<JudgeStep<J>, "prompt" | "check"> & { check?(judgment: J, result: ObservedAnswer): string | null },
): JudgeStep {
  return {
    ...step,
    prompt: (c, result) => judgePrompt(result, c),
    ...(step.check ? { check: (j: unknown, result: ObservedAnswer) => step.check!(j as J, result) } : {}),
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
 * The user message of the one-call judges: the question, the numbered sources and the answer,
 * marked as data; and a golden set's reference answer when the case has one (reference context
 * for the judge, as the bundle tool shows it; answer correctness grades against it with a prompt
 * of its own).
 */
export function judgePrompt(result: ObservedAnswer, c?: Pick<AskCase, "referenceAnswer">): string {
  return [
    `<question>\n${escapeData(result.question)}\n</question>`,
    judgeSources(result),
    `<answer>\n${escapeData(result.answer)}\n</answer>`,
    ...(c?.referenceAnswer
      ? [
          `<reference_answer note="a golden set's expected answer, for reference only: rate the answer against the sources">\n${escapeData(c.referenceAnswer)}\n</reference_answer>`,
        ]
      : []),
  ].join("\n\n");
}

/** The numbered sources as a judge reads them, marked as data. */
export function judgeSources(result: Pick<ObservedAnswer, "sources">): string {
  const sources = (result.sources ?? []).map(
    (s) =>
      `<source ref="${s.ref}" doc="${escapeData(s.docId).replace(/"/g, "'")}" title="${escapeData(s.title ?? "").replace(/"/g, "'")}">\n${escapeData([s.heading, s.text].filter(Boolean).join("\n"))}\n</source>`,
  );
  return `Sources (${sources.length}):\n${sources.join("\n") || "(none)"}`;
}

export function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
