/** The given-sources lane: what a case gives, what is asked of which target, and how the answer is graded. */
import { describe, expect, it } from "vitest";
import { targetDefinitionProblems } from "@hybrid-search/target-contract/define-target";
import { askCase as caseOf, askResult } from "../scorers/test-data/ask.js";
import { generationVerdictScorer } from "../scorers/verdict.js";
import { askRequest } from "./ask-task.js";
import { askRequest as contractAsk } from "./targets/http-target.js";
import { IN_PROCESS_CAPABILITIES } from "./targets/kinds/in-process.js";
import { missingCapability } from "./targets/target.js";

const GIVEN = [{ docId: "kb/refunds", text: "A refund is paid within 14 days.", title: "Refunds" }];
const c = caseOf({ id: "g1", question: "How soon is a refund paid?", expectedSubstrings: ["14 days"], givenSources: GIVEN });

describe("the given-sources lane", () => {
  it("asks with the case's sources only in that lane; the retrieved lane asks the question alone", () => {
    expect(askRequest(c, "balanced", {}, "given sources")).toEqual({
      id: "g1",
      question: c.question,
      preset: "balanced",
      headers: {},
      sources: GIVEN,
    });
    expect(askRequest(c, "balanced", {})).not.toHaveProperty("sources");
    // Over HTTP the contract's AskRequest carries them as they are.
    expect(contractAsk({ question: "q", sources: GIVEN }, {})).toEqual({ question: "q", sources: GIVEN });
  });

  it("runs only on a target whose capabilities say givenSources, and says why otherwise", () => {
    expect(missingCapability({ name: "engine", capabilities: IN_PROCESS_CAPABILITIES }, { ask: true, givenSources: true })).toBeNull();
    const adapter = { name: "kb", capabilities: { ...IN_PROCESS_CAPABILITIES, givenSources: false } };
    expect(missingCapability(adapter, { ask: true, givenSources: true })).toBe(
      "target kb does not answer from given sources (its capabilities do not say givenSources)",
    );
    // A module says so in its definition, as a boolean.
    expect(targetDefinitionProblems({ name: "m", ask: () => null, givenSources: true })).toEqual([]);
    expect(targetDefinitionProblems({ name: "m", ask: () => null, givenSources: "yes" })).toEqual([
      "/givenSources: must be true or false, got a string",
    ]);
  });

  it("grades the answer with the question's expectations as a metric of generation, never as the question's verdict", async () => {
    const score = async (answer: string) =>
      (await generationVerdictScorer()({
        input: c,
        output: askResult(answer, [{ ...GIVEN[0]!, ref: 1 }]),
        expected: undefined,
      } as never)) as {
        score: number;
        metadata: Record<string, unknown>;
      };
    const held = await score("It is paid within 14 days [1].");
    expect(held).toMatchObject({
      score: 1,
      metadata: { grader: "generation-verdict", lane: "given sources", generation: { pass: true, failed: [] } },
    });
    // The gate reads a `verdict` as the question's one verdict: this metric must not carry one.
    expect(held.metadata).not.toHaveProperty("verdict");
    expect(await score("It is paid soon [1].")).toMatchObject({
      score: 0,
      metadata: { generation: { pass: false, failed: ['missing "14 days"'] } },
    });
  });
});
