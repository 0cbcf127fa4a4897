/**
 * What every answer grader shares: the shape of a grade, the policies, and the Evalite wrapper.
 * A grader grades one answer (`engine.ask()`'s `ObservedAnswer`, with the eval's refusal recognition)
 * against its case (`AskCase`); one file per grader beside this one, listed in index.ts.
 *
 * Policies, the same for every grader:
 * - **Failed answer** (`result.error` set, the answerer failed): score 0 with `status: "failed"`
 *   and the error — never a pass, not even for answer-excludes, which an empty answer would pass.
 * - **Not applicable**: a grader only scores cases that carry what it checks (`needs`). Evalite
 *   needs a number for every row and averages all of them into one mean, so any made-up number
 *   (1 or 0) would move that mean. Instead the grader throws a `NotApplicableError` that names the
 *   case and the missing field, and the eval fails loudly. Eval files give each grader only the
 *   cases it applies to: `casesFor("answer-includes", cases)` (index.ts).
 * - **Refused answers** are graded as the text they are (the refusal sentence): it contains no
 *   expected fact, no forbidden one, no citation. Whether refusing was right is the refusal
 *   grader's question. Metadata carries `refused`: the eval's recognition (`refusalCheck`,
 *   refusal.ts in scorers/) when it made one, else the engine's `refused`.
 */
import { createScorer } from "evalite";
import type { Evalite } from "evalite";
import { notGiven, type ObservedAnswer } from "../observed.js";
import type { AskCase } from "../ask-case.js";
import type { RecognizedAnswer } from "../refusal-check.js";

export type GraderId =
  | "answer-includes"
  | "answer-excludes"
  | "cites"
  | "cites-only-surfaced"
  | "no-citations"
  | "refusal"
  | "topic-coverage";

/** How a score was obtained. Deterministic graders are `heuristic`; judged ones (scorers/triad/) `llm-judge`. */
export type Method = "heuristic" | "llm-judge";

export interface GradeMetadata {
  grader: string;
  method: Method;
  /**
   * `failed`: the answerer failed (`result.error`); `unknown`: the target did not give what the
   * grader needs (scorers/observed.ts, `notGiven`). Either way the score is 0 and says nothing about quality.
   */
  status: "scored" | "failed" | "unknown";
  caseId: string;
  /** What was checked, in words. */
  definition: string;
  error?: string;
  [key: string]: unknown;
}

export interface Grade {
  /** In [0, 1]. */
  score: number;
  metadata: GradeMetadata;
}

export interface GraderInfo {
  /** The Evalite scorer's name. */
  name: string;
  definition: string;
  /** The case field the grader needs, or null when it applies to every case. */
  needs: keyof AskCase | null;
  appliesTo: (c: AskCase) => boolean;
}

/**
 * A grader: what it is, and its pure per-case function (the policies above applied). Graders that
 * take no options ignore what they are given, so one table can call them all alike.
 */
export interface Grader<O = unknown> extends GraderInfo {
  id: GraderId;
  score(c: AskCase, result: RecognizedAnswer, options?: O): Grade;
}

export const nonEmpty = (list: readonly unknown[] | undefined): boolean => (list?.length ?? 0) > 0;

/** Thrown when a grader is asked to score a case it does not apply to (a wiring mistake). */
export class NotApplicableError extends Error {
  override readonly name = "NotApplicableError";
  constructor(
    readonly grader: string,
    readonly caseId: string,
    reason: string,
  ) {
    super(
      `${grader} does not apply to case ${caseId}: ${reason}. Give this grader only the cases it applies to (casesFor(${JSON.stringify(grader)}, cases) in scorers/answer/index.ts); a made-up score would move the eval's mean`,
    );
  }
}

/** The score of a result whose answerer failed: 0, never a pass. Shared by every grader and the triad. */
export function failedGrade(grader: string, c: AskCase, result: ObservedAnswer, definition: string): Grade {
  return {
    score: 0,
    metadata: {
      grader,
      method: "heuristic",
      status: "failed",
      caseId: c.id,
      definition,
      error: result.error ?? "",
      rule: "the answerer failed: scored 0, never a pass",
    },
  };
}

/**
 * The score of an answer that lacks what the grader needs because the target did not give it (the
 * sources' text, for the triad's faithfulness): not scored, with the reason, never 0 or 1 as a
 * measurement (scorers/observed.ts).
 */
export function notGivenGrade(grader: string, c: AskCase, definition: string, reason: string): Grade {
  const { score, metadata } = notGiven(reason);
  return { score, metadata: { grader, method: "heuristic", caseId: c.id, definition, ...metadata } };
}

/**
 * A grader from its description and its rule: the policies (not applicable → throw, failed answer
 * → 0) come first, then `rule` gives the score and the facts it checked.
 */
export function defineGrader<O = unknown>(
  id: GraderId,
  info: GraderInfo,
  rule: (c: AskCase, result: RecognizedAnswer, options: O) => [number, Record<string, unknown>],
): Grader<O> {
  const score = (c: AskCase, result: RecognizedAnswer, options?: O): Grade => {
    if (!info.appliesTo(c)) throw new NotApplicableError(id, c.id, `it has no ${String(info.needs)}`);
    if (result.error !== undefined) return failedGrade(id, c, result, info.definition);
    const [value, details] = rule(c, result, options as O);
    return {
      score: value,
      metadata: { grader: id, method: "heuristic", status: "scored", caseId: c.id, definition: info.definition, ...details },
    };
  };
  return { id, ...info, score };
}

/** A scorer over (input: AskCase, output: ObservedAnswer); `expected` is not read. */
export type AskScorer = Evalite.Scorer<AskCase, ObservedAnswer, unknown>;

/** The Evalite scorer of a grader: its name, its definition as the description, its score. */
export function scorerFor(grader: GraderInfo, score: (c: AskCase, result: ObservedAnswer) => Grade | Promise<Grade>): AskScorer {
  return createScorer<AskCase, ObservedAnswer, unknown>({
    name: grader.name,
    description: grader.definition,
    scorer: ({ input, output }) => score(input, output),
  });
}

/**
 * Who decided whether the answer refused, for the metadata of the graders that depend on it: the
 * judge (deciding an ambiguous free-text answer) makes the score a judged one (`method: "llm-judge"`).
 */
export function refusalBasis(result: RecognizedAnswer): Record<string, unknown> {
  const recognition = result.refusalCheck;
  return recognition ? { recognition, method: recognition.method === "llm-judge" ? "llm-judge" : "heuristic" } : {};
}

export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
