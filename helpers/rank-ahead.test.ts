import { describe, expect, it } from "vitest";
import type { RetrievalCase } from "./dataset.js";
import { askAhead, modesAhead } from "./rank-ahead.js";
import { rank, retrievalOptions } from "./retrieval-task.js";
import type { SuiteFingerprint } from "./setup-db.js";
import type { MeasuredTarget } from "./targets/eval-target.js";
import { type Target, TargetError, type TargetSearch } from "./targets/target.js";

const ALL_MODES = ["search", "vsearch", "fast", "balanced", "thorough"] as const;
const capabilities = { modes: ["search", "balanced"] as const, ask: false, expand: false, trace: false, turn: false };

const cases = ["q1", "q2", "q3"].map(
  (id) => ({ id, query: `query ${id}`, category: "keyword", judgments: {} }) as unknown as RetrievalCase,
);

/** A remote target that records each search it is asked for and answers when told to. */
function remote(name: string, failing = new Set<string>()) {
  const asked: TargetSearch[] = [];
  const target: Target = {
    name,
    kind: "http",
    label: `http:${name}`,
    reach: "remote",
    capabilities: { ...capabilities, modes: [...capabilities.modes] },
    async search(request) {
      asked.push(request);
      if (failing.has(request.id)) throw new TargetError("http 500", `http:${name}: search: HTTP 500`);
      return { message: { results: [{ docId: `${request.mode}/${request.id}`, score: 1 }] }, serverMs: null, clientMs: 200 };
    },
    ask: () => Promise.reject(new Error("not asked")),
  };
  const measured: MeasuredTarget = { target, fingerprint: { corpusHash: name } as unknown as SuiteFingerprint };
  return { measured, asked };
}

describe("modesAhead", () => {
  it("asks a remote target ahead for the modes it serves, in the eval's order", () => {
    expect(modesAhead({ reach: "remote", capabilities }, ["balanced", "vsearch", "search"])).toEqual(["balanced", "search"]);
    expect(modesAhead({ reach: "remote", capabilities }, ["thorough"])).toEqual([]);
  });

  it("never asks a target in this thread (the in-process engine, a module) or a recording ahead: their calls are timed one at a time", () => {
    const all = { ...capabilities, modes: [...ALL_MODES] };
    for (const reach of ["this-thread", "recorded"] as const) expect(modesAhead({ reach, capabilities: all }, ALL_MODES)).toEqual([]);
  });
});

describe("askAhead", () => {
  it("asks for every case in every mode, mode by mode, before any case reads one; a case's rank finds the same call", async () => {
    const { measured, asked } = remote("ahead");
    expect(askAhead(measured, ["balanced", "search"], cases)).toBe(6);
    expect(asked.map((r) => `${r.mode} ${r.id}`)).toEqual([
      "balanced q1",
      "balanced q2",
      "balanced q3",
      "search q1",
      "search q2",
      "search q3",
    ]);
    expect(asked[0]).toMatchObject({ query: "query q1", ...retrievalOptions(cases[0]!) });
    const ranking = await rank(measured, "search", cases[1]!, retrievalOptions(cases[1]!));
    expect(ranking.results).toEqual([{ docId: "search/q2", score: 1 }]);
    expect(asked).toHaveLength(6);
  });

  it("leaves a failed call to the case that reads it: no unhandled rejection, the same one-line error", async () => {
    const { measured, asked } = remote("failing", new Set(["q2"]));
    askAhead(measured, ["search"], cases);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(rank(measured, "search", cases[1]!, retrievalOptions(cases[1]!))).rejects.toThrow("http:failing: search: HTTP 500");
    expect(asked).toHaveLength(3);
  });
});
