/** A target module's definition: what `targetDefinitionProblems` says of each way a default export can be wrong. */
import { describe, expect, it } from "vitest";
import { defineTarget, definedModes, targetDefinitionProblems } from "./define-target.js";

const search = async () => ({ results: [] });

describe("targetDefinitionProblems", () => {
  it("accepts a definition of any capability, and defineTarget returns it as it is", () => {
    const definition = {
      name: "lib.v1",
      search: { search, balanced: search },
      ask: async () => ({ answer: "", citations: [], refused: true, sources: [] }),
    };
    expect(defineTarget(definition)).toBe(definition);
    expect(targetDefinitionProblems(definition)).toEqual([]);
    expect(definedModes(definition)).toEqual(["search", "balanced"]);
    expect(
      targetDefinitionProblems({
        name: "x",
        expand: search,
        documents: { seed: search, delete: search },
        fingerprint: { corpusHash: "h" },
      }),
    ).toEqual([]);
  });

  it("names the field of every problem", () => {
    expect(targetDefinitionProblems(undefined)).toEqual([
      "the default export must be defineTarget({ name, search?, ask?, … }), got nothing",
    ]);
    expect(targetDefinitionProblems(search)).toEqual([expect.stringContaining("got a function")]);
    expect(targetDefinitionProblems({ name: "my lib", serch: {} })).toEqual([
      "/serch: unknown field (known: name, version, fingerprint, search, ask, expand, documents, trace, turn, givenSources)",
      '/name: must be 1–64 letters, digits, ".", "_" or "-" (it keys the floors), got "my lib"',
    ]);
    expect(targetDefinitionProblems({ name: "x", search: { bm25: search, vsearch: "no" } })).toEqual([
      "/search/bm25: unknown mode (modes: search, vsearch, fast, balanced, thorough)",
      "/search/vsearch: must be a function, got a string",
    ]);
    expect(targetDefinitionProblems({ name: "x", ask: {}, documents: { seed: 1, drop: search }, fingerprint: 3, trace: "yes" })).toEqual([
      "/fingerprint: must be a string or an object with a string corpusHash, got a number",
      "/trace: must be true or false, got a string",
      "/ask: must be a function, got an object",
      "/documents/drop: unknown field (known: seed, delete)",
      "/documents/seed: must be a function, got a number",
    ]);
    expect(targetDefinitionProblems({ name: "x", turn: search })).toEqual([]);
    expect(targetDefinitionProblems({ name: "x", search: { search }, turn: "agent" })).toEqual(["/turn: must be a function, got a string"]);
    expect(targetDefinitionProblems({ name: "x", search: {} })).toEqual([
      "(the definition): serves nothing: give it search (by mode), ask, expand or turn",
    ]);
  });
});
