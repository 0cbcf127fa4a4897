/**
 * The structured answer a model is asked for: the answer text (with its [n] citations), whether it
 * refuses, and the numbers of the sources it cites. Asking for `refused` means a refusal in any
 * language is the model's statement, not a guess from its wording. What comes back is validated
 * with AJV against this schema before it is used.
 */
import type { ErrorObject } from "ajv";
import { createAjv } from "../ajv.js";

export interface StructuredAnswer {
  answer: string;
  refused: boolean;
  citations: number[];
}

export const ANSWER_SCHEMA = {
  type: "object",
  properties: {
    answer: {
      type: "string",
      maxLength: 20_000,
      description: "The answer in the language of the question, with [n] after each statement; when refusing, the sentence that says so.",
    },
    refused: {
      type: "boolean",
      description: "true exactly when the sources do not contain the answer and the answer says so.",
    },
    citations: {
      type: "array",
      items: { type: "integer", minimum: 1 },
      maxItems: 50,
      description: "The numbers of the sources the answer cites; empty when refusing.",
    },
  },
  required: ["answer", "refused", "citations"],
  additionalProperties: false,
} as const;

let validate: (((value: unknown) => boolean) & { errors?: ErrorObject[] | null }) | undefined;

/** AJV's problems with `value` as a structured answer, in words; empty when it is one. */
export function structuredAnswerProblems(value: unknown): string[] {
  validate ??= createAjv({ allErrors: true, strict: true }).compile(ANSWER_SCHEMA);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`.trim());
}
