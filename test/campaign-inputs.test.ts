/**
 * The campaign's inputs (issue 42): every way a dataset's files or a recorded run's files can be
 * wrong, replayed through `pnpm eval --explain-target` in process (the run plan reads and checks
 * the dataset before anything runs; bin/eval.ts's `main`) or through the recorded target's reader
 * (which the run's setup opens before any eval): `null`, a wrong top-level type, a line cut off, a
 * UTF-16 or binary file, a file cut mid-line, a dataset that could measure nothing, ids such as
 * `constructor` and `__proto__`, a document or a dataset past its limit. Each is one line and exit
 * 2, never a stack trace, never a pass.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@hybrid-search/eval-gate";
import { afterAll, describe, expect, it } from "vitest";
import { openRecordedTarget } from "../helpers/targets/recorded-target.js";
import { Campaign, type Replayed } from "./campaign.js";
import { evalInProcess, ROOT } from "./eval-run.js";

const campaign = new Campaign("inputs");
const scratch = mkdtempSync(join(tmpdir(), "campaign-inputs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A copy of `sample` (a folder or file of the repository) with `edit` applied to it. */
function copyOf(sample: string, edit: (at: string) => void): string {
  const at = join(scratch, `case-${n++}`, sample.split("/").pop()!);
  mkdirSync(join(at, ".."), { recursive: true });
  cpSync(join(ROOT, sample), at, { recursive: true });
  edit(at);
  return at;
}
const write = (path: string, text: string | Buffer) => writeFileSync(path, text);
const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
const cut = (path: string, keep: number) => writeFileSync(path, readFileSync(path).subarray(0, keep));

const STARTER = "templates/starter";
const BEIR = "test/datasets/beir-answers";

/** Each case: the dataset as the person left it, and what the one line must name. */
const DATASETS: Array<[string, () => string, RegExp]> = [
  [
    "fixture format: queries.json holds null",
    () => copyOf(STARTER, (d) => write(join(d, "queries.json"), "null")),
    /queries\.json: \[schema\] the file is null/,
  ],
  [
    "fixture format: ask-cases.json holds null",
    () => copyOf(STARTER, (d) => write(join(d, "ask-cases.json"), "null")),
    /ask-cases\.json: \[schema\] the file is null/,
  ],
  [
    "fixture format: translations.json holds null",
    () => copyOf(STARTER, (d) => write(join(d, "translations.json"), "null")),
    /translations\.json: \[schema\] the file is null/,
  ],
  [
    "fixture format: queries.json holds a number",
    () => copyOf(STARTER, (d) => write(join(d, "queries.json"), "42")),
    /queries\.json: \[schema\] the file is a number/,
  ],
  [
    "fixture format: queries.json cut off",
    () => copyOf(STARTER, (d) => cut(join(d, "queries.json"), 300)),
    /queries\.json: \[invalid-json\] invalid JSON at line \d+, column \d+/,
  ],
  [
    "fixture format: queries.json saved as UTF-16",
    () => copyOf(STARTER, (d) => write(join(d, "queries.json"), utf16(readFileSync(join(d, "queries.json"), "utf8")))),
    /queries\.json: \[encoding\] the file is UTF-16LE/,
  ],
  [
    "fixture format: queries.json is binary",
    () => copyOf(STARTER, (d) => write(join(d, "queries.json"), Buffer.from([0x7b, 0x00, 0x01, 0x02]))),
    /queries\.json: \[encoding\] a binary file/,
  ],
  [
    "fixture format: no corpus/ folder",
    () => copyOf(STARTER, (d) => rmSync(join(d, "corpus"), { recursive: true })),
    /corpus: \[empty-corpus\] no corpus\/ folder/,
  ],
  [
    "fixture format: every judgment 0 and no question",
    () =>
      copyOf(STARTER, (d) => {
        const q = JSON.parse(readFileSync(join(d, "queries.json"), "utf8")) as {
          queries: Array<{ judgments: Record<string, number>; relevantDocs?: string[] }>;
        };
        for (const query of q.queries) {
          for (const doc of Object.keys(query.judgments)) query.judgments[doc] = 0;
          delete query.relevantDocs;
        }
        write(join(d, "queries.json"), JSON.stringify(q));
        rmSync(join(d, "ask-cases.json"));
      }),
    /queries\.json: no query judges a document relevant \(a grade of 1 or more\)/,
  ],
  [
    "fixture format: a judgment of a document called constructor",
    () =>
      copyOf(STARTER, (d) => {
        const q = JSON.parse(readFileSync(join(d, "queries.json"), "utf8")) as {
          queries: Array<{ judgments: Record<string, number>; relevantDocs?: string[] }>;
        };
        Object.defineProperty(q.queries[0]!.judgments, "constructor", { value: 2, enumerable: true });
        q.queries[0]!.relevantDocs = [...(q.queries[0]!.relevantDocs ?? []), "constructor"];
        write(join(d, "queries.json"), JSON.stringify(q));
      }),
    /\[unknown-document\] judges "constructor", which is not a document/,
  ],
  [
    "fixture format: a query id __proto__, twice",
    () =>
      copyOf(STARTER, (d) => {
        const q = JSON.parse(readFileSync(join(d, "queries.json"), "utf8")) as { queries: Array<{ id: string }> };
        q.queries[0]!.id = "__proto__";
        q.queries[1]!.id = "__proto__";
        write(join(d, "queries.json"), JSON.stringify(q));
      }),
    /\[duplicate-id\] query id "__proto__" is already used by query __proto__/,
  ],
  [
    "fixture format: a document of 17 MiB",
    () => copyOf(STARTER, (d) => write(join(d, "corpus", "huge.md"), `# Huge\n\n${"word ".repeat((17 * 2 ** 20) / 5)}`)),
    /huge\.md: \[too-large\] the document is 17\.0 MiB; a document is at most 16 MiB/,
  ],
  [
    "BEIR: ask-cases.json beside it holds null",
    () => copyOf(BEIR, (d) => write(join(d, "ask-cases.json"), "null")),
    /ask-cases\.json: \[schema\] the file is null/,
  ],
  [
    "BEIR: translations.json beside it holds null",
    () => copyOf(BEIR, (d) => write(join(d, "translations.json"), "null")),
    /translations\.json: \[schema\] the file is null/,
  ],
  [
    "BEIR: the qrels file cut off mid-line",
    () => copyOf(BEIR, (d) => cut(join(d, "qrels", "test.tsv"), readFileSync(join(d, "qrels", "test.tsv")).length - 1)),
    /test\.tsv:\d+: the last line has no line break at its end: the file looks cut off/,
  ],
  [
    "BEIR: queries.jsonl cut off mid-line",
    () => copyOf(BEIR, (d) => cut(join(d, "queries.jsonl"), 70)),
    /queries\.jsonl:2: not valid JSON/,
  ],
  [
    "BEIR: a corpus.jsonl line holding null",
    () => copyOf(BEIR, (d) => write(join(d, "corpus.jsonl"), `${readFileSync(join(d, "corpus.jsonl"), "utf8")}null\n`)),
    /corpus\.jsonl:\d+: expected a JSON object/,
  ],
  [
    "question/reference JSONL: a line holding null",
    () => copyOf("test/datasets/qa-jsonl/golden.jsonl", (f) => write(f, `${readFileSync(f, "utf8")}null\n`)),
    /golden\.jsonl: line \d+ \(\/\): \[schema\] must be an object \(got null\)/,
  ],
  [
    "question/reference JSONL: a line cut off",
    () => copyOf("test/datasets/qa-jsonl/golden.jsonl", (f) => cut(f, 150)),
    /golden\.jsonl: line 1 \(\/\): \[invalid-json\] invalid JSON at column \d+/,
  ],
  [
    "question/reference JSONL: only blank lines",
    () => copyOf("test/datasets/qa-jsonl/golden.jsonl", (f) => write(f, "\n\n")),
    /golden\.jsonl: a JSONL file whose first record has no "question" or "user_input"/,
  ],
  [
    "golden Q&A set: null",
    () => copyOf("test/datasets/golden-qa/golden_qa.json", (f) => write(f, "null")),
    /golden_qa\.json: a JSON file without a "questions" array/,
  ],
  [
    "golden Q&A set: no questions",
    () =>
      copyOf("test/datasets/golden-qa/golden_qa.json", (f) =>
        write(f, JSON.stringify({ ...JSON.parse(readFileSync(f, "utf8")), questions: [] })),
      ),
    /golden_qa\.json: \/questions: \[schema\] must list at least one item/,
  ],
  [
    "bundle: golden.json holds null",
    () => copyOf("test/datasets/bundle", (d) => write(join(d, "eval", "golden.json"), "null")),
    /golden\.json: \[schema\] the file is null/,
  ],
  [
    "fixtures layout: a document judged as constructor",
    () =>
      copyOf("test/datasets/fixtures-layout", (d) => {
        const q = JSON.parse(readFileSync(join(d, "queries.json"), "utf8")) as Array<{
          judgments: Array<{ docid: string; relevance: number }>;
        }>;
        q[0]!.judgments.push({ docid: "constructor", relevance: 1 });
        write(join(d, "queries.json"), JSON.stringify(q));
      }),
    /\[unknown-document\] judges "constructor"/,
  ],
  [
    "fixtures layout: queries.json holds null",
    () => copyOf("test/datasets/fixtures-layout", (d) => write(join(d, "queries.json"), "null")),
    /queries\.json: \[schema\] the file is null \(JSON null\); expected a JSON array/,
  ],
  [
    "a dataset of 200,001 questions",
    () => {
      const file = join(scratch, "many.jsonl");
      const line = (i: number) => JSON.stringify({ id: i, question: `q${i}`, reference: "r" });
      write(file, `${Array.from({ length: 200_001 }, (_, i) => line(i)).join("\n")}\n`);
      return file;
    },
    /many\.jsonl: \[too-large\] holds 200001 queries and questions; a dataset holds at most 200000/,
  ],
];

describe("campaign: a dataset's files", () => {
  it.each(DATASETS)("%s: one line, exit 2", async (name, make, message) => {
    const dataset = make();
    const r = await evalInProcess(["--explain-target"], { EVAL_DATASET: dataset });
    if (process.env.CAMPAIGN_SHOW) console.log(`${name}: ${r.stderr}`);
    campaign.record({ name, expect: 2, ...r });
    expect(r.stderr).toMatch(message);
  });
});

/** The recorded target's files: the run's setup opens it before any eval, and a ConfigError there is exit 2 with its one line. */
function openRecorded(name: string, files: Record<string, string | Buffer>): Replayed {
  const folder = join(scratch, `run-${n++}`);
  mkdirSync(folder, { recursive: true });
  const base: Record<string, string | Buffer> = {
    "search.run": "q-001 Q0 en/a.md 1 2.5 t\n",
    "answers.jsonl": `${JSON.stringify({ id: "a-001", answer: "x", citations: [], refused: false, sources: [] })}\n`,
  };
  for (const [file, text] of Object.entries({ ...base, ...files })) writeFileSync(join(folder, file), text);
  try {
    openRecordedTarget(folder, new Set(["q-001"]), undefined, (x) => `run:${x}`);
    return { name, expect: 2, code: 0, stdout: "", stderr: "" };
  } catch (error) {
    if (!(error instanceof ConfigError)) return { name, expect: 2, code: 1, stdout: "", stderr: (error as Error).stack ?? String(error) };
    return { name, expect: 2, code: 2, stdout: "", stderr: `eval: ${error.message}\n` };
  }
}

const RECORDED: Array<[string, Record<string, string | Buffer>, RegExp]> = [
  ["answers.jsonl: a line holding null", { "answers.jsonl": "null\n" }, /answers\.jsonl: line 1 \(\/\): \[schema\] the line is null/],
  ["answers.jsonl: a line cut off", { "answers.jsonl": '{"id": "a-001", "answ' }, /answers\.jsonl: line 1 \(\/\): \[invalid-json\]/],
  [
    "answers.jsonl: a line holding a list",
    { "answers.jsonl": "[1, 2]\n" },
    /answers\.jsonl: line 1 \(\/\): \[schema\] the line is an array/,
  ],
  ["answers.jsonl: saved as UTF-16", { "answers.jsonl": utf16('{"id":"a-001"}\n') }, /answers\.jsonl: \[encoding\] the file is UTF-16LE/],
  ["turns.jsonl: a line holding null", { "turns.jsonl": "null\n" }, /turns\.jsonl: line 1 \(\/\): \[schema\] the line is null/],
  [
    "turns.jsonl: a turn whose total tokens contradict its parts",
    {
      "turns.jsonl": `${JSON.stringify({ id: "t-001", answer: "", outcome: "answered", steps: [], citations: [], usage: { inputTokens: 5_000_000, outputTokens: 0, totalTokens: 1, counted: "model" } })}\n`,
    },
    /turns\.jsonl:1: not a turn: \/usage\/totalTokens: 1 is less than inputTokens \+ outputTokens/,
  ],
  [
    "search.run: cut off mid-line",
    { "search.run": "q-001 Q0 en/a.md 1 2.5 t\nq-001 Q0 en/b.md 2 1.5" },
    /search\.run:2: the last line has no line break at its end: the file looks cut off/,
  ],
];

describe("campaign: a recorded run's files", () => {
  it.each(RECORDED)("%s: one line, exit 2", (name, files, message) => {
    const r = openRecorded(name, files);
    campaign.record(r);
    expect(r.stderr).toMatch(message);
  });
});
