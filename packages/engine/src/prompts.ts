/**
 * The engine's prompts, `packages/engine/prompts/*.md`: read from disk once per process, on first
 * use, and kept — a model call must not cost a file read, and every call of a run uses one text.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

export const ASK_PROMPT_PATH = resolve(import.meta.dirname, "../prompts/ask.md");
export const EXPAND_PROMPT_PATH = resolve(import.meta.dirname, "../prompts/expand.md");
export const AGENT_PROMPT_PATH = resolve(import.meta.dirname, "../prompts/agent.md");

const loaded = new Map<string, string>();

/** The text of the prompt file at `path`, read on the first call only. */
export function promptText(path: string): string {
  let text = loaded.get(path);
  if (text === undefined) {
    text = readFileSync(path, "utf8");
    loaded.set(path, text);
  }
  return text;
}
