/**
 * External labelled items (`pnpm eval:calibrate --items`, packages/eval-gate/src/labelled-items.ts)
 * as what the judged metrics grade: each item becomes an answer case (its id, question, language
 * and reference answer) and an answer (its text, with the contexts as numbered sources [1], [2], …
 * in the item's order), then every method scores it as it scores a fixture answer
 * (calibration-run.ts, `judgeEach`).
 *
 * - **Language**: the item's `language`, else the one grading knows whose function words the
 *   question, answer and contexts use most (scorers/text/overlap.ts, `guessLanguage`); none found,
 *   words are matched as written.
 * - **Refusals**: whether the answer refuses is read from the suite's refusal markers alone
 *   (fixtures/refusal-markers.json, scorers/refusal.ts), never by a model, so that the heuristic's
 *   scores of an item depend on nothing but the item.
 */
import { createHash } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { ITEM_PRESET, type ItemsFile, itemsFrom, type LabelledItem } from "@hybrid-search/eval-gate/labelled-items";
import { answerSha } from "@hybrid-search/eval-gate/labels";
import type { AskCase } from "../../scorers/ask-case.js";
import { type RecognizedAnswer, recognizeRefusal } from "../../scorers/refusal.js";
import { citationRefs } from "../../scorers/text/citations.js";
import { guessLanguage } from "../../scorers/text/overlap.js";
import type { AskResponse, Source } from "@hybrid-search/target-contract/types";
import { loadRefusalMarkers } from "../../helpers/fixture-files.js";
import { parseJsonl, readText } from "../../helpers/input-files/read.js";
import { observedAnswer } from "../../helpers/targets/observe.js";
import { type JudgedLabels, judgeEach, type ToJudge } from "./calibration-run.js";

/** The answerer an item's answer is labelled with: nobody the suite ran. */
export const ITEM_ANSWERER = "external/labelled-item";

/**
 * An items file (`pnpm eval:calibrate --items <file.jsonl>`) through the suite's one reader of a
 * person's files — UTF-8 checked, each line's JSON object with its line and column — then the
 * items' own checks (packages/eval-gate/src/labelled-items.ts).
 */
export function readItemsFile(path: string, shown: string): ItemsFile {
  const text = readText(path, { shown });
  return itemsFrom(parseJsonl(text, shown, { records: "object" }), shown, createHash("sha256").update(text).digest("hex"));
}

/**
 * An item as an answer case and its answer (module comment): the answer enters as a recorded
 * answer does, through the suite's one normaliser (helpers/targets/observe.ts), so what an item
 * does not give — titles, a time, a trace — stays absent.
 */
export async function itemAnswer(item: LabelledItem, markers = loadRefusalMarkers()): Promise<{ case: AskCase; answer: RecognizedAnswer }> {
  const language = item.language ?? guessLanguage([item.question, item.answer, ...item.contexts].join("\n"));
  const sources: Source[] = item.contexts.map((text, i) => ({
    ref: i + 1,
    docId: `context ${i + 1}`,
    passageId: `context ${i + 1}`,
    text,
    ...(language ? { language } : {}),
  }));
  const refs = citationRefs(item.answer);
  const c: AskCase = {
    id: item.id,
    question: item.question,
    ...(language ? { language } : {}),
    ...(item.reference !== undefined ? { referenceAnswer: item.reference } : {}),
  };
  const message: AskResponse = {
    answer: item.answer,
    refused: false,
    citations: refs
      .filter((r) => r >= 1 && r <= sources.length)
      .map((ref) => ({ ref, docId: `context ${ref}`, passageId: `context ${ref}` })),
    sources,
  };
  const result = observedAnswer(item.question, { message, clientMs: null, serverMs: null }, ITEM_ANSWERER);
  const refusalCheck = await recognizeRefusal(result, markers);
  return { case: c, answer: { ...result, refused: refusalCheck.refused, refusalCheck } };
}

/** Every method's and reference row's scores of every labelled metric of every item (each distinct id once). */
export async function judgeItems(
  file: ItemsFile,
  options: { judge: LanguageModelV3 | undefined; timeoutMs: number; trials: number },
): Promise<JudgedLabels> {
  const markers = loadRefusalMarkers();
  const wanted = new Map<string, ToJudge>();
  for (const item of file.items) {
    const { case: c, answer } = await itemAnswer(item, markers);
    for (const metric of Object.keys(item.labels)) {
      const key = `${metric}\u0000${item.id}`;
      if (wanted.has(key)) continue;
      wanted.set(key, {
        metric,
        case: c,
        answer,
        preset: ITEM_PRESET,
        sha: answerSha(item.answer),
        plain: {
          question: item.question,
          answer: item.answer,
          contexts: item.contexts,
          ...(item.reference !== undefined ? { reference: item.reference } : {}),
        },
      });
    }
  }
  return judgeEach([...wanted.values()], options);
}
