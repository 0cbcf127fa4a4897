import { describe, expect, it } from "vitest";
import { allGraders, askCase, askResult, failed, refused, TWO_FA } from "../test-data/ask.js";
import { answerExcludes, answerIncludes, cites, GRADERS, NotApplicableError } from "./index.js";

describe("policies every grader follows", () => {
  const full = askCase({
    category: "injection",
    expectedSubstrings: ["10"],
    forbiddenSubstrings: ["every plan is free"],
    expectedTopics: ["recovery codes"],
    mustCite: [TWO_FA.docId],
  });
  const all = allGraders();

  it.each(all)("%s never passes a failed answer: 0, status failed, with the error", (id, score) => {
    const g = score(full, failed([TWO_FA]));
    expect(g.score).toBe(0);
    expect(g.metadata).toMatchObject({
      grader: id,
      method: "heuristic",
      status: "failed",
      error: "answer model mock/m1 failed: 503 Service Unavailable",
    });
  });

  it("throws for a case the grader does not apply to, naming the case, the field and the fix", () => {
    const bare = askCase({ id: "a-023", category: "off-corpus", expectedRefusal: true });
    for (const [id, score] of all) {
      if (GRADERS[id].needs === null) {
        expect(() => score(bare, refused([]))).not.toThrow();
        continue;
      }
      expect(() => score(bare, refused([]))).toThrow(NotApplicableError);
      expect(() => score(bare, refused([]))).toThrow(`${id} does not apply to case a-023: it has no ${GRADERS[id].needs}`);
    }
  });
});

describe("Evalite scorers", () => {
  it("return the named score with its metadata, and throw on a case they do not apply to", async () => {
    const c = askCase({ expectedSubstrings: ["10"] });
    const s = await answerIncludes()({ input: c, output: askResult("10 codes [1].", [TWO_FA]), expected: undefined });
    expect(s).toMatchObject({ name: "Answer includes", score: 1, metadata: { method: "heuristic", found: ["10"] } });
    await expect(
      Promise.resolve().then(() => answerExcludes()({ input: c, output: askResult("x", []), expected: undefined })),
    ).rejects.toThrow(NotApplicableError);
    const cited = await cites({ acceptTranslations: false })({
      input: askCase({ mustCite: [TWO_FA.docId] }),
      output: askResult("10 [1].", [TWO_FA]),
      expected: c,
    });
    expect(cited.score).toBe(1);
  });
});
