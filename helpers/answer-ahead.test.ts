import type { AskResponse, Preset } from "@hybrid-search/target-contract/types";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import { ANSWER_THREADS_MIN_ASKS, answersAhead, askAnswersAhead, orOwn, threadsPay } from "./answer-ahead.js";
import { askOnce, askRequest } from "./ask-task.js";
import type { AskCase } from "./fixture-files.js";
import { trialHeader } from "./run-cache.js";
import type { SuiteFingerprint } from "./setup-db.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import type { Reply, Target, TargetAsk } from "./targets/target.js";

const cases = ["a1", "a2", "a3"].map((id) => ({ id, question: `question ${id}` }) as unknown as AskCase);

/** An answer that names the request it answers and who answered it. */
const answer = (who: string, request: TargetAsk): Reply<AskResponse> => ({
  message: { answer: `${who}: ${request.id} ${JSON.stringify(request.headers)}`, citations: [], refused: false, sources: [] },
  clientMs: 1,
  serverMs: null,
});

/** The in-process target, whose own `ask` must not be called for a question asked ahead. */
function inProcess(name: string) {
  const own: TargetAsk[] = [];
  const target = {
    name,
    kind: "in-process",
    label: name,
    ask: async (request: TargetAsk) => {
      own.push(request);
      return answer("own", request);
    },
  } as unknown as Target;
  const measured: MeasuredTarget = { target, fingerprint: { corpusHash: name } as unknown as SuiteFingerprint };
  return { measured, own };
}

/** A thread's ask: records what it is asked and answers at once. */
function thread(who: string) {
  const asked: string[] = [];
  const ask = async (request: TargetAsk) => {
    asked.push(`${request.id}@${request.headers?.["x-eval-trial"]}`);
    return answer(who, request);
  };
  return { ask, asked };
}

describe("askAnswersAhead", () => {
  it("asks each question once per preset and trial, in order, the threads taking turns; a case then finds that answer", async () => {
    const { measured, own } = inProcess("ahead-1");
    const [t1, t2] = [thread("t1"), thread("t2")];
    expect(askAnswersAhead(measured, [t1.ask, t2.ask], ["balanced"], cases, 2)).toBe(6);
    expect(t1.asked).toEqual(["a1@1", "a2@1", "a3@1"]);
    expect(t2.asked).toEqual(["a1@2", "a2@2", "a3@2"]);
    // What askCase asks for trial 1 and trial 2 of a2: the threads' answers, not the target's own.
    const first = await askOnce(measured, askRequest(cases[1]!, "balanced", trialHeader(1)));
    const second = await askOnce(measured, askRequest(cases[1]!, "balanced", trialHeader(2)));
    expect(first.answer).toBe('t1: a2 {"x-eval-trial":"1"}');
    expect(second.answer).toBe('t2: a2 {"x-eval-trial":"2"}');
    // A request nobody asked ahead (a third trial) is the target's own call.
    expect((await askOnce(measured, askRequest(cases[1]!, "balanced", trialHeader(3)))).answer).toMatch(/^own: a2/);
    expect(own.map((r) => r.id)).toEqual(["a2"]);
  });

  it("a failed answer fails the case that reads it, and is not an unhandled rejection before", async () => {
    const { measured } = inProcess("ahead-2");
    const failing = async () => {
      throw new Error("answering on a worker thread failed: no such table: passages");
    };
    expect(askAnswersAhead(measured, [failing], ["slim", "quality"] as Preset[], cases.slice(0, 1), 1)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(askOnce(measured, askRequest(cases[0]!, "quality", trialHeader(1)))).rejects.toThrow(/no such table: passages/);
  });
});

describe("orOwn", () => {
  const request = { id: "a1", question: "question a1", preset: "balanced", headers: trialHeader(1) } as TargetAsk;
  const own = async (r: TargetAsk) => answer("own", r);
  const failing = async (): Promise<Reply<AskResponse>> => {
    throw new Error("answering on a worker thread failed: the worker exited (code 1) before it answered");
  };

  it("answers on this thread once the thread behind it has failed, and says so once", async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    try {
      const died = new Error("answering on a worker thread failed: the worker exited (code 1) before it answered");
      const ask = orOwn(failing, () => died, own);
      expect((await ask(request)).message.answer).toMatch(/^own: a1/);
      expect((await ask({ ...request, id: "a2" })).message.answer).toMatch(/^own: a2/);
    } finally {
      spy.mockRestore();
    }
    expect(written).toEqual([
      "eval: answering on a worker thread failed: the worker exited (code 1) before it answered; the answers are written on the eval worker's thread instead\n",
    ]);
  });

  it("fails a question with its own failure while the thread is up (the engine's message)", async () => {
    const engineError = async (): Promise<Reply<AskResponse>> => {
      throw new Error("answering on a worker thread failed: evidenceThreshold must be between 0 and 1");
    };
    await expect(orOwn(engineError, () => undefined, own)(request)).rejects.toThrow(/evidenceThreshold must be between 0 and 1/);
  });
});

describe("answersAhead", () => {
  const model = new MockLanguageModelV3();
  it("answers ahead for the engine on the suite's index with its offline components only", () => {
    expect(answersAhead({ suiteIndex: true }, {})).toBe(true);
    expect(answersAhead({ suiteIndex: true }, { modelLimits: { timeoutMs: 1000, maxRetries: 0 } })).toBe(true);
    expect(answersAhead({ suiteIndex: true }, { languageModels: { balanced: model } })).toBe(false);
    expect(answersAhead({ suiteIndex: true }, { embedder: {} as never })).toBe(false);
    // A service, a module or a recording answers for itself.
    expect(answersAhead({ suiteIndex: false }, {})).toBe(false);
  });
});

describe("threadsPay", () => {
  it("writes answers on threads from ANSWER_THREADS_MIN_ASKS answers on two cores (auto), always or never when told, and never for none", () => {
    expect(threadsPay("auto", ANSWER_THREADS_MIN_ASKS - 1, 2)).toBe(false);
    expect(threadsPay("auto", ANSWER_THREADS_MIN_ASKS, 2)).toBe(true);
    expect(threadsPay("auto", ANSWER_THREADS_MIN_ASKS, 1)).toBe(false);
    expect(threadsPay("always", 1, 1)).toBe(true);
    expect(threadsPay("never", 10_000, 8)).toBe(false);
    expect(threadsPay("always", 0, 2)).toBe(false);
  });
});
