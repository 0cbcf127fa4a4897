/**
 * Agent turns (docs/engine.md, Agent turns): the offline policy drives the tool loop by its rules,
 * a scripted AI SDK model drives the same loop, and the turn trace says what happened — every
 * call with its input, output or error, duration and approval; each citation surfaced or recalled;
 * the outcome; the proposal. The step cap and the token budget always hold.
 */
import { describe, expect, it } from "vitest";
import { citedDocuments, matchCitations, surfaces } from "../src/agent/citations.js";
import { intentOf, OFFLINE_POLICY_MODEL, questionParts, topicOf } from "../src/agent/offline-policy.js";
import { Engine } from "../src/index.js";
import { scriptedAgentModel } from "../src/testing.js";
import type { TurnResult } from "../src/types.js";
import { smallCorpusEngine } from "./helpers.js";

const setup = smallCorpusEngine();

const names = (t: TurnResult) => t.steps.flatMap((s) => s.toolCalls.map((c) => c.name));

/** An engine on the same index whose balanced preset is `model`. */
function withModel(model: ReturnType<typeof scriptedAgentModel>): Engine {
  return Engine.open(setup.engine.file, { languageModels: { balanced: model } });
}

describe("the offline policy", () => {
  it("reads what a question asks for from its words alone, in four languages", () => {
    expect(intentOf("Where can I find the article about the configuration file?")).toBe("where");
    expect(intentOf("Wo finde ich die Kündigungsfrist?")).toBe("where");
    expect(intentOf("Dans quel article est décrite la résiliation ?")).toBe("where");
    expect(intentOf("Dove trovo le istruzioni?")).toBe("where");
    expect(intentOf("Please file a correction: the billing page is wrong.")).toBe("correction");
    expect(intentOf("Bitte korrigieren Sie den Artikel zur Kündigung.")).toBe("correction");
    expect(intentOf("Corrigez l'article sur la résiliation, s'il vous plaît.")).toBe("correction");
    expect(intentOf("Per favore correggi l'articolo sulla disdetta.")).toBe("correction");
    // Asking how to correct something is a question, not a request to change an article.
    expect(intentOf("How do I correct a typo in a file name?")).toBe("answer");
    expect(intentOf("How do I cancel my subscription?")).toBe("answer");
    expect(topicOf("Where can I find the article about the configuration file?", [/where can i find/i])).toBe("configuration file");
  });

  it("answers a question by searching, reading the best document and citing it; every call is traced", async () => {
    const t = await setup.engine.turn("How do I cancel my subscription?");
    expect(t.agent).toBe("offline/agent-policy-v1");
    expect(t.preset).toBeNull();
    expect(t.outcome).toBe("answered");
    expect(names(t).slice(0, 2)).toEqual(["search", "read_document"]);
    const [search] = t.steps[0]!.toolCalls;
    expect(search).toMatchObject({
      name: "search",
      status: "done",
      needsApproval: false,
      input: { query: "How do I cancel my subscription?" },
    });
    expect(search!.durationMs).toBeGreaterThan(0);
    expect((search!.output as { results: Array<{ docId: string }> }).results[0]!.docId).toBe("en/billing.md");
    expect(t.answer).toMatch(/cancel your subscription at any time.*\[doc: en\/billing\.md\]/i);
    expect(t.citations).toEqual([{ docId: "en/billing.md", surfaced: true, match: { step: 1, call: 1 } }]);
    expect(t.steps[0]!.note).toBe("search the question");
    expect(t.steps.at(-1)!.toolCalls).toEqual([]);
    expect(t.steps.at(-1)!.finishReason).toBe("stop");
    expect(t.usage.counted).toBe("estimate");
    expect(t.usage.totalTokens).toBe(t.usage.inputTokens + t.usage.outputTokens);
    expect(t.limits).toEqual({ maxSteps: 8, tokenBudget: 32000 });
    for (const s of t.steps) expect(s.end!).toBeGreaterThanOrEqual(s.start!);
  });

  it("reads a second document for the part of a question the first leaves uncovered (multi-hop)", async () => {
    expect(questionParts("How do I cancel, and where do settings live? Und was noch")).toEqual([
      "How do I cancel",
      "where do settings live",
      "was noch",
    ]);
    const t = await setup.engine.turn("How do I cancel my subscription, and which key limits parallel uploads in config.yaml?");
    expect(names(t)).toEqual(["search", "read_document", "search", "read_document"]);
    // The second search is the part of the question the first document read does not cover.
    const read = t.steps.flatMap((s) =>
      s.toolCalls.filter((c) => c.name === "read_document").map((c) => (c.input as { docId: string }).docId),
    );
    expect(new Set(read)).toEqual(new Set(["en/billing.md", "en/config.md"]));
    const second = (t.steps[2]!.toolCalls[0]!.input as { query: string }).query;
    expect(second).toBe(
      read[0] === "en/config.md" ? "How do I cancel my subscription" : "which key limits parallel uploads in config.yaml",
    );
    expect(t.outcome).toBe("answered");
    expect(new Set(t.citations.map((c) => c.docId))).toEqual(new Set(["en/billing.md", "en/config.md"]));
  });

  it("answers a where-question from the catalog", async () => {
    const t = await setup.engine.turn("Where can I find the article about the configuration file?");
    expect(names(t)).toEqual(["catalog"]);
    expect(t.outcome).toBe("answered");
    expect(t.answer).toBe('You can find it in "Configuration file" (en/config.md) [doc: en/config.md].');
    expect(t.citations).toEqual([{ docId: "en/config.md", surfaced: true, match: { step: 1, call: 1 } }]);
  });

  it("proposes a correction and stops at approval without running it", async () => {
    const t = await setup.engine.turn(
      "Please file a correction to the article about cancelling a subscription: it should say files are deleted.",
    );
    expect(t.outcome).toBe("stopped-at-approval");
    expect(names(t)).toEqual(["search", "read_document", "file_correction"]);
    const proposal = t.steps.at(-1)!.toolCalls[0]!;
    expect(proposal).toMatchObject({ name: "file_correction", status: "awaiting-approval", needsApproval: true, durationMs: 0 });
    expect(proposal.output).toBeUndefined();
    expect(t.proposal).toMatchObject({ tool: "file_correction", step: 3, input: { docId: "en/billing.md" } });
    expect(t.proposal!.summary).toMatch(/^file a correction to en\/billing\.md: /);
    expect(t.citations).toEqual([]);
  });

  it("refuses an off-corpus question without citations or an action", async () => {
    const t = await setup.engine.turn("Does the smartwatch app show heart rate zones?");
    expect(t.outcome).toBe("refused");
    expect(t.answer).toBe("The documents do not contain an answer to this question.");
    expect(t.citations).toEqual([]);
    expect(names(t)).not.toContain("file_correction");
  });

  it("never calls a tool its surface lacks: a correction request on a reading surface is answered, no proposal", async () => {
    const t = await setup.engine.turn("Please file a correction to the article about cancelling a subscription.", {
      tools: ["search", "read_document"],
    });
    expect(t.tools).toEqual(["search", "read_document"]);
    expect(names(t)).not.toContain("file_correction");
    expect(t.outcome).not.toBe("stopped-at-approval");
    // Without search it cannot look anything up: it refuses.
    const blind = await setup.engine.turn("How do I cancel my subscription?", { tools: ["catalog"] });
    expect(blind.outcome).toBe("refused");
    expect(names(blind)).toEqual([]);
  });

  it("stops at the step cap and at the token budget, and says which", async () => {
    const capped = await setup.engine.turn("How do I cancel my subscription?", { maxSteps: 1 });
    expect(capped.outcome).toBe("step-limit");
    expect(capped.steps).toHaveLength(1);
    expect(capped.answer).toBe("");
    const poor = await setup.engine.turn("How do I cancel my subscription?", { tokenBudget: 50 });
    expect(poor.outcome).toBe("budget-exhausted");
    expect(poor.usage.totalTokens).toBeGreaterThanOrEqual(50);
    expect(poor.steps.length).toBeLessThan(poor.limits.maxSteps);
  });

  it("checks its options before anything runs, naming the option", async () => {
    await expect(setup.engine.turn("q", { tools: ["search", "delete_everything" as never] })).rejects.toThrow(/"tools".*delete_everything/);
    await expect(setup.engine.turn("q", { tools: ["search", "search"] })).rejects.toThrow(/each tool once/);
    await expect(setup.engine.turn("q", { maxSteps: 0 })).rejects.toThrow(RangeError);
    await expect(setup.engine.turn("q", { tokenBudget: 1.5 })).rejects.toThrow(/"tokenBudget"/);
    await expect(setup.engine.turn("q", { maxStep: 3 } as never)).rejects.toThrow(/did you mean "maxSteps"/);
    await expect(setup.engine.turn("  ")).rejects.toThrow(/question/);
    await expect(setup.engine.turn("q", { collection: "nope" })).rejects.toThrow(/Unknown collection "nope"/);
  });
});

describe("a language model drives the same loop", () => {
  it("records calls, errors, surfaced and recalled citations, quotes; usage as the model reported it", async () => {
    const prompts: unknown[] = [];
    const model = scriptedAgentModel(
      "agent",
      [
        { calls: [{ tool: "search", input: { query: "cancel subscription", mode: "search" } }] },
        {
          calls: [
            { tool: "read_document", input: { docId: "en/billing.md" } },
            { tool: "read_document", input: { docId: "en/nowhere.md" } },
            { tool: "delete_account", input: {} },
          ],
        },
        {
          text: 'Cancel any time in Settings [doc: en/billing.md | "cancel your subscription at any time"]. Files are kept [doc: en/billing.md | "files are deleted"]. See also [doc: en/secret-roadmap.md].',
        },
      ],
      (p) => prompts.push(p),
    );
    const engine = withModel(model);
    try {
      const t = await engine.turn("How do I cancel?", { headers: { "x-test": "1" } });
      expect(t.agent).toBe("mock/agent");
      expect(t.preset).toBe("balanced");
      expect(t.outcome).toBe("answered");
      const [read, missing, unknown] = t.steps[1]!.toolCalls;
      expect(read).toMatchObject({ status: "done", name: "read_document" });
      expect(missing).toMatchObject({ status: "error", name: "read_document" });
      expect(missing!.error).toMatch(/no document "en\/nowhere\.md"/);
      expect(unknown).toMatchObject({ status: "error", name: "delete_account", needsApproval: false });
      expect(unknown!.error).toMatch(/delete_account/);
      expect(t.citations).toEqual([
        { docId: "en/billing.md", quote: "cancel your subscription at any time", surfaced: true, match: { step: 1, call: 1 } },
        { docId: "en/billing.md", quote: "files are deleted", surfaced: false },
        { docId: "en/secret-roadmap.md", surfaced: false },
      ]);
      expect(t.usage).toEqual({ inputTokens: 30, outputTokens: 15, totalTokens: 45, counted: "model" });
      // The model saw the tool results of the steps before it, errors included.
      expect(JSON.stringify(prompts[2])).toContain("no document");
    } finally {
      engine.close();
    }
  });

  it("is the preset's agent model when one is given, else its answer model; offline, the policy", async () => {
    const answers = scriptedAgentModel("answers", [{ text: "From the answer model." }]);
    const agent = scriptedAgentModel("agent", [{ text: "From the agent model [doc: en/billing.md]." }]);
    const both = Engine.open(setup.engine.file, { languageModels: { balanced: answers }, agentModels: { balanced: agent } });
    const answerOnly = Engine.open(setup.engine.file, { languageModels: { balanced: answers } });
    const agentOnly = Engine.open(setup.engine.file, { agentModels: { quality: agent } });
    // A preset given as undefined falls back like one not given.
    const unset = Engine.open(setup.engine.file, { languageModels: { balanced: answers }, agentModels: { balanced: undefined } });
    try {
      expect((await both.turn("How do I cancel?")).agent).toBe("mock/agent");
      expect(answers.doGenerateCalls).toHaveLength(0);
      expect((await answerOnly.turn("How do I cancel?")).agent).toBe("mock/answers");
      expect((await agentOnly.turn("How do I cancel?", { preset: "quality" })).agent).toBe("mock/agent");
      expect((await agentOnly.turn("How do I cancel?", { preset: "balanced" })).agent).toBe(`offline/${OFFLINE_POLICY_MODEL}`);
      expect((await unset.turn("How do I cancel?")).agent).toBe("mock/answers");
    } finally {
      for (const e of [both, answerOnly, agentOnly, unset]) e.close();
    }
  });

  it("stops at a tool that needs approval, even when a document asked for it", async () => {
    const model = scriptedAgentModel("agent", [
      { calls: [{ tool: "file_correction", input: { docId: "en/billing.md", correction: "say everything is free" } }] },
      { text: "never reached" },
    ]);
    const engine = withModel(model);
    try {
      const t = await engine.turn("What does cancelling do?");
      expect(t.outcome).toBe("stopped-at-approval");
      expect(t.steps).toHaveLength(1);
      expect(t.proposal).toMatchObject({ tool: "file_correction", step: 1 });
      expect(model.doGenerateCalls).toHaveLength(1);
    } finally {
      engine.close();
    }
  });

  it("a model that loops is stopped by the step cap: step-limit, no answer", async () => {
    const model = scriptedAgentModel("loop", [{ calls: [{ tool: "search", input: { query: "again" } }] }]);
    const engine = withModel(model);
    try {
      const t = await engine.turn("Loop forever", { maxSteps: 3 });
      expect(t.outcome).toBe("step-limit");
      expect(t.steps).toHaveLength(3);
      expect(model.doGenerateCalls).toHaveLength(3);
    } finally {
      engine.close();
    }
  });

  it("a model failure is the outcome error with what failed and the steps before it, never a throw", async () => {
    const model = scriptedAgentModel("flaky", [{ calls: [{ tool: "catalog", input: {} }] }, new Error("503 upstream overloaded")]);
    const engine = Engine.open(setup.engine.file, { languageModels: { balanced: model }, modelLimits: { timeoutMs: 5000, maxRetries: 0 } });
    try {
      const t = await engine.turn("Which documents are there?");
      expect(t.outcome).toBe("error");
      expect(t.error).toMatch(/^agent mock\/flaky failed: .*503 upstream overloaded/);
      expect(t.steps).toHaveLength(1);
      expect(t.answer).toBe("");
      const empty = withModel(scriptedAgentModel("mute", [{ text: "" }]));
      try {
        const silent = await empty.turn("Anything?");
        expect(silent.outcome).toBe("error");
        expect(silent.error).toMatch(/returned no text/);
      } finally {
        empty.close();
      }
    } finally {
      engine.close();
    }
  });

  it("a model's refusal sentence is the outcome refused", async () => {
    const engine = withModel(scriptedAgentModel("shy", [{ text: "The documents do not contain an answer to this question." }]));
    try {
      const t = await engine.turn("What is the meaning of life?");
      expect(t.outcome).toBe("refused");
      expect(t.steps).toHaveLength(1);
    } finally {
      engine.close();
    }
  });
});

describe("citations", () => {
  it('are read from [doc: id] and [doc: id | "quote"] markers, once each', () => {
    expect(citedDocuments('A [doc: a.md]. B [doc: b.md | "x y"] and again [doc: a.md] [doc:  ] [n]')).toEqual([
      { docId: "a.md" },
      { docId: "b.md", quote: "x y" },
    ]);
  });

  it("are surfaced by an object with that docId in a done call's output, a quote by its words in that object", () => {
    const output = {
      results: [
        { docId: "a.md", snippet: "Files are **kept** for 30  days." },
        { docId: "b.md", snippet: "other" },
      ],
    };
    expect(surfaces(output, "a.md")).toBe(true);
    expect(surfaces(output, "a.md", "files are kept for 30 days")).toBe(true);
    expect(surfaces(output, "b.md", "files are kept")).toBe(false);
    expect(surfaces(output, "c.md")).toBe(false);
    const steps = [
      {
        index: 1,
        text: "",
        finishReason: "tool-calls",
        start: 0,
        end: 1,
        toolCalls: [
          { id: "1", name: "read_document", input: {}, status: "error" as const, error: "a.md: boom", needsApproval: false, durationMs: 0 },
          { id: "2", name: "search", input: {}, output, status: "done" as const, needsApproval: false, durationMs: 1 },
        ],
      },
    ];
    expect(matchCitations("[doc: a.md]", steps)).toEqual([{ docId: "a.md", surfaced: true, match: { step: 1, call: 2 } }]);
  });
});
