/** `pnpm trec-eval` in process, through the command line's `main`: what it would print and return. */
import { main } from "../src/cli.js";

export interface Outcome {
  status: number;
  /** stdout, its bytes read as latin1 (trec_eval's output is bytes; the CLI writes them as latin1). */
  stdout: string;
  stderr: string;
}

export function runCommandLine(args: readonly string[]): Outcome {
  let stdout = "";
  let stderr = "";
  const status = main(args, {
    stdout: (chunk) => (stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("latin1")),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}
