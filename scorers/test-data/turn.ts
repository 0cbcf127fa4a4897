/**
 * Hand-made turn traces for the agent graders' tests: a turn that searched, read two documents and
 * answered citing them, and builders to change one thing about it. Not a test file itself, so
 * importing it registers no tests twice.
 */
import type { TurnResponse, TurnStep, TurnToolCall } from "@hybrid-search/target-contract/turn";
import type { TurnCase } from "../agent/turn-case.js";

export const PLANS = "en/billing/plans-and-pricing.md";
export const TWO_FACTOR = "en/security/two-factor-authentication.md";

export function call(name: string, over: Partial<TurnToolCall> = {}): TurnToolCall {
  return { id: `${name}-1`, name, input: {}, output: {}, status: "done", needsApproval: false, durationMs: 1, ...over };
}

export const searchCall = (docIds: string[]): TurnToolCall =>
  call("search", {
    input: { query: "family plan price" },
    output: { results: docIds.map((docId) => ({ docId, title: docId, snippet: `${docId} snippet` })) },
  });

export const readCall = (docId: string, text: string): TurnToolCall =>
  call("read_document", { input: { docId }, output: { docId, title: docId, sections: [{ heading: "H", text }] } });

export function step(index: number, toolCalls: TurnToolCall[], text = ""): TurnStep {
  return { index, toolCalls, text };
}

/** search → read plans → read 2FA → answer citing both, 4 steps, within a 32000-token budget. */
export function answeredTurn(over: Partial<TurnResponse> = {}): TurnResponse {
  const answer = `Family costs €14.99 per month [doc: ${PLANS}]. You get ten recovery codes [doc: ${TWO_FACTOR} | "ten recovery codes"].`;
  return {
    answer,
    outcome: "answered",
    steps: [
      step(1, [searchCall([PLANS, TWO_FACTOR])]),
      step(2, [readCall(PLANS, "The Family plan costs €14.99 per month.")]),
      step(3, [readCall(TWO_FACTOR, "You get ten recovery codes when you set it up.")]),
      step(4, [], answer),
    ],
    citations: [
      { docId: PLANS, surfaced: true, match: { step: 1, call: 1 } },
      { docId: TWO_FACTOR, quote: "ten recovery codes", surfaced: true, match: { step: 3, call: 1 } },
    ],
    usage: { inputTokens: 4000, outputTokens: 100, totalTokens: 4100, counted: "estimate" },
    limits: { maxSteps: 8, tokenBudget: 32000 },
    ...over,
  };
}

/** search → file_correction awaiting approval. */
export function approvalTurn(over: Partial<TurnResponse> = {}): TurnResponse {
  const proposal = call("file_correction", {
    input: { docId: PLANS, correction: "Family costs €15" },
    output: undefined,
    status: "awaiting-approval",
    needsApproval: true,
    durationMs: 0,
  });
  return {
    answer: "",
    outcome: "stopped-at-approval",
    steps: [step(1, [searchCall([PLANS])]), step(2, [proposal])],
    citations: [],
    proposal: { tool: "file_correction", input: proposal.input, step: 2 },
    usage: { inputTokens: 900, outputTokens: 40, totalTokens: 940, counted: "estimate" },
    limits: { maxSteps: 8, tokenBudget: 32000 },
    ...over,
  };
}

export function turnCase(over: Partial<TurnCase> = {}): TurnCase {
  return {
    id: "t-001",
    question: "What does the Family plan cost, and how many recovery codes do I get?",
    language: "en",
    category: "multi-hop",
    surface: "help-centre",
    tools: ["search", "read_document", "catalog", "file_correction"],
    guards: "test",
    expect: [],
    ...over,
  };
}
