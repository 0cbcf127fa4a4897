import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AskResult, AskThread } from "../src/index.js";
import { smallCorpusEngine } from "./helpers.js";

// An AskThread answers on a worker thread what the Engine on the same index answers on its own
// thread: the same answers, citations, sources and trace, timed on the thread.

const setup = smallCorpusEngine();

const QUESTIONS = [
  "How long does the Free plan keep deleted files?",
  "Wie kann ich mein Abonnement kündigen?",
  "What does max_parallel_uploads limit?",
  "What is the boiling point of tungsten?",
];

/** Timings: the only part of two answers to one question that may differ (the trace's stages have start and end instants). */
const TIMINGS = new Set(["elapsedMs", "start", "end"]);

/** An answer without its timings. */
function untimed(result: AskResult): unknown {
  return JSON.parse(JSON.stringify(result, (key, value) => (TIMINGS.has(key) ? undefined : value)));
}

describe("AskThread", () => {
  it("answers every question as the engine does, in the order asked", async () => {
    const thread = AskThread.open(join(setup.dir, "index.db"));
    try {
      const finished: number[] = [];
      const asked = QUESTIONS.map((question, i) =>
        thread.ask(question, { preset: "balanced", headers: { "x-eval-trial": "1" } }).then((result) => {
          finished.push(i);
          return result;
        }),
      );
      const answers = await Promise.all(asked);
      expect(finished).toEqual([0, 1, 2, 3]);
      for (const [i, question] of QUESTIONS.entries()) {
        const own = await setup.engine.ask(question, { preset: "balanced" });
        expect(untimed(answers[i]!)).toEqual(untimed(own));
        expect(answers[i]!.elapsedMs).toBeGreaterThan(0);
      }
      // The set holds both kinds of answer, so the comparison covers a refusal and a cited answer.
      expect(answers.map((a) => a.refused)).toContain(true);
      expect(answers.some((a) => a.citations.length > 0)).toBe(true);
    } finally {
      await thread.close();
    }
  }, 60_000);

  it("fails a question the engine refuses with the engine's message, and answers the next", async () => {
    const thread = AskThread.open(join(setup.dir, "index.db"));
    const invalid = { evidenceThreshold: 7 };
    try {
      const own = await setup.engine.ask(QUESTIONS[0]!, invalid).then(
        () => "answered",
        (error: Error) => error.message,
      );
      expect(own).not.toBe("answered");
      const failing = thread.ask(QUESTIONS[0]!, invalid);
      const next = thread.ask(QUESTIONS[0]!, {});
      await expect(failing).rejects.toThrow(`answering on a worker thread failed: ${own}`);
      expect(untimed(await next)).toEqual(untimed(await setup.engine.ask(QUESTIONS[0]!, {})));
    } finally {
      await thread.close();
    }
  }, 60_000);

  it("rejects every question, waiting or later, when the index cannot be opened; close() ends it", async () => {
    const missing = AskThread.open(join(setup.dir, "no-such-folder", "index.db"));
    await expect(missing.ask(QUESTIONS[0]!)).rejects.toThrow(/^answering on a worker thread failed: /);
    await expect(missing.ask(QUESTIONS[1]!)).rejects.toThrow(/^answering on a worker thread failed: /);
    expect(missing.failed).toBeInstanceOf(Error);
    await missing.close();

    const closed = AskThread.open(join(setup.dir, "index.db"));
    const pending = expect(closed.ask(QUESTIONS[0]!)).rejects.toThrow(/closed before it answered/);
    await closed.close();
    await pending;
    await expect(closed.ask(QUESTIONS[1]!)).rejects.toThrow(/closed before it answered/);
  }, 60_000);
});

describe("the compiled worker (dist/, as the CLIs and pnpm eval run it)", () => {
  it("keeps a process alive while a question waits for its answer, and lets it exit when idle", () => {
    // A script that awaits one answer and never closes the thread: it prints the answer and exits.
    const compiledModule = new URL("../dist/answer/ask-thread.js", import.meta.url).href;
    const script = `import { AskThread } from ${JSON.stringify(compiledModule)};
const thread = AskThread.open(${JSON.stringify(join(setup.dir, "index.db"))});
const result = await thread.ask(${JSON.stringify(QUESTIONS[0])});
console.log(JSON.stringify({ answered: result.answer.length > 0 }));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('{"answered":true}');
  }, 60_000);

  it("answers as the sources do", async () => {
    // test/build-clis.ts (the global setup) has built dist/ from these sources.
    const compiledModule = new URL("../dist/answer/ask-thread.js", import.meta.url).href;
    const compiled = (await import(compiledModule)) as typeof import("../src/answer/ask-thread.js");
    const thread = compiled.AskThread.open(join(setup.dir, "index.db"));
    try {
      expect(untimed(await thread.ask(QUESTIONS[0]!))).toEqual(untimed(await setup.engine.ask(QUESTIONS[0]!)));
    } finally {
      await thread.close();
    }
  }, 60_000);
});
