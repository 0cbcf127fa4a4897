/**
 * Query expansion by a language model: `generateObject` against the expansion JSON Schema
 * (temperature 0), then AJV validation of what came back. Output that is not JSON or fails the
 * schema never crashes a query: the expansion falls back to the query unexpanded, and the result
 * records why — with AJV's errors — so the trace and the expansion eval can show it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ExpansionResult, QueryExpander } from "../types.js";
import { expansionErrors, expansionSchema } from "./expansion-schema.js";

export const EXPAND_PROMPT_PATH = resolve(import.meta.dirname, "../../prompts/expand.md");

export interface ModelExpanderOptions {
  /** @default 2 */
  maxRetries?: number;
  /** @default 60000 */
  timeoutMs?: number;
}

export class ModelExpander implements QueryExpander {
  readonly id: string;

  constructor(
    private readonly model: LanguageModelV3,
    private readonly options: ModelExpanderOptions = {},
  ) {
    this.id = `${model.provider}/${model.modelId}`;
  }

  async expand(query: string, context: { headers?: Record<string, string> } = {}): Promise<ExpansionResult> {
    const unexpanded = { lexicalQueries: [query], vectorQueries: [query] };
    const { generateObject, jsonSchema, NoObjectGeneratedError } = await import("ai");
    let object: unknown;
    try {
      const headers = context.headers;
      const result = await generateObject({
        model: this.model,
        schema: jsonSchema(expansionSchema()),
        system: readFileSync(EXPAND_PROMPT_PATH, "utf8"),
        prompt: `Query: ${JSON.stringify(query)}`,
        temperature: 0,
        maxRetries: this.options.maxRetries ?? 2,
        abortSignal: AbortSignal.timeout(this.options.timeoutMs ?? 60_000),
        ...(headers ? { headers } : {}),
      });
      object = result.object;
    } catch (error) {
      if (NoObjectGeneratedError.isInstance(error)) {
        // The model answered, but not with parseable JSON; keep what it said for the trace.
        const parsed = tryParse(error.text);
        if (parsed === undefined) {
          // Output the model did give but that is not JSON fails validation like a schema break.
          return {
            expansion: unexpanded,
            expander: this.id,
            fallback: {
              reason: `model output is not JSON: ${clip(error.text ?? "")}`,
              errors: [{ instancePath: "", message: "is not JSON" }],
            },
          };
        }
        object = parsed;
      } else {
        return { expansion: unexpanded, expander: this.id, fallback: { reason: `model call failed: ${oneLine(error)}` } };
      }
    }
    const errors = expansionErrors(object);
    if (errors.length > 0) {
      return {
        expansion: unexpanded,
        expander: this.id,
        fallback: {
          reason: "model output failed the expansion schema",
          errors: errors.map((e) => ({ instancePath: e.instancePath, message: e.message, params: e.params })),
        },
      };
    }
    return { expansion: object as ExpansionResult["expansion"], expander: this.id };
  }
}

function tryParse(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text.replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    return undefined;
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

export function oneLine(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split("\n")[0]!.slice(0, 300);
}
