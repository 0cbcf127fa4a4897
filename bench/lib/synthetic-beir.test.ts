import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judgedCases, loadDataset } from "../../helpers/dataset.js";
import { generateAnswerCases, generateBeir, writeAnswerCases, writeBeir } from "./synthetic-beir.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "synthetic-beir-"));
  dirs.push(dir);
  return dir;
};
const files = (folder: string): string[] =>
  ["corpus.jsonl", "queries.jsonl", "qrels/test.tsv"].map((f) => readFileSync(join(folder, f), "utf8"));

describe("the synthetic BEIR dataset", () => {
  it("is byte-identical for the same size and seed, and differs for another seed", () => {
    const [a, b, c] = [scratch(), scratch(), scratch()];
    writeBeir(a, generateBeir(400, 20, 7));
    writeBeir(b, generateBeir(400, 20, 7));
    writeBeir(c, generateBeir(400, 20, 8));
    expect(files(b)).toEqual(files(a));
    expect(files(c)[0]).not.toEqual(files(a)[0]);
  });

  it("has the size asked for, graded judgments of existing documents, and several languages", () => {
    const beir = generateBeir(1000, 50, 42);
    expect(beir.corpus).toHaveLength(1000);
    expect(beir.queries).toHaveLength(50);
    const ids = new Set(beir.corpus.map((d) => d._id));
    expect(ids.size).toBe(1000);
    expect(beir.qrels.every((r) => ids.has(r.doc))).toBe(true);
    expect(new Set(beir.qrels.map((r) => r.grade))).toEqual(new Set([0, 1, 2]));
    for (const q of beir.queries)
      expect(
        beir.qrels.some((r) => r.query === q._id && r.grade === 2),
        q._id,
      ).toBe(true);
    // German, French and Italian function words occur, not only English ones.
    const text = beir.corpus.map((d) => ` ${d.text} `).join("");
    for (const word of [" the ", " und ", " les ", " alla "]) expect(text.includes(word), word).toBe(true);
  });

  it("loads as the suite's dataset (EVAL_DATASET), every query judged", () => {
    const folder = scratch();
    writeBeir(folder, generateBeir(300, 12, 1));
    const dataset = loadDataset({ EVAL_DATASET: folder });
    expect(dataset.format).toBe("beir");
    expect(judgedCases(dataset.cases)).toHaveLength(12);
  });

  it("with answer cases beside it, loads as BEIR with answers: every case passes the dataset's lint (each fact in its cited document)", () => {
    const folder = scratch();
    const beir = generateBeir(300, 40, 3);
    writeBeir(folder, beir);
    writeAnswerCases(folder, generateAnswerCases(beir, 40));
    const dataset = loadDataset({ EVAL_DATASET: folder });
    expect(dataset.format).toBe("beir");
    expect(dataset.askCases).toHaveLength(40);
    expect(dataset.askCases.filter((c) => c.expectedRefusal)).toHaveLength(2);
    expect(dataset.askCases.filter((c) => c.expectedTopics)).toHaveLength(2);
    expect(() => generateAnswerCases(beir, 41)).toThrow(/^41 answer cases need as many queries/);
  });

  it("refuses fewer documents than the queries' judged ones, in one line", () => {
    expect(() => generateBeir(10, 20, 1)).toThrow(
      /^20 queries need at least \d+ documents \(their judged ones\); ask for more --documents$/,
    );
  });
});
