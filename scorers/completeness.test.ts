import { describe, expect, it } from "vitest";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { NotApplicableError, topicCoverageScore } from "./answer/index.js";
import { askCase, askResult, failed, mockJudge, source } from "./test-data/ask.js";
import { completenessScore } from "./completeness.js";

const SOURCES = [source(1, "it/file/cestino.md", "I file eliminati restano nel cestino per 30 giorni, poi vengono cancellati.", "it")];
const c = askCase({
  language: "it",
  question: "Per quanto resta un file nel cestino?",
  expectedTopics: ["ripristino dal cestino", "cancellazione definitiva dopo 30 giorni"],
});
// Covers the second topic in other words than the topic's: the heuristic cannot see it.
const answer = askResult("Dopo un mese il file sparisce per sempre [1].", SOURCES, { question: c.question });

const judge = mockJudge;

const promptOf = (call: LanguageModelV3CallOptions): string =>
  call.prompt
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("")))
    .join("\n");

describe("completeness (Topic coverage) with the judge", () => {
  it("the judge sees the case's expectedTopics and grades each; the score is covered ÷ topics, labeled llm-judge", async () => {
    const j = judge(
      JSON.stringify({
        reasoning: "It says the file is gone after a month; nothing on restoring.",
        topics: [
          { topic: 1, covered: false },
          { topic: 2, covered: true },
        ],
      }),
    );
    const g = await completenessScore(c, answer, { judge: j });
    expect(g).toMatchObject({ score: 0.5, metadata: { grader: "topic-coverage" } });
    expect(g.metadata).toMatchObject({
      method: "llm-judge",
      status: "scored",
      judgeModel: "mock/judge-1",
      topics: [
        { topic: "ripristino dal cestino", covered: false },
        { topic: "cancellazione definitiva dopo 30 giorni", covered: true },
      ],
    });
    const prompt = promptOf(j.doGenerateCalls[0]!);
    expect(prompt).toContain('<topic n="1">ripristino dal cestino</topic>');
    expect(prompt).toContain('<topic n="2">cancellazione definitiva dopo 30 giorni</topic>');
    // The lexical heuristic misses the paraphrase.
    expect(topicCoverageScore(c, answer).score).toBe(0);
  });

  it("a judgment that skips or repeats a topic is retried, then the heuristic stands in, labeled", async () => {
    const bad = JSON.stringify({
      reasoning: "x",
      topics: [
        { topic: 1, covered: true },
        { topic: 1, covered: true },
      ],
    });
    const g = await completenessScore(c, answer, { judge: judge(bad) });
    expect(g.metadata).toMatchObject({ method: "heuristic", fallbackFrom: "llm-judge", attempts: 2 });
    expect(String(g.metadata.judgeError)).toMatch(/must judge each of topics 1, 2 once/);
    expect(g.score).toBe(topicCoverageScore(c, answer).score);
  });

  it("without a judge it is the heuristic; a failed answer scores 0 labeled failed; a case without topics throws", async () => {
    expect(await completenessScore(c, answer)).toEqual(topicCoverageScore(c, answer));
    const j = judge("{}");
    expect((await completenessScore(c, failed(SOURCES), { judge: j })).metadata.status).toBe("failed");
    expect(j.doGenerateCalls).toHaveLength(0);
    await expect(completenessScore(askCase(), answer, { judge: j })).rejects.toBeInstanceOf(NotApplicableError);
  });
});
