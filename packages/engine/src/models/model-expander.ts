/**
 * Query expansion by a language model: `generateObject` against the expansion JSON Schema
 * (temperature 0), then AJV validation of what came back. Output that is not JSON or fails the
 * schema never crashes a query: the expansion falls back to the query unexpanded, and the result
 * records why — with AJV's errors — so the trace and the expansion eval can show it.
 */
import { aiSdk } from "../ai-sdk.js";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { callWithPolicy, DEFAULT_CALL_POLICY } from "../call-policy.js";
import { errorLine } from "../errors.js";
import { EXPAND_PROMPT_PATH, promptText } from "../prompts.js";
import type { CallPolicy, ExpansionResult, QueryExpander } from "../types.js";
import { expansionErrors, expansionSchema } from "./expansion-schema.js";

export { EXPAND_PROMPT_PATH };

/** The call policy of the expansion call (see call-policy.ts); unset fields take its defaults. */
export type ModelExpanderOptions = Partial<CallPolicy>;

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
    const { generateObject, jsonSchema, NoObjectGeneratedError } = await aiSdk();
    let object: unknown;
    try {
      const headers = context.headers;
      const result = await callWithPolicy({ ...DEFAULT_CALL_POLICY, ...this.options }, (settings) =>
        generateObject({
          model: this.model,
          schema: jsonSchema(expansionSchema()),
          system: promptText(EXPAND_PROMPT_PATH),
          prompt: `Query: ${JSON.stringify(query)}`,
          temperature: 0,
          ...settings,
          ...(headers ? { headers } : {}),
        }),
      );
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
        return { expansion: unexpanded, expander: this.id, fallback: { reason: `model call failed: ${errorLine(error)}` } };
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
