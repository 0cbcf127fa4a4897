import { describe, expect, it } from "vitest";
import { askCase, askResult, source } from "./test-data/ask.js";
import { completenessScore } from "./completeness.js";
import { TRIAD } from "./triad/index.js";
import { JUDGED_GRADERS } from "./judged-graders.js";

describe("JUDGED_GRADERS", () => {
  it("are the graders a judge grades: the triad's metrics and topic coverage, by the ids their scores carry", async () => {
    const c = askCase({ expectedTopics: ["recovery codes"] });
    const topics = await completenessScore(c, askResult("You get ten recovery codes [1].", [source(1, "en/a.md", "Ten recovery codes.")]));
    expect(new Set(JUDGED_GRADERS)).toEqual(new Set([...Object.keys(TRIAD), topics.metadata.grader]));
    expect(JUDGED_GRADERS).toHaveLength(4);
  });
});
