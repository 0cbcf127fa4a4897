import { describe, expect, it } from "vitest";
import type { Evalite } from "evalite";
import { evalRow, output, suite } from "./test-data/gate.js";
import { analyzeRun } from "./analysis.js";

const CREATED = "2026-11-29 12:00:00";

/** A question verdict score as scorers/verdict.ts writes it. */
function verdictScore(pass: boolean, failed: string[] = [], extra: Record<string, unknown> = {}): Evalite.Exported.Score {
  return {
    id: 1,
    name: "Question verdict",
    score: pass ? 1 : 0,
    createdAt: CREATED,
    metadata: {
      status: "scored",
      verdict: { pass, failed, diagnosis: { verdict: pass ? "pass" : "retrieval", reasons: failed }, ...extra },
    },
  };
}

const answerRow = (id: string, scores: Evalite.Exported.Score[]): Evalite.Exported.Eval =>
  evalRow({ input: { id, question: `question ${id}`, language: "it", category: "multi-document" }, output: { elapsedMs: 20 }, scores });
const score = (name: string, value: number): Evalite.Exported.Score => ({ id: 2, name, score: value, createdAt: CREATED });

/** The answer eval of one preset: the verdict suite and a measurement suite of the same questions. */
const askRun = (a014: Evalite.Exported.Score[]) =>
  output([
    suite(
      "Answers: facts [slim]",
      [answerRow("a-014", [score("Answer includes", 0.5)]), answerRow("a-001", [score("Answer includes", 1)])],
      {
        group: "Answers: facts",
        name: "slim",
      },
    ),
    suite("Answers: questions [slim]", [answerRow("a-014", a014), answerRow("a-001", [verdictScore(true)])], {
      group: "Answers: questions",
      name: "slim",
    }),
  ]).suites.map((s) => ({ ...s, filepath: "/repo/evals/ask.eval.ts" }));

describe("verdict units", () => {
  it("a question is judged by its verdict, not by pass marks: half the facts at mark 0.5 still fails it, with each failed expectation", () => {
    const a = analyzeRun(
      output(askRun([verdictScore(false, ['missing "30 giorni"', "did not cite it/file/cestino.md (not retrieved: lost at fusion)"])])),
      () => [],
    );
    expect(a.units.map((u) => [u.key, u.kind, u.outcome])).toEqual([
      ["Answers: questions [slim]|a-014", "question", "fail"],
      ["Answers: questions [slim]|a-001", "question", "pass"],
    ]);
    const q = a.units[0]!;
    expect(q.reasons).toEqual(['missing "30 giorni"', "did not cite it/file/cestino.md (not retrieved: lost at fusion)"]);
    expect(q.diagnosis).toEqual({ verdict: "retrieval", reasons: q.reasons });
    expect(q.covers).toEqual(["Answers: facts [slim]"]);
    // The measurement suite's case agrees with its question, although Answer includes 0.5 reaches the mark.
    const facts = a.cases.find((c) => c.suite === "Answers: facts [slim]" && c.id === "a-014")!;
    expect(facts).toMatchObject({ verdict: "Answers: questions [slim]|a-014", outcome: "fail", reasons: q.reasons });
    expect(facts.metrics[0]).toMatchObject({ metric: "Answer includes", value: 0.5, passed: true });
  });

  it("a verdict that cannot be read, or disagrees with its score, is not a pass", () => {
    const bad = { ...verdictScore(true), metadata: { status: "scored", verdict: { pass: "yes", failed: [] } } };
    const lying = { ...verdictScore(true), score: 0 };
    for (const s of [bad, lying]) {
      const a = analyzeRun(output(askRun([s])), () => []);
      const q = a.units.find((u) => u.id === "a-014")!;
      expect(q.outcome).toBe("fail");
      expect(a.cases.find((c) => c.id === "a-014" && c.suite.startsWith("Answers: questions"))!.metrics[0]!.status).toBe("invalid");
    }
  });

  it("keeps golden-set warnings with the question", () => {
    const a = analyzeRun(
      output(askRun([verdictScore(true, [], { warnings: ["a-014: the expected answer shares 0/4 content terms"] })])),
      () => [],
    );
    expect(a.units[0]!.warnings).toEqual(["a-014: the expected answer shares 0/4 content terms"]);
  });

  it("cases of a file without a verdict suite are their own units, judged by per-metric pass marks", () => {
    const retrieval = output([
      suite("Search (BM25)", [evalRow({ input: { id: "q1", query: "x" }, output: { elapsedMs: 1 }, scores: [score("nDCG@10", 0.55)] })]),
    ]);
    expect(analyzeRun(retrieval, () => []).units[0]).toMatchObject({ key: "Search (BM25)|q1", kind: "case", outcome: "pass" });
    const strict = analyzeRun(retrieval, () => [], { default: 0.5, metrics: { "nDCG@10": 0.6 } });
    expect(strict.units[0]).toMatchObject({ outcome: "fail", reasons: ["nDCG@10 0.550 < 0.6"] });
    expect(strict.aggregates[0]!.metrics[0]!.passRate).toBe(0);
  });
});
