/**
 * One shape for every system: the same answer, given by each kind of target — the in-process
 * engine's `ask`, a service over HTTP, a target module, a recording — enters the suite through
 * the same normaliser (helpers/targets/observe.ts) and gets the same scores; a value none of them
 * gave is not scored, with one reason, whatever the kind.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskResponse } from "@hybrid-search/target-contract/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineAsk } from "../helpers/targets/kinds/in-process.js";
import { openHttpTarget } from "../helpers/targets/http-target.js";
import { moduleTargetConfig } from "../helpers/targets/module-config.js";
import { openModuleTarget } from "../helpers/targets/module-target.js";
import { observedAnswer } from "../helpers/targets/observe.js";
import { ANSWERS_FILE, openRecordedTarget } from "../helpers/targets/recorded-target.js";
import type { Reply, TargetAsk } from "../helpers/targets/target.js";
import { allGraders, askCase } from "../scorers/test-data/ask.js";
import { latencyBudget } from "../scorers/latency.js";
import { NO_SOURCE_TEXT, NO_TIME, type ObservedAnswer } from "../scorers/observed.js";
import { triadScore } from "../scorers/triad/index.js";
import { questionVerdict } from "../scorers/verdict.js";
import { bodyOf, listen, type Running, sendJson } from "./stand-ins/serve.js";

const QUESTION = "How many recovery codes do I get?";
const REQUEST: TargetAsk = { id: "a-1", question: QUESTION, preset: "balanced" };
/** An answer as any system might give it: no time, no answerer, no evidence, one cited source with its text. */
const GIVEN: AskResponse = {
  answer: "Tessera creates 10 recovery codes [1]. Each code works once [1].",
  citations: [{ ref: 1, docId: "en/security/two-factor-authentication.md" }],
  refused: false,
  sources: [
    {
      ref: 1,
      docId: "en/security/two-factor-authentication.md",
      title: "Two-factor authentication",
      text: "When you turn on two-factor authentication, Tessera creates 10 recovery codes. Each code works once.",
      language: "en",
    },
  ],
};
const CASE = askCase({ expectedSubstrings: ["10"], mustCite: ["en/security/two-factor-authentication.md"] });

const work = mkdtempSync(join(tmpdir(), "one-shape-"));
let service: Running;
/** What each kind of target replied to the same question: the same message, each with its own times. */
const replies = new Map<string, Reply<AskResponse>>();

beforeAll(async () => {
  service = await listen(async (req, res) => {
    await bodyOf(req);
    if (req.url === "/health")
      return sendJson(res, 200, {
        name: "stand-in",
        version: "1",
        fingerprint: "stand-in-corpus",
        capabilities: { modes: [], ask: true, expand: false, documents: false, trace: false },
      });
    return sendJson(res, 200, GIVEN);
  });
  const named = (name: string) => name;
  const http = await openHttpTarget({ url: service.url, timeoutMs: 5000, retries: 0, concurrency: 1 }, named);
  replies.set("http", await http.ask(REQUEST));

  const moduleFile = join(work, "answers.target.ts");
  writeFileSync(
    moduleFile,
    `import { defineTarget } from "@hybrid-search/target-contract/define-target";\nexport default defineTarget({ name: "answers", ask: () => (${JSON.stringify(GIVEN)}) });\n`,
  );
  const module = await openModuleTarget(moduleTargetConfig(moduleFile, {}), named);
  replies.set("module", await module.ask(REQUEST));

  writeFileSync(join(work, ANSWERS_FILE), `${JSON.stringify({ id: REQUEST.id, ...GIVEN })}\n`);
  replies.set("recorded", await openRecordedTarget(work, new Set(), "recorded", named).ask(REQUEST));

  // The in-process target's ask, over an engine that gives this answer.
  replies.set("in-process", await engineAsk({ ask: async () => GIVEN as never })(REQUEST));
}, 60_000);
afterAll(async () => {
  await service?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Every score the answer suites give an answer, by name: the graders, the triad, the question's verdict. */
async function scores(answer: ObservedAnswer): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [id, grade] of allGraders()) {
    try {
      const g = grade(CASE, answer);
      out[id] = [g.score, g.metadata.status];
    } catch {
      out[id] = "not applicable";
    }
  }
  for (const metric of ["context-relevance", "faithfulness", "answer-relevance"] as const) {
    const g = await triadScore(metric, CASE, answer);
    out[metric] = [g.score, g.metadata.status, g.metadata.method];
  }
  const verdict = await questionVerdict(CASE, answer);
  out.verdict = [verdict.pass, verdict.failed];
  return out;
}

const latency = latencyBudget<unknown, ObservedAnswer, unknown>(2000);
const latencyOf = async (answer: ObservedAnswer) => latency({ input: {}, output: answer, expected: {} } as never);

describe("the same answer from every kind of target", () => {
  it("gets identical scores: graders, RAG triad and the question's verdict", async () => {
    expect([...replies.keys()].sort()).toEqual(["http", "in-process", "module", "recorded"]);
    const all = await Promise.all([...replies].map(async ([kind, reply]) => [kind, await scores(observedAnswer(QUESTION, reply, kind))]));
    const [first, ...rest] = all;
    for (const [kind, s] of rest) expect(s, `${kind} against ${first![0]}`).toEqual(first![1]);
    // Not vacuous: the answer passes its facts and citations and is judged on its source.
    expect(first![1]).toMatchObject({ "answer-includes": [1, "scored"], cites: [1, "scored"], verdict: [true, []] });
    expect((first![1] as Record<string, unknown[]>).faithfulness![1]).toBe("scored");
  });

  it("keeps what the target left out out: no answerer (the target is named instead), no evidence, no NaN", () => {
    for (const [kind, reply] of replies) {
      const observed = observedAnswer(QUESTION, reply, `label of ${kind}`);
      expect(observed.answerer).toBe(`label of ${kind}`);
      expect(observed).not.toHaveProperty("evidence");
      expect(observed.invalidCitations).toEqual([]);
      expect(JSON.stringify(observed)).not.toMatch(/NaN|null,"threshold"/);
    }
  });
});

describe("a call's time the target did not give", () => {
  it("is the suite's measurement around the call when the suite made one (HTTP, module, in-process), labelled so", async () => {
    for (const kind of ["http", "module", "in-process"]) {
      const observed = observedAnswer(QUESTION, replies.get(kind)!, kind);
      expect(observed.timedBy, kind).toBe("client");
      expect(observed.elapsedMs, kind).toBeGreaterThanOrEqual(0);
      expect((await latencyOf(observed)).metadata, kind).not.toHaveProperty("status");
    }
  });

  it("is unknown when there is no call to time (a recording), and the same reason for every kind with no time at all", async () => {
    const recorded = observedAnswer(QUESTION, replies.get("recorded")!, "recorded");
    expect([recorded.elapsedMs, recorded.timedBy]).toEqual([null, null]);
    const reasons = new Set<unknown>();
    for (const [kind, reply] of replies) {
      // The same reply with no time anywhere: what a recording is, and what any kind would be without the suite's clock.
      const untimed = observedAnswer(QUESTION, { ...reply, clientMs: null, serverMs: null }, kind);
      const score = await latencyOf(untimed);
      expect(score, kind).toMatchObject({ score: 0, metadata: { status: "unknown", reason: NO_TIME } });
      reasons.add((score.metadata as { reason?: unknown }).reason);
    }
    expect([...reasons]).toEqual([NO_TIME]);
    // A recording that carries its time is scored with it, as the target's own.
    const carried = observedAnswer(QUESTION, { ...replies.get("recorded")!, message: { ...GIVEN, elapsedMs: 480 } }, "recorded");
    expect([carried.elapsedMs, carried.timedBy]).toEqual([480, "target"]);
    expect((await latencyOf(carried)).score).toBe(1);
  });
});

describe("an answer whose sources carry no text", () => {
  it("is not scored by faithfulness or context relevance, with the reason, for no sources and for ids only; answer relevance still is", async () => {
    for (const sources of [[], [{ ref: 1, docId: "en/security/two-factor-authentication.md" }]]) {
      const reply = { ...replies.get("http")!, message: { ...GIVEN, sources } };
      const answer = observedAnswer(QUESTION, reply, "http");
      for (const metric of ["faithfulness", "context-relevance"] as const)
        expect(await triadScore(metric, CASE, answer), `${metric} with ${sources.length} source(s)`).toMatchObject({
          score: 0,
          metadata: { status: "unknown", reason: NO_SOURCE_TEXT },
        });
      expect((await triadScore("answer-relevance", CASE, answer)).metadata.status).toBe("scored");
    }
  });
});
