/**
 * An adapter's turn mapping: a trace in a service's own shape (tool executions with rounds,
 * citations marked surfaced or recalled, its own outcome words, a proposal, token counts) becomes
 * the contract's turn trace that the agent graders read; each way the service's answer can miss
 * the mapping is one labelled line; the file's turn mapping is checked like the rest of the file.
 */
import { adapterProblems, type Adapter } from "@hybrid-search/target-contract/adapter";
import { describe, expect, it } from "vitest";
import { checkExpectation } from "../../scorers/agent/index.js";
import { mapTurn } from "./adapter-turn.js";
import type { RawResponse } from "./http-client.js";
import { TargetError } from "./target.js";

const ADAPTER: Adapter = {
  name: "assistant",
  turn: {
    request: { method: "POST", path: "/api/assist/{{surface}}/turn", json: { message: "{{question}}" } },
    response: {
      answer: { pointer: "/reply/text" },
      outcome: { pointer: "/trace/status" },
      outcomes: { done: "answered", declined: "refused", awaiting_approval: "stopped-at-approval" },
      toolCalls: {
        list: "/trace/executions",
        name: "/tool",
        input: "/args",
        output: "/result",
        error: "/error",
        needsApproval: "/approval",
        durationMs: "/ms",
        step: "/round",
      },
      citations: { list: "/trace/citations", docId: "/path", quote: "/quote", surfaced: "/match" },
      proposal: { tool: "/trace/proposal/tool", input: "/trace/proposal/args", summary: "/trace/proposal/why" },
      usage: { inputTokens: "/trace/tokens/in", outputTokens: "/trace/tokens/out", totalTokens: "/trace/tokens/total" },
    },
  },
};

const raw = (body: unknown, status = 200): RawResponse => ({
  status,
  retryAfter: null,
  serverTiming: null,
  headers: { "content-type": "application/json" },
  text: JSON.stringify(body),
});

const answered = {
  reply: { text: "Exports of more than 500 invoices are sent as a ZIP file." },
  trace: {
    status: "done",
    executions: [
      {
        tool: "search_docs",
        args: { q: "export" },
        result: { hits: [{ path: "guides/export.md" }] },
        error: null,
        approval: false,
        ms: 4,
        round: 1,
      },
      {
        tool: "open_doc",
        args: { path: "guides/export.md" },
        result: { path: "guides/export.md", body: "Exports of more than 500 invoices are sent as a ZIP file." },
        error: null,
        approval: false,
        ms: 2,
        round: 2,
      },
      { tool: "open_doc", args: { path: "nope.md" }, result: null, error: "no such document", approval: false, ms: 1, round: 2 },
    ],
    citations: [
      { path: "guides/export.md", quote: "ZIP file", match: "surfaced" },
      { path: "policies/retention.md", match: "recalled" },
      { path: "guides/other.md", match: "surfaced" },
    ],
    tokens: { in: 120, out: 30, total: 150 },
  },
};

describe("a turn trace in the service's own shape", () => {
  it("maps calls into steps by round, the answer as one more step, citations surfaced by the call that returned them", () => {
    const { body } = mapTurn(raw(answered), ADAPTER);
    expect(body.outcome).toBe("answered");
    expect(body.answer).toBe(answered.reply.text);
    expect(body.steps.map((s) => [s.index, s.toolCalls.map((c) => `${c.name}:${c.status}`), s.text ?? null])).toEqual([
      [1, ["search_docs:done"], null],
      [2, ["open_doc:done", "open_doc:error"], null],
      [3, [], answered.reply.text],
    ]);
    expect(body.steps[1]!.toolCalls[1]).toMatchObject({ error: "no such document", durationMs: 1 });
    expect(body.citations).toEqual([
      // The search returned the document, the opened document the quoted words: the match is the call that returned both.
      { docId: "guides/export.md", quote: "ZIP file", surfaced: true, match: { step: 2, call: 1 } },
      { docId: "policies/retention.md", surfaced: false },
      // Marked surfaced, but no call returned it: read as recalled, as the graders would.
      { docId: "guides/other.md", surfaced: false },
    ]);
    expect(body.usage).toEqual({ inputTokens: 120, outputTokens: 30, totalTokens: 150, counted: "model" });
  });

  it("is graded by the agent graders: calls counted without errors, a recalled citation caught by name", () => {
    const { body } = mapTurn(raw(answered), ADAPTER);
    expect(checkExpectation(body, { kind: "calls-tool", tool: "open_doc", atLeast: 2 }).pass).toBe(false);
    expect(checkExpectation(body, { kind: "cites", doc: "guides/export.md" }).pass).toBe(true);
    expect(checkExpectation(body, { kind: "answer-includes", text: "ZIP file" }).pass).toBe(true);
    const only = checkExpectation(body, { kind: "cites-only-surfaced" });
    expect(only.pass).toBe(false);
    expect(only.fact).toContain("unsurfaced: policies/retention.md (recalled");
    expect(checkExpectation(body, { kind: "max-steps", steps: 3 }).pass).toBe(true);
    expect(checkExpectation(body, { kind: "stops-within-budget", tokens: 149 }).pass).toBe(false);
  });

  it("a stop at approval: the call that awaits it, and the proposal at its step", () => {
    const { body } = mapTurn(
      raw({
        reply: { text: "" },
        trace: {
          status: "awaiting_approval",
          executions: [
            { tool: "search_docs", args: {}, result: { hits: [] }, error: null, approval: false, ms: 1, round: 1 },
            { tool: "propose_edit", args: { path: "a.md" }, result: null, error: null, approval: true, ms: 0, round: 2 },
          ],
          citations: [],
          proposal: { tool: "propose_edit", args: { path: "a.md" }, why: "Edit a" },
        },
      }),
      ADAPTER,
    );
    expect(body.outcome).toBe("stopped-at-approval");
    expect(body.steps).toHaveLength(2);
    expect(body.steps[1]!.toolCalls[0]).toMatchObject({ status: "awaiting-approval", needsApproval: true });
    expect(body.proposal).toEqual({ tool: "propose_edit", input: { path: "a.md" }, step: 2, summary: "Edit a" });
    expect(checkExpectation(body, { kind: "stops-at-approval", tool: "propose_edit" }).pass).toBe(true);
    expect(body.usage).toBeUndefined();
  });

  it("without step numbers each call is a step of its own; without calls the answer is the only step", () => {
    const adapter: Adapter = {
      name: "flat",
      turn: {
        request: { method: "POST", path: "/t" },
        response: {
          answer: { pointer: "/a" },
          outcome: { pointer: "/o" },
          toolCalls: { list: "/calls", name: "/n", output: "/out" },
        },
      },
    };
    const two = mapTurn(
      raw({
        a: "x",
        o: "answered",
        calls: [
          { n: "a", out: 1 },
          { n: "b", out: 2 },
        ],
      }),
      adapter,
    ).body;
    expect(two.steps.map((s) => s.toolCalls.length)).toEqual([1, 1, 0]);
    const none = mapTurn(raw({ a: "no", o: "refused" }), adapter).body;
    expect(none.steps).toEqual([{ index: 1, toolCalls: [], text: "no" }]);
  });

  it("each miss is one line naming the mapping", () => {
    const miss = (body: unknown) => {
      try {
        mapTurn(raw(body), ADAPTER);
      } catch (error) {
        expect(error).toBeInstanceOf(TargetError);
        return (error as Error).message;
      }
      throw new Error("mapped");
    };
    expect(miss({ reply: { text: "x" }, trace: { status: "thinking" } })).toBe(
      'the adapter\'s /turn/response/outcome found "thinking", which is no outcome of the contract (answered, refused, stopped-at-approval, step-limit, budget-exhausted, error) and not a word of /turn/response/outcomes',
    );
    expect(miss({ reply: { text: "x" } })).toBe(
      'the adapter\'s /turn/response/outcome (pointer "/trace/status") found nothing in the response',
    );
    expect(miss({ reply: { text: "x" }, trace: { status: "done", executions: [{ args: {} }] } })).toBe(
      'the adapter\'s /turn/response/toolCalls/name (pointer "/tool") found no tool name in item 0 of the list',
    );
    expect(miss({ reply: { text: "x" }, trace: { status: "done", citations: [{ path: "a.md", match: "maybe" }] } })).toBe(
      'the adapter\'s /turn/response/citations/surfaced (pointer "/match") found "maybe" in item 0 of the list: expected true/"surfaced" or false/"recalled"',
    );
    expect(() => mapTurn(raw({ error: "down" }, 500), ADAPTER)).toThrow(/HTTP 500/);
  });
});

describe("the turn mapping in an adapter file", () => {
  it("is checked with the rest of the file: fields, templates, outcome words", () => {
    expect(adapterProblems(ADAPTER)).toEqual([]);
    const bad = structuredClone(ADAPTER) as unknown as { turn: { request: { path: string }; response: Record<string, unknown> } };
    bad.turn.request.path = "/api/{{surfce}}/turn";
    bad.turn.response.outcomes = { done: "finished" };
    bad.turn.response.citations = { list: "/c", docId: "/p" };
    expect(adapterProblems(bad)).toEqual([
      "/turn/response/outcomes/done: must be one of answered, refused, stopped-at-approval, step-limit, budget-exhausted, error",
      '/turn/response/citations: missing required field "surfaced"',
    ]);
    const template = structuredClone(ADAPTER);
    template.turn!.request.path = "/api/{{surfce}}/turn";
    expect(adapterProblems(template)).toEqual([
      "/turn/request/path: {{surfce}} is not a field here (fields: question, surface, tools, preset, maxSteps, tokenBudget, collection; secrets: {{env.NAME}})",
    ]);
  });
});
