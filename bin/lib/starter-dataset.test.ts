import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../../helpers/dataset.js";
import { FixtureError, loadAskCases, loadQueries, readCorpusDoc } from "../../helpers/fixture-files.js";
import { checkStarterDataset, STARTER_DIR, StarterFolderError, writeStarterDataset } from "./starter-dataset.js";

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "starter-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the starter dataset of pnpm eval:init", () => {
  it("passes the suite's fixture checks, in both formats, and holds every kind of expectation", () => {
    const folder = join(tempDir(), "my-dataset");
    const found = writeStarterDataset(folder);
    expect(found).toEqual({ documents: 4, queries: 5, askCases: 5, translationGroups: 1, refusalLanguages: 4, beirJudgedQueries: 5 });
    const cases = loadAskCases({ dir: folder });
    expect(cases.some((c) => c.expectedRefusal === true && c.mustCite === undefined)).toBe(true);
    expect(cases.some((c) => (c.mustCite ?? []).length === 2)).toBe(true);
    expect(cases.some((c) => c.forbiddenSubstrings && c.expectedTopics === undefined)).toBe(true);
    expect(cases.some((c) => c.expectedTopics)).toBe(true);
    // The BEIR view is the same judgments: EVAL_DATASET_FORMAT=beir reads it into the same cases.
    const dataset = loadDataset({ EVAL_DATASET: folder, EVAL_DATASET_FORMAT: "beir" });
    const queries = loadQueries({ dir: folder });
    expect(dataset.cases.map((c) => [c.id, c.query, c.judgments])).toEqual(queries.map((q) => [q.id, q.query, q.judgments]));
    // The documents of both views are the same text.
    const corpus = readFileSync(join(folder, "corpus.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { _id: string; title: string; text: string });
    for (const doc of corpus) expect(readCorpusDoc(doc._id, join(folder, "corpus"))).toBe(`# ${doc.title}\n\n${doc.text}\n`);
  });

  it("is caught by the same checks when a user breaks it: a fact no cited document holds", () => {
    const folder = tempDir();
    writeStarterDataset(folder);
    const file = join(folder, "ask-cases.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"30 days"', '"31 days"'));
    expect(() => checkStarterDataset(folder)).toThrow(FixtureError);
    expect(() => checkStarterDataset(folder)).toThrow(
      /case a-001 \(\/cases\/0\/expectedSubstrings\/0\): "31 days" does not occur in the cited document \(en\/billing\/refunds\.md\)/,
    );
  });

  it("never writes into a folder that holds anything", () => {
    const folder = tempDir();
    writeFileSync(join(folder, "notes.txt"), "mine");
    expect(() => writeStarterDataset(folder)).toThrow(StarterFolderError);
    expect(readFileSync(join(folder, "notes.txt"), "utf8")).toBe("mine");
  });

  it("copies the template as it is: the documents and JSON files of templates/starter", () => {
    const folder = join(tempDir(), "copy");
    writeStarterDataset(folder);
    for (const file of ["queries.json", "ask-cases.json", "translations.json", "README.md", "corpus/en/billing/refunds.md"]) {
      expect(readFileSync(join(folder, file), "utf8"), file).toBe(readFileSync(join(STARTER_DIR, file), "utf8"));
    }
  });
});
