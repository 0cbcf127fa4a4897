/**
 * Which shared run configurations a test file reads: every `sharedRun("<name>")` in its text. The
 * global setup runs the configurations the files of the test run declare, and vitest.config.ts's
 * sequencer runs those files after the others, while their runs are made. Kept free of imports
 * beyond node: vitest.config.ts loads it.
 */
import { readFileSync } from "node:fs";

const DECLARATION = /\bsharedRun\(\s*["'`]([^"'`]+)["'`]/g;

/** The configurations `file` declares, in the order it declares them. */
export function declaredIn(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return [...new Set([...text.matchAll(DECLARATION)].map((m) => m[1]!))];
}
