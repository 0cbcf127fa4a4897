/**
 * Is this answer a refusal? The engine knows for certain when it refused on evidence or the
 * extractive answerer found no sentence, and a structured answer says so itself (`refused`, in any
 * language). Only a **free-text** answer (`answerFormat: "text"`: a server that cannot answer in
 * JSON) has to be read, and it is read with refusal phrases per language
 * (`fixtures/refusal-markers.json`, which users extend): a phrase anywhere in the answer, matched
 * as a fact is (text/contains-fact.ts: grading form, starting a word; citation markers removed),
 * checked in every language, since a model may refuse in another language than the question's.
 *
 * Markers are certain enough when the answer agrees with them: a refusal phrase and no citation,
 * or citations and no phrase. The rest is **ambiguous** — a refusal phrase next to a citation ("the
 * documents do not contain the phone number, but you can write to … [2]"), or neither a phrase nor
 * a citation (a refusal worded some other way, or an unsupported answer). With a judge configured
 * the judge decides those and the recognition says so (`method: "llm-judge"`, its reasoning); a
 * judge that fails twice leaves the markers' decision, labeled (`fallbackFrom: "llm-judge"`).
 * Without a judge the markers decide, and `ambiguous` says why they were unsure.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ObservedAnswer } from "./observed.js";
import { stripCitationMarkers } from "./text/citations.js";
import { factsIn } from "./text/contains-fact.js";
import { askJudge, DATA_RULE, escapeData, judgeId } from "./judge-call.js";
import type { RefusalRecognition } from "./refusal-check.js";

export type { RecognizedAnswer, RefusalMethod, RefusalRecognition } from "./refusal-check.js";
export { isRefused } from "./refusal-check.js";

/** Language tag → refusal phrases (the `markers` of fixtures/refusal-markers.json). */
export type RefusalMarkers = Readonly<Record<string, readonly string[]>>;

/** The first refusal phrase the answer contains, with its language; null when none does. */
export function refusalMarkerIn(answer: string, markers: RefusalMarkers): { language: string; text: string } | null {
  const contains = factsIn(stripCitationMarkers(answer));
  for (const [language, phrases] of Object.entries(markers)) {
    for (const phrase of phrases) if (contains(phrase)) return { language, text: phrase };
  }
  return null;
}

/** The recognition that needs no judge: certain for the engine's own refusals and structured answers, markers for free text. */
export function recognizeByMarkers(result: ObservedAnswer, markers: RefusalMarkers): RefusalRecognition {
  if (result.refusal === "insufficient-evidence") return { refused: true, method: "evidence-gate" };
  if (result.answerFormat === undefined) return { refused: result.refused, method: "extractive" };
  if (result.answerFormat === "structured" || result.error !== undefined) return { refused: result.refused, method: "structured" };
  const marker = refusalMarkerIn(result.answer, markers);
  const cites = result.citations.length > 0;
  const recognition: RefusalRecognition = { refused: marker !== null, method: "markers", ...(marker ? { marker } : {}) };
  if (marker && cites)
    recognition.ambiguous = `a refusal phrase (${JSON.stringify(marker.text)}) next to citations [${result.citations.map((c) => c.ref).join(", ")}]`;
  if (!marker && !cites) recognition.ambiguous = "no refusal phrase, and no citation of a retrieved source";
  return recognition;
}

export interface RecognizeOptions {
  /** Decides ambiguous free-text answers; without one the markers decide. */
  judge?: LanguageModelV3;
  headers?: Record<string, string>;
  /** Time allowed per judge attempt. @default 45000 */
  timeoutMs?: number;
}

const REFUSAL_SCHEMA = {
  type: "object",
  properties: {
    reasoning: { type: "string", description: "What the answer says about the question, in one or two sentences." },
    refused: { type: "boolean", description: "true when the answer declines to answer or says the sources do not contain the answer." },
  },
  required: ["reasoning", "refused"],
  additionalProperties: false,
} as const;

export const REFUSAL_JUDGE_SYSTEM = [
  "You decide whether an answer of a question-answering system is a refusal.",
  "A refusal declines to answer, or says that the documents or sources do not contain the answer, in any language and in any words.",
  "An answer that gives the asked-for information, or corrects a false premise of the question and gives what the sources say, is not a refusal, even when it also says that something is not in the documents.",
  DATA_RULE,
].join("\n");

/** The recognition, with the judge deciding what markers cannot. Never throws for a judge failure. */
export async function recognizeRefusal(
  result: ObservedAnswer,
  markers: RefusalMarkers,
  options: RecognizeOptions = {},
): Promise<RefusalRecognition> {
  const byMarkers = recognizeByMarkers(result, markers);
  const { judge } = options;
  if (byMarkers.ambiguous === undefined || !judge) return byMarkers;
  const outcome = await askJudge<{ reasoning: string; refused: boolean }>({
    judge,
    schema: REFUSAL_SCHEMA,
    name: "refusal",
    description: "Whether the answer is a refusal",
    system: REFUSAL_JUDGE_SYSTEM,
    prompt: `<question>\n${escapeData(result.question)}\n</question>\n\n<answer>\n${escapeData(result.answer)}\n</answer>`,
    problem: (value) =>
      typeof value === "object" && value !== null && typeof (value as { refused?: unknown }).refused === "boolean"
        ? null
        : "must be an object with a boolean refused",
    headers: options.headers,
    timeoutMs: options.timeoutMs ?? 45_000,
  });
  if (!outcome.ok)
    return { ...byMarkers, fallbackFrom: "llm-judge", judgeModel: judgeId(judge), judgeError: outcome.errors[outcome.errors.length - 1] };
  return {
    refused: outcome.value.refused,
    method: "llm-judge",
    ...(byMarkers.marker ? { marker: byMarkers.marker } : {}),
    ambiguous: byMarkers.ambiguous,
    reasoning: outcome.value.reasoning,
    judgeModel: judgeId(judge),
    attempts: outcome.attempts,
  };
}
