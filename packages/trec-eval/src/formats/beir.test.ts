import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readBeirDataset } from "./beir.js";

const root = mkdtempSync(join(tmpdir(), "beir-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function dataset(files: Record<string, string>): string {
  const dir = join(root, `ds${n++}`);
  mkdirSync(join(dir, "qrels"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
const corpus = '{"_id":"d1","title":"T","text":"one"}\n{"_id":"d2","text":"two"}\n';
const queries = '{"_id":"q1","text":"first"}\n{"_id":"q2","text":"second"}\n';

describe("readBeirDataset", () => {
  it("reads corpus, queries and the split's qrels (header skipped)", () => {
    const dir = dataset({
      "corpus.jsonl": corpus,
      "queries.jsonl": queries,
      "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t0\r\nq2\td2\t1\n",
    });
    const ds = readBeirDataset(dir);
    expect(ds.corpusIds).toEqual(["d1", "d2"]);
    expect(ds.queries.map((q) => q.id)).toEqual(["q1", "q2"]);
    expect([...ds.qrels.topics.get("q1")!.grades]).toEqual([
      ["d1", 2],
      ["d2", 0],
    ]);
    expect(ds.qrels.topics.get("q2")!.line).toBe(4);
  });

  it("refuses a qrels file whose last line has no line break: it looks cut off", () => {
    const dir = dataset({
      "corpus.jsonl": corpus,
      "queries.jsonl": queries,
      "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td2\t1",
    });
    expect(() => readBeirDataset(dir)).toThrow(/test\.tsv:3: the last line has no line break at its end: the file looks cut off/);
  });

  it("names file and line for bad qrels, unknown topics and unknown documents", () => {
    const base = { "corpus.jsonl": corpus, "queries.jsonl": queries };
    const cases: Array<[string, RegExp]> = [
      ["q1\td1\t1\n", /test\.tsv:1: expected the header/],
      ["query-id\tcorpus-id\tscore\nq1 d1 1\n", /test\.tsv:2: expected 3 tab-separated fields/],
      ["query-id\tcorpus-id\tscore\nq1\td1\thigh\n", /test\.tsv:2: score 'high' is not an integer/],
      ["query-id\tcorpus-id\tscore\nq1\td1\t1\nq9\td1\t1\n", /test\.tsv:3: unknown topic: query-id "q9" is not in queries\.jsonl/],
      ["query-id\tcorpus-id\tscore\nq1\td7\t1\n", /test\.tsv:2: unknown document: corpus-id "d7"/],
      ["query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td1\t2\n", /test\.tsv:3: document "d1" is judged twice .*first on line 2/],
      ["", /test\.tsv:1: empty file/],
    ];
    for (const [tsv, message] of cases) expect(() => readBeirDataset(dataset({ ...base, "qrels/test.tsv": tsv }))).toThrow(message);
    const unknownDocOk = readBeirDataset(dataset({ ...base, "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td7\t1\n" }), {
      allowUnknownDocs: true,
    });
    expect(unknownDocOk.qrels.topics.get("q1")!.grades.get("d7")).toBe(1);
  });

  it("reports missing files, listing the splits that exist", () => {
    const dir = dataset({ "corpus.jsonl": corpus, "queries.jsonl": queries, "qrels/dev.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\n" });
    expect(() => readBeirDataset(dir)).toThrow(/qrels\/test\.tsv: cannot read: no such file \(splits here: dev\)/);
    expect(readBeirDataset(dir, { split: "dev" }).split).toBe("dev");
    expect(() => readBeirDataset(dataset({ "queries.jsonl": queries }))).toThrow(/corpus\.jsonl: cannot read: no such file/);
    expect(() => readBeirDataset(join(root, "nothing-here"))).toThrow(/no such folder/);
  });

  it("reports malformed JSONL as file:line FormatErrors", () => {
    const dir = dataset({
      "corpus.jsonl": corpus,
      "queries.jsonl": '{"_id":"q1","text":"a"}\nnot json\n',
      "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
    });
    expect(() => readBeirDataset(dir)).toThrow(/queries\.jsonl:2: not valid JSON/);
  });
});
