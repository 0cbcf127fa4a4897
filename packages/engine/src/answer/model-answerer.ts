/**
 * A preset's language model behind the `Answerer` seam: `generateText` at temperature 0 under the
 * call policy, with the system prompt of `prompts/ask.md` (read once per process) and the sources
 * delimited as untrusted data. An answer that starts with the refusal sentence is a refusal; a
 * failed call (after retries, or a timeout) is an error with an empty answer, never a refusal. So is
 * a completion with no text (only whitespace, or nothing: a content filter, a length stop before any
 * text, a tool call): an empty answer is not an answer the model gave.
 */
import { aiSdk } from "../ai-sdk.js";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { callWithPolicy } from "../call-policy.js";
import { errorLine } from "../errors.js";
import { ASK_PROMPT_PATH, promptText } from "../prompts.js";
import { passageBody } from "../store/indexer.js";
import type { AskSource } from "../types.js";
import { type Answer, type Answerer, type AnswerRequest, EVIDENCE_THRESHOLD } from "./answerer.js";
import { isRefusal } from "./citations.js";

export class ModelAnswerer implements Answerer {
  readonly id: string;
  readonly evidenceThreshold = EVIDENCE_THRESHOLD.model;

  constructor(private readonly model: LanguageModelV3) {
    this.id = `${model.provider}/${model.modelId}`;
  }

  async answer({ question, sources, policy, headers }: AnswerRequest): Promise<Answer> {
    try {
      const { generateText } = await aiSdk();
      const result = await callWithPolicy(policy, (settings) =>
        generateText({
          model: this.model,
          system: promptText(ASK_PROMPT_PATH),
          prompt: askPrompt(question, sources),
          temperature: 0,
          ...settings,
          ...(headers ? { headers } : {}),
        }),
      );
      const text = result.text.trim();
      if (text === "") {
        const message = `answer model ${this.id} returned no text (finish reason: ${result.finishReason})`;
        return {
          text: "",
          error: message,
          trace: {
            input: { answerer: this.id, question },
            output: { error: message, finishReason: result.finishReason, usage: result.usage },
            note: message,
          },
        };
      }
      return {
        text,
        ...(isRefusal(text) ? { refusal: "model" as const } : {}),
        trace: {
          input: { answerer: this.id, prompt: "prompts/ask.md", question, sources: sources.length },
          output: { text, finishReason: result.finishReason, usage: result.usage },
        },
      };
    } catch (error) {
      const message = `answer model ${this.id} failed: ${errorLine(error)}`;
      return { text: "", error: message, trace: { input: { answerer: this.id, question }, output: { error: message }, note: message } };
    }
  }
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
