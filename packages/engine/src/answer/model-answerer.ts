/**
 * A preset's language model behind the `Answerer` seam, asked for a **structured answer**:
 * `generateText` with `Output.object` and the JSON Schema of answer-schema.ts (`{ answer, refused,
 * citations }`), at temperature 0 under the call policy, with the system prompt of `prompts/ask.md`
 * (read once per process) and the sources delimited as untrusted data. The model says whether it
 * refuses, so a refusal in German, French or Italian is recognised as one; what it returns is
 * validated with AJV.
 *
 * **Free-text fallback**, for servers and models that cannot answer in JSON:
 * - a reply that is not JSON at all is taken as a free-text answer (`format: "text"`), refused
 *   when it starts with the refusal sentence of the prompt;
 * - a server that rejects the JSON response format (HTTP 400, 404, 415, 422 or 501 naming
 *   `response_format`, JSON or a schema) is asked again without it, and this answerer asks in free
 *   text from then on (`structured: false` does so from the start).
 * Either way the trace says so. A reply that is JSON but breaks the schema is a failed answer, with
 * AJV's problems: guessing what it meant would be a made-up answer.
 *
 * A failed call (after retries, or a timeout) is an error with an empty answer, never a refusal.
 * So is a completion with no text (only whitespace, or nothing: a content filter, a length stop
 * before any text, a tool call): an empty answer is not an answer the model gave.
 */
import { aiSdk } from "../ai-sdk.js";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { callWithPolicy } from "../call-policy.js";
import { errorLine } from "../errors.js";
import { ASK_PROMPT_PATH, promptText } from "../prompts.js";
import { passageBody } from "../store/indexer.js";
import type { AskSource } from "../types.js";
import { ANSWER_SCHEMA, type StructuredAnswer, structuredAnswerProblems } from "./answer-schema.js";
import { type Answer, type Answerer, type AnswerRequest, EVIDENCE_THRESHOLD } from "./answerer.js";
import { isRefusal, REFUSAL } from "./citations.js";

export interface ModelAnswererOptions {
  /** Ask for the structured answer (JSON). @default true */
  structured?: boolean;
}

/** What one call returned: the parsed answer, or free text, with what the trace records. */
type Reply =
  | { format: "structured"; value: unknown; raw: string; finishReason: unknown; usage: unknown }
  | { format: "text"; text: string; finishReason: unknown; usage: unknown; note?: string };

export class ModelAnswerer implements Answerer {
  readonly id: string;
  readonly evidenceThreshold = EVIDENCE_THRESHOLD.model;
  private structured: boolean;

  constructor(
    private readonly model: LanguageModelV3,
    options: ModelAnswererOptions = {},
  ) {
    this.id = `${model.provider}/${model.modelId}`;
    this.structured = options.structured ?? true;
  }

  async answer({ question, sources, policy, headers }: AnswerRequest): Promise<Answer> {
    const input = { answerer: this.id, prompt: "prompts/ask.md", question, sources: sources.length };
    let reply: Reply;
    try {
      reply = await this.ask(askPrompt(question, sources), policy, headers);
    } catch (error) {
      const message = `answer model ${this.id} failed: ${errorLine(error)}`;
      return { text: "", error: message, trace: { input: { answerer: this.id, question }, output: { error: message }, note: message } };
    }
    const output = { format: reply.format, finishReason: reply.finishReason, usage: reply.usage };
    if (reply.format === "structured") {
      const problems = structuredAnswerProblems(reply.value);
      const value = reply.value as StructuredAnswer;
      const text = problems.length === 0 ? value.answer.trim() : "";
      if (problems.length > 0 || (text === "" && !value.refused)) {
        const why =
          reply.value === undefined
            ? "JSON that does not parse"
            : problems.length > 0
              ? `JSON that breaks the answer schema (${problems.slice(0, 3).join("; ")})`
              : "an empty answer";
        const message = `answer model ${this.id} returned ${why}`;
        return { text: "", error: message, trace: { input, output: { ...output, raw: clip(reply.raw), error: message }, note: message } };
      }
      const { refused, citations } = value;
      return {
        text: refused && text === "" ? REFUSAL : text,
        format: "structured",
        ...(refused ? { refusal: "model" as const } : { citations }),
        trace: { input, output: { ...output, answer: text, refused, citations } },
      };
    }
    const text = reply.text.trim();
    if (text === "") {
      const message = `answer model ${this.id} returned no text (finish reason: ${String(reply.finishReason)})`;
      return {
        text: "",
        error: message,
        trace: { input: { answerer: this.id, question }, output: { ...output, error: message }, note: message },
      };
    }
    return {
      text,
      format: "text",
      ...(isRefusal(text) ? { refusal: "model" as const } : {}),
      trace: { input, output: { ...output, text }, ...(reply.note ? { note: reply.note } : {}) },
    };
  }

  /** One answer call: structured when this answerer still asks for it, else free text. */
  private async ask(prompt: string, policy: AnswerRequest["policy"], headers: Record<string, string> | undefined): Promise<Reply> {
    const ai = await aiSdk();
    const common = { model: this.model, system: promptText(ASK_PROMPT_PATH), prompt, temperature: 0, ...(headers ? { headers } : {}) };
    const freeText = async (note?: string): Promise<Reply> => {
      const r = await callWithPolicy(policy, (settings) => ai.generateText({ ...common, ...settings }));
      return { format: "text", text: r.text, finishReason: r.finishReason, usage: r.usage, ...(note ? { note } : {}) };
    };
    if (!this.structured) return freeText();
    // The SDK validates the parsed object against the schema; our own AJV check in answer() names the problems.
    const schema = ai.jsonSchema<StructuredAnswer>(ANSWER_SCHEMA as never, {
      validate: (value) => ({ success: true, value: value as StructuredAnswer }),
    });
    try {
      const r = await callWithPolicy(policy, (settings) =>
        ai.generateText({ ...common, output: ai.Output.object({ schema, name: "answer" }), ...settings }),
      );
      // No output at all (a length stop or a content filter before any text): nothing was answered.
      if (r.text.trim() === "") return { format: "text", text: "", finishReason: r.finishReason, usage: r.usage };
      return { format: "structured", value: r.output, raw: r.text, finishReason: r.finishReason, usage: r.usage };
    } catch (error) {
      if (ai.NoObjectGeneratedError.isInstance(error)) {
        const text = error.text ?? "";
        // Prose is a free-text answer; JSON cut short (a length stop) or broken is not an answer.
        if (!attemptsJson(text))
          return {
            format: "text",
            text,
            finishReason: error.finishReason,
            usage: error.usage,
            note: "the model answered in free text, not the JSON asked for",
          };
        return { format: "structured", value: tryParse(text), raw: text, finishReason: error.finishReason, usage: error.usage };
      }
      if (ai.APICallError.isInstance(error) && rejectsJsonFormat(error)) {
        this.structured = false;
        return freeText(
          `the server refused the JSON response format (HTTP ${error.statusCode}); asked again in free text, and will from now on`,
        );
      }
      throw error;
    }
  }
}

/** A server error that says it cannot do the JSON response format. */
function rejectsJsonFormat(error: { statusCode?: number; message: string; responseBody?: string }): boolean {
  if (![400, 404, 415, 422, 501].includes(error.statusCode ?? 0)) return false;
  return /response_format|json_schema|json mode|structured output|\bjson\b|schema/i.test(`${error.message} ${error.responseBody ?? ""}`);
}

/** Text that starts like a JSON object or array (bare, or in a Markdown code fence). */
function attemptsJson(text: string): boolean {
  return /^\s*(?:```(?:json)?\s*)?[{[]/.test(text);
}

/** The parsed JSON, or `undefined` (which then fails the schema check with its problem named). */
function tryParse(text: string): unknown {
  try {
    return JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  } catch {
    return undefined;
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** The user message of an answer call: the question, then each source inside delimiters. */
export function askPrompt(question: string, sources: readonly AskSource[]): string {
  const neutralize = (text: string): string => text.replace(/<\/?source\b/gi, (m) => m.replace("<", "‹"));
  const blocks = sources.map(
    (s) =>
      `<source ref="${s.ref}" doc="${s.docId}" title="${neutralize(s.title).replace(/"/g, "'")}">\n${neutralize(passageBody(s.heading, s.text))}\n</source>`,
  );
  return `Question: ${question}\n\nSources:\n${blocks.join("\n")}`;
}
