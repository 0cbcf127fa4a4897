/**
 * Whether an answer refused, as the graders read it: the suite's recognition when the eval made
 * one (`refusalCheck`, refusal.ts: the model's own `refused` for a structured answer, markers or
 * the judge for free text), else the engine's `refused`. Kept apart from refusal.ts so the graders
 * (answer/, triad/) can read it without importing the recognition, which builds on them.
 */
import type { ObservedAnswer } from "./observed.js";

/** How a refusal was decided. */
export type RefusalMethod = "evidence-gate" | "extractive" | "structured" | "markers" | "llm-judge";

export interface RefusalRecognition {
  refused: boolean;
  method: RefusalMethod;
  /** The refusal phrase found in a free-text answer, and its language. */
  marker?: { language: string; text: string };
  /** Why markers alone could not decide (a refusal phrase with a citation, or neither): what the judge was asked. */
  ambiguous?: string;
  /** The judge's reasoning, its model and attempts; or why it could not decide (then markers decided). */
  reasoning?: string;
  judgeModel?: string;
  attempts?: number;
  fallbackFrom?: "llm-judge";
  judgeError?: string;
}

/** An engine answer with the suite's recognition of whether it refused. */
export type RecognizedAnswer = ObservedAnswer & { refusalCheck?: RefusalRecognition };

export function isRefused(result: RecognizedAnswer): boolean {
  return result.refusalCheck?.refused ?? result.refused;
}
