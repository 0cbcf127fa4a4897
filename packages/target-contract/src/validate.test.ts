/**
 * The contract's validators: the build's code and Ajv compiling the schemas at run time give the
 * same problems, word for word; the build's file is used only while it is current.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildContractValidators } from "./build-validators.js";
import { CONTRACT_MODES, type ContractMessage, TARGET_MESSAGES } from "./messages.js";
import { TURN_MESSAGES } from "./turn.js";
import { contractProblems, loadValidators, problemsBy, validatorSources, validatorsFile } from "./validate.js";

const scratch = mkdtempSync(join(tmpdir(), "contract-validators-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Values of every message, fitting and not: nested, additional, missing, enum, anyOf, pattern and length problems. */
const VALUES: Array<[ContractMessage, unknown]> = [
  ["SearchRequest", { query: "ok", mode: "balanced", limit: 10 }],
  ["SearchRequest", {}],
  ["SearchRequest", { query: "x", mode: "bogus", limit: 0, extra: 1 }],
  ["SearchRequest", { query: 5, mode: "fast", limit: 1.5, traceDepth: -1, asOf: "2020", includeSuperseded: "yes" }],
  ["SearchRequest", null],
  [
    "SearchResponse",
    { results: [{ docId: "", score: "1" }, {}], elapsedMs: -1, trace: [{ stage: "nope", input: 1, output: 2, start: "a" }] },
  ],
  [
    "SearchResponse",
    {
      results: [{ docId: "a", score: 1, validity: { stale: "no" } }],
      trace: [{ stage: "bm25", input: {}, output: [{ docId: "a", score: 1, rank: 0, detail: { x: "y" } }], start: 0, end: 1 }],
    },
  ],
  ["AskRequest", { question: "", preset: "max", tier: "slow", limit: 101, bad: true }],
  ["AskResponse", { answer: "", citations: [], refused: false, sources: [] }],
  ["AskResponse", { answer: 1, citations: [{ ref: 0 }], refused: null, sources: [{ language: 3 }] }],
  ["ExpandRequest", { query: "x", more: 1 }],
  ["ExpandResponse", { expansion: { lexicalQueries: [1] }, fallback: {} }],
  [
    "HealthResponse",
    {
      name: "n",
      version: "1",
      fingerprint: "fp",
      capabilities: { modes: ["fast"], ask: true, expand: false, documents: true, trace: false },
    },
  ],
  [
    "HealthResponse",
    { name: "", version: 1, fingerprint: {}, capabilities: { modes: ["fast", "fast", "x"], ask: 1, extra: 2 }, limits: { bodyBytes: 0 } },
  ],
  ["DocumentsRequest", { collection: "", documents: [], ids: "other" }],
  [
    "DocumentsRequest",
    { collection: "c", documents: [{ id: "a", text: "t", language: 5, format: "html", validFrom: "x", supersedes: [""], foo: 1 }] },
  ],
  ["DocumentsResponse", { collection: 1, documents: -1 }],
  ["ErrorResponse", { error: { code: "BAD_REQUEST", message: "m" } }],
  ["ErrorResponse", { error: { code: "bad", message: "x".repeat(1001), more: 1 } }],
  ["TurnRequest", { question: "where is the refund policy?", tools: ["catalog", "search"], maxSteps: 4, tokenBudget: 8000 }],
  ["TurnRequest", { question: "", tools: ["Search", "search", "search"], maxSteps: 51, tokenBudget: 0, preset: "max", more: 1 }],
  [
    "TurnResponse",
    {
      answer: "It costs €9.99 [doc: en/billing/plans-and-pricing.md]",
      outcome: "answered",
      steps: [
        {
          index: 1,
          toolCalls: [
            {
              id: "c1",
              name: "search",
              input: { query: "price" },
              output: { results: [] },
              status: "done",
              needsApproval: false,
              durationMs: 2,
            },
          ],
        },
        { index: 2, toolCalls: [], text: "It costs €9.99" },
      ],
      citations: [{ docId: "en/billing/plans-and-pricing.md", surfaced: true, match: { step: 1, call: 1 } }],
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, counted: "estimate" },
    },
  ],
  [
    "TurnResponse",
    {
      answer: 1,
      outcome: "done",
      steps: [{ index: 0, toolCalls: [{ name: "", input: {}, status: "error", needsApproval: "no", durationMs: -1 }] }],
      citations: [{ docId: "a", surfaced: true }, { surfaced: false }],
      proposal: { tool: "file_correction" },
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, counted: "guess" },
    },
  ],
  ["TurnResponse", { answer: "", outcome: "error", steps: [], citations: [] }],
  [
    "TurnResponse",
    {
      answer: "",
      outcome: "stopped-at-approval",
      steps: [
        { index: 1, toolCalls: [{ name: "file_correction", input: {}, status: "awaiting-approval", needsApproval: false, durationMs: 0 }] },
      ],
      citations: [],
    },
  ],
];

describe("contract validators", () => {
  it("say each problem in one plain line, naming where it is", () => {
    expect(contractProblems("TurnResponse", { answer: "", outcome: "error", steps: [], citations: [] })).toEqual([
      '(the body): missing required field "error"',
    ]);
    expect(contractProblems("SearchRequest", { query: "ok", mode: "balanced", limit: 10 })).toEqual([]);
    expect(contractProblems("SearchRequest", { query: "x", mode: "bogus", limit: 0, extra: 1 })).toEqual([
      '(the body): unknown field "extra"',
      `/mode: must be one of ${CONTRACT_MODES.join(", ")}`,
      "/limit: must be >= 1",
    ]);
    expect(contractProblems("HealthResponse", { name: "n", version: "1", fingerprint: {}, capabilities: {} })).toContain(
      '/fingerprint: missing required field "corpusHash"',
    );
    expect(contractProblems("ErrorResponse", { error: { code: "bad", message: "m" } })).toEqual([
      '/error/code: must match pattern "^[A-Z][A-Z0-9_]*$"',
    ]);
  });

  it("refuse a turn whose token usage contradicts itself: a total below its input and output together", () => {
    const turn = { answer: "", outcome: "answered", steps: [], citations: [] };
    const usage = (inputTokens: number, outputTokens: number, totalTokens: number) => ({
      ...turn,
      usage: { inputTokens, outputTokens, totalTokens, counted: "model" },
    });
    expect(contractProblems("TurnResponse", usage(5_000_000, 0, 1))).toEqual([
      "/usage/totalTokens: 1 is less than inputTokens + outputTokens (5000000 + 0): the turn's usage contradicts itself",
    ]);
    expect(contractProblems("TurnResponse", usage(3000, 200, 3200))).toEqual([]);
    // A total above the parts (reasoning tokens a provider counts apart) is no contradiction.
    expect(contractProblems("TurnResponse", usage(3000, 200, 3500))).toEqual([]);
  });

  it("from the build's code give the problems Ajv compiling the schemas gives, for every message", () => {
    const sources = validatorSources();
    const dir = join(scratch, "current");
    const messages = [...TARGET_MESSAGES, ...TURN_MESSAGES];
    expect(buildContractValidators(dir, sources)).toBe(messages.length);
    const built = loadValidators(sources, dir);
    const compiled = loadValidators(sources, join(scratch, "none"));
    for (const message of messages) {
      // Ajv's compiled functions carry their schema environment; the build's standalone code does not.
      expect("schemaEnv" in built(message), message).toBe(false);
      expect("schemaEnv" in compiled(message), message).toBe(true);
    }
    let failing = 0;
    for (const [message, value] of VALUES) {
      const problems = problemsBy(compiled, message, value);
      if (problems.length > 0) failing++;
      expect(problemsBy(built, message, value), `${message} ${JSON.stringify(value)}`).toEqual(problems);
    }
    expect(failing).toBe(VALUES.length - 6);
  });

  it("use the build's code only while it is current: an edited schema is compiled by Ajv, with the edit", () => {
    const sources = validatorSources();
    const dir = join(scratch, "stale");
    buildContractValidators(dir, sources);
    const [target, ...rest] = sources.schemas as Array<{
      $id: string;
      definitions: Record<string, { properties: Record<string, object> }>;
    }>;
    const edited = structuredClone(target!);
    edited.definitions.SearchRequest!.properties.limit = { type: "integer", minimum: 1, maximum: 5 };
    const editedSources = { ...sources, schemas: [edited, ...rest] };
    expect(validatorsFile(editedSources)).not.toBe(validatorsFile(sources));
    const validators = loadValidators(editedSources, dir);
    expect("schemaEnv" in validators("SearchRequest")).toBe(true);
    expect(problemsBy(validators, "SearchRequest", { query: "q", mode: "fast", limit: 6 })).toEqual(["/limit: must be <= 5"]);
  });
});
